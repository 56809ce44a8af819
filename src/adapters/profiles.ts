/**
 * The facts readiness needs about an account's profile, read from disk: whether the folder and the
 * credentials file exist (existence only: a credential is never opened), and the trust tables of
 * `.claude.json` / `config.toml`. Never runs a CLI against a profile (`claude auth status` rewrites
 * `.claude.json`): files are only read.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Account } from '../core/config/types.js';
import { codexTrustLevels } from '../kinds/codex/trust.js';
import { claudeProjects, CREDENTIALS_FILE, isChecked, PROFILE_ENV, readiness, type Readiness, type ReadinessFacts } from '../core/accounts/readiness.js';
import { readTextIfExists } from './files.js';

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The folder a checkout's git repository (or worktree) starts at: the nearest folder with a `.git`. */
export function gitRootOf(checkout: string): string | null {
  for (let path = resolve(checkout); ; path = dirname(path)) {
    if (existsSync(join(path, '.git'))) return path;
    if (dirname(path) === path) return null;
  }
}

/** The profile folder an account runs on: its env's profile variable, else the CLI's default. */
export function profileOf(account: Pick<Account, 'kind' | 'env'>, home = homedir()): string | null {
  const variable = PROFILE_ENV[account.kind];
  if (variable === undefined) return null;
  const declared = account.env[variable];
  if (declared !== undefined && declared !== '') return resolve(declared);
  return join(home, account.kind === 'claude' ? '.claude' : '.codex');
}

/** Everything readiness rules on, for one account and one checkout. */
export function readinessFacts(account: Pick<Account, 'kind' | 'env'>, checkout: string, home = homedir()): ReadinessFacts {
  const profile = profileOf(account, home) ?? '';
  const exists = profile !== '' && isDir(profile);
  const credentials = CREDENTIALS_FILE[account.kind];
  const declared = account.env[PROFILE_ENV[account.kind] ?? ''] !== undefined;
  // Claude keeps .claude.json inside CLAUDE_CONFIG_DIR, or beside ~/.claude as ~/.claude.json by default.
  const claudeJson = declared ? join(profile, '.claude.json') : join(home, '.claude.json');
  return {
    kind: account.kind,
    profile,
    profileExists: exists,
    signedIn: exists && credentials !== undefined && existsSync(join(profile, credentials)),
    claudeProjects: account.kind === 'claude' && exists ? claudeProjects(readTextIfExists(claudeJson)) : null,
    codexTrust: account.kind === 'codex' && exists ? codexTrustOf(join(profile, 'config.toml')) : null,
    checkout: resolve(checkout),
    gitRoot: gitRootOf(checkout),
  };
}

function codexTrustOf(file: string): Map<string, string> | null {
  const text = readTextIfExists(file);
  return text === null ? null : codexTrustLevels(text);
}

/** Ready or not (and why) for an account on a checkout; kinds swarm does not check are always ready. */
export function accountReadiness(account: Pick<Account, 'kind' | 'env'>, checkout: string, home = homedir()): Readiness {
  if (!isChecked(account.kind)) return { ready: true };
  try {
    return readiness(readinessFacts(account, checkout, home));
  } catch (error) {
    return { ready: false, why: `its profile could not be read (${error instanceof Error ? error.message : String(error)})`, fix: 'check the profile folder\'s permissions' };
  }
}
