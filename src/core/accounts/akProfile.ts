/**
 * `ak_profile: <cli>/<name>` (SPEC 3): a coding-agents-kit profile, resolved to its folder
 * and passed to the agent as the kind's profile variable (CLAUDE_CONFIG_DIR, CODEX_HOME). Pure.
 *
 * Where the kit keeps profiles is not written down anywhere swarm can see, so this is swarm's
 * documented default: `$AK_HOME/profiles/<cli>/<name>`, with AK_HOME defaulting to `~/.agentkit`.
 */
import { posix } from 'node:path';

/**
 * The CLIs the kit keeps profiles for, and the variable each CLI's profile folder is passed in (the
 * same as their kinds' `account_env`, panes/<kind>.yaml; config resolution reads no kind file).
 */
const PROFILE_ENV: Readonly<Record<string, string>> = { claude: 'CLAUDE_CONFIG_DIR', codex: 'CODEX_HOME' };

export type AkProfile = { ok: true; variable: string; folder: string } | { ok: false; message: string };

const PART = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Resolve an account's ak_profile for its kind; `env` supplies AK_HOME, `home` the `~`. */
export function resolveAkProfile(value: string, kind: string, facts: { home: string; env: Readonly<Record<string, string | undefined>> }): AkProfile {
  const variable = PROFILE_ENV[kind];
  if (variable === undefined) {
    return { ok: false, message: `ak_profile is for claude and codex accounts (a kit profile is a CLI's profile folder); this account's kind is ${kind}: remove it` };
  }
  const parts = value.split('/');
  if (parts.length !== 2 || !parts.every((p) => PART.test(p) && p !== '..')) {
    return { ok: false, message: `ak_profile "${value}" must be <cli>/<name>, e.g. ${kind}/work3` };
  }
  if (parts[0] !== kind) return { ok: false, message: `ak_profile "${value}" names the ${parts[0]} CLI, but the account's kind is ${kind}: write ${kind}/${parts[1]}` };
  const given = facts.env.AK_HOME?.trim();
  const akHome = given ? (given === '~' || given.startsWith('~/') ? posix.join(facts.home, given.slice(1)) : given) : posix.join(facts.home, '.agentkit');
  return { ok: true, variable, folder: posix.join(akHome, 'profiles', parts[0], parts[1]!) };
}
