/**
 * Claude Code's readiness (SCREENS.md, Claude Code 2.1.197): `.credentials.json` in the profile;
 * `.claude.json` `projects[<path>].hasTrustDialogAccepted` for the git root (or the checkout), then
 * its parent folders. `.claude.json` sits inside CLAUDE_CONFIG_DIR, or beside ~/.claude by default.
 */
import { dirname, join } from 'node:path';
import { dirname as posixDirname } from 'node:path/posix';
import { profileReadiness, trimSlash, type ProfileFacts, type ProfileWords, type Readiness } from '../../core/accounts/readiness.js';
import type { Account } from '../../core/config/types.js';
import { readTextIfExists } from '../../adapters/files.js';
import { profileFacts, readinessRead, type ProfileKind } from '../../adapters/profiles.js';

export const CLAUDE_PROFILE: ProfileKind = { env: 'CLAUDE_CONFIG_DIR', home: '.claude' };

const WORDS: ProfileWords = {
  cli: 'Claude Code',
  credentials: '.credentials.json',
  signIn: (profile) => `CLAUDE_CONFIG_DIR=${profile} claude, then /login`,
};

export interface ClaudeFacts extends ProfileFacts {
  /** `.claude.json`'s `projects` map (null: no file, unreadable, or no map). */
  projects: Readonly<Record<string, unknown>> | null;
}

export function claudeReadiness(f: ClaudeFacts): Readiness {
  return profileReadiness(f, WORDS, claudeTrusts(f));
}

/** Read from the profile (files only: `claude auth status` would rewrite `.claude.json`). */
export function claudeReady(account: Pick<Account, 'env'>, checkout: string, home: string | undefined): Readiness {
  return readinessRead(() => {
    const facts = profileFacts(CLAUDE_PROFILE, WORDS.credentials, account, checkout, home);
    const claudeJson = facts.declared ? join(facts.profile, '.claude.json') : join(dirname(facts.profile), '.claude.json');
    return claudeReadiness({ ...facts, projects: facts.profileExists ? claudeProjects(readTextIfExists(claudeJson)) : null });
  });
}

/** The git root (or the checkout), then each parent folder up to `/`. */
function claudeTrusts(f: ClaudeFacts): boolean {
  const projects = f.projects;
  if (projects === null) return false;
  const starts = [...new Set([f.gitRoot ?? f.checkout, f.checkout])];
  for (const start of starts) {
    for (let path = trimSlash(start); ; path = posixDirname(path)) {
      const entry = projects[path];
      if (typeof entry === 'object' && entry !== null && (entry as Record<string, unknown>).hasTrustDialogAccepted === true) return true;
      if (path === '/' || posixDirname(path) === path) break;
    }
  }
  return false;
}

/** `.claude.json`'s `projects` map, or null when the text is no JSON object with one. */
export function claudeProjects(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const projects = (value as Record<string, unknown>).projects;
    return typeof projects === 'object' && projects !== null && !Array.isArray(projects) ? (projects as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
