/**
 * The facts readiness needs about an account's profile, read from disk: whether the folder and the
 * credentials file exist (existence only: a credential is never opened), and where its git root is.
 * Each kind reads its own trust table on top (kinds/<kind>/readiness.ts). Never runs a CLI against a
 * profile (`claude auth status` rewrites `.claude.json`): files are only read.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Account } from '../core/config/types.js';
import type { ProfileFacts, Readiness } from '../core/accounts/readiness.js';

/** Where a kind keeps its profile: the variable that points its CLI there, and the default under HOME. */
export interface ProfileKind {
  /** CLAUDE_CONFIG_DIR, CODEX_HOME. */
  readonly env: string;
  /** `.claude`, `.codex`. */
  readonly home: string;
}

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
export function profileFolder(kind: ProfileKind, account: Pick<Account, 'env'>, home: string = homedir()): string {
  const declared = account.env[kind.env];
  if (declared !== undefined && declared !== '') return resolve(declared);
  return join(home, kind.home);
}

/** Everything readiness rules on but the kind's trust table; `declared`: the account names its profile. */
export function profileFacts(kind: ProfileKind, credentials: string, account: Pick<Account, 'env'>, checkout: string, home: string = homedir()): ProfileFacts & { declared: boolean } {
  const profile = profileFolder(kind, account, home);
  const exists = isDir(profile);
  return {
    profile,
    profileExists: exists,
    signedIn: exists && existsSync(join(profile, credentials)),
    checkout: resolve(checkout),
    gitRoot: gitRootOf(checkout),
    declared: account.env[kind.env] !== undefined,
  };
}

/** A kind's readiness read from disk; a profile that cannot be read is not ready, saying so. */
export function readinessRead(read: () => Readiness): Readiness {
  try {
    return read();
  } catch (error) {
    return { ready: false, why: `its profile could not be read (${error instanceof Error ? error.message : String(error)})`, fix: 'check the profile folder\'s permissions' };
  }
}
