/**
 * Codex's readiness (SCREENS.md, Codex 0.171.0): `auth.json` in the profile; `config.toml`
 * `[projects."<path>"] trust_level = "trusted"` for the checkout or its git root.
 */
import { join } from 'node:path';
import { profileReadiness, trimSlash, type ProfileFacts, type ProfileWords, type Readiness } from '../../core/accounts/readiness.js';
import type { Account } from '../../core/config/types.js';
import { readTextIfExists } from '../../adapters/files.js';
import { profileFacts, readinessRead, type ProfileKind } from '../../adapters/profiles.js';
import { codexTrustLevels } from './trust.js';

export const CODEX_PROFILE: ProfileKind = { env: 'CODEX_HOME', home: '.codex' };

const WORDS: ProfileWords = {
  cli: 'Codex',
  credentials: 'auth.json',
  signIn: (profile) => `CODEX_HOME=${profile} codex login`,
};

export interface CodexFacts extends ProfileFacts {
  /** `config.toml`'s `[projects."<path>"]` trust levels (null: no file). */
  trust: ReadonlyMap<string, string> | null;
}

export function codexReadiness(f: CodexFacts): Readiness {
  const table = f.trust;
  const trusted = table !== null && [f.checkout, f.gitRoot].some((p) => p !== null && table.get(trimSlash(p)) === 'trusted');
  return profileReadiness(f, WORDS, trusted);
}

/** Read from the profile (files only). */
export function codexReady(account: Pick<Account, 'env'>, checkout: string, home: string | undefined): Readiness {
  return readinessRead(() => {
    const facts = profileFacts(CODEX_PROFILE, WORDS.credentials, account, checkout, home);
    const text = facts.profileExists ? readTextIfExists(join(facts.profile, 'config.toml')) : null;
    return codexReadiness({ ...facts, trust: text === null ? null : codexTrustLevels(text) });
  });
}
