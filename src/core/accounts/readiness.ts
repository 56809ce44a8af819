/**
 * Is an account ready to be leased? An account that would stop at its start — profile
 * folder missing, signed out, or the checkout not trusted — is skipped when swarm picks one. Pure:
 * the facts (which files exist, the parsed trust tables) come in; nothing here reads a file, and a
 * credential is only ever known to exist, never read.
 *
 * Rules, from SCREENS.md (Claude Code 2.1.197, Codex 0.171.0):
 * - claude: `.credentials.json` in the profile; `.claude.json` `projects[<path>].hasTrustDialogAccepted`
 *   for the git root (or the checkout), then its parent folders.
 * - codex: `auth.json` in the profile; `config.toml` `[projects."<path>"] trust_level = "trusted"`
 *   for the checkout or its git root.
 * - every other kind (sim, command, gemini, a kind of one's own): always ready.
 */
import { dirname } from 'node:path/posix';

export interface ReadinessFacts {
  kind: string;
  /** The profile folder the account runs on (absolute). */
  profile: string;
  profileExists: boolean;
  /** True when the credentials file of the kind exists in the profile (never read). */
  signedIn: boolean;
  /** Claude: `.claude.json`'s `projects` map (null: no file, unreadable, or no map). */
  claudeProjects: Readonly<Record<string, unknown>> | null;
  /** Codex: `config.toml`'s `[projects."<path>"]` trust levels (null: no file). */
  codexTrust: ReadonlyMap<string, string> | null;
  /** Absolute. */
  checkout: string;
  /** Absolute, or null when the checkout is no git repository. */
  gitRoot: string | null;
}

export type Readiness = { ready: true } | { ready: false; why: string; fix: string };

/** The file whose existence says "signed in", per kind. */
export const CREDENTIALS_FILE: Readonly<Record<string, string>> = { claude: '.credentials.json', codex: 'auth.json' };

/** The variable that points a kind's CLI at its profile folder. */
export const PROFILE_ENV: Readonly<Record<string, string>> = { claude: 'CLAUDE_CONFIG_DIR', codex: 'CODEX_HOME' };

/** Kinds whose profiles swarm checks; every other kind is always ready. */
export const CHECKED_KINDS = ['claude', 'codex'] as const;

export function isChecked(kind: string): boolean {
  return (CHECKED_KINDS as readonly string[]).includes(kind);
}

/** Ready, or not ready with why and what the developer does about it. */
export function readiness(f: ReadinessFacts): Readiness {
  if (!isChecked(f.kind)) return { ready: true };
  const cli = f.kind === 'claude' ? 'Claude Code' : 'Codex';
  if (!f.profileExists) {
    return { ready: false, why: `profile folder ${f.profile} is missing`, fix: `create it and sign in there: ${signInHint(f)}` };
  }
  if (!f.signedIn) {
    return { ready: false, why: `signed out (no ${CREDENTIALS_FILE[f.kind]} in ${f.profile})`, fix: `sign in to ${cli} on that profile: ${signInHint(f)}` };
  }
  const trusted = f.kind === 'claude' ? claudeTrusts(f) : codexTrusts(f);
  if (!trusted) {
    const where = f.gitRoot ?? f.checkout;
    return { ready: false, why: `the checkout ${where} is not trusted on ${f.profile}`, fix: `start ${cli} once in ${where} on that profile and accept its trust screen` };
  }
  return { ready: true };
}

function signInHint(f: ReadinessFacts): string {
  return f.kind === 'claude' ? `CLAUDE_CONFIG_DIR=${f.profile} claude, then /login` : `CODEX_HOME=${f.profile} codex login`;
}

/** The git root (or the checkout), then each parent folder up to `/`. */
function claudeTrusts(f: ReadinessFacts): boolean {
  const projects = f.claudeProjects;
  if (projects === null) return false;
  const starts = [...new Set([f.gitRoot ?? f.checkout, f.checkout])];
  for (const start of starts) {
    for (let path = trimSlash(start); ; path = dirname(path)) {
      const entry = projects[path];
      if (typeof entry === 'object' && entry !== null && (entry as Record<string, unknown>).hasTrustDialogAccepted === true) return true;
      if (path === '/' || dirname(path) === path) break;
    }
  }
  return false;
}

function codexTrusts(f: ReadinessFacts): boolean {
  const table = f.codexTrust;
  if (table === null) return false;
  return [f.checkout, f.gitRoot].some((p) => p !== null && table.get(trimSlash(p)) === 'trusted');
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

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
