/**
 * What a pane's environment holds, one rule for every backend (SPEC 3 `pass_env`, SPEC 4.1): the
 * user's environment (swarm's own) without credential-looking variables, then the names `pass_env`
 * lets through anyway, then the account's profile, then swarm's own variables. Pure.
 *
 * Left out of the user's part as well, because the pane's terminal or swarm sets them: the
 * terminal's own (`TERM`, `TERM_PROGRAM*`, `COLUMNS`, `LINES`, `TMUX`, `TMUX_PANE`), and every
 * `SWARM_*` but `SWARM_TMUX_SOCKET` (a swarm started inside a pane must not hand its pane's
 * identity, or its packet, to its own agents), and names that are not shell identifiers.
 */
import { looksLikeCredential } from '../packet/secrets.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface PaneEnvInput {
  /** swarm's own environment (`swarm up`'s). */
  user: Env;
  /** swarm.yaml `pass_env`. */
  passEnv: readonly string[];
  /** The account's profile environment (swarm.yaml `accounts[].env`). */
  account: Readonly<Record<string, string>>;
  /** SPEC 4.1's variables, PATH included. */
  swarm: Readonly<Record<string, string>>;
}

/** A name a POSIX shell can pass on (tmux panes start through one); others are left out everywhere. */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TERMINAL = new Set(['TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'COLUMNS', 'LINES', 'TMUX', 'TMUX_PANE']);

/** Whether the user's variable `name` reaches a pane (before the account's and swarm's own are laid over). */
export function userVariablePasses(name: string, passEnv: readonly string[]): boolean {
  if (!SHELL_NAME.test(name) || TERMINAL.has(name)) return false;
  if (name.startsWith('SWARM_') && name !== 'SWARM_TMUX_SOCKET') return false;
  // GIT_CONFIG_KEY_<n> holds the name of a git setting, not a key: git's own environment entries
  // reach the pane whole (its count, keys and values), so swarm's hooks can follow them (SPEC 10.5).
  if (/^GIT_CONFIG_KEY_\d+$/.test(name)) return true;
  return !looksLikeCredential(name) || passEnv.includes(name);
}

/** The pane's whole environment, in a stable (sorted) order. */
export function paneEnvironment(input: PaneEnvInput): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.user)) {
    if (value !== undefined && userVariablePasses(name, input.passEnv)) merged[name] = value;
  }
  Object.assign(merged, input.account, input.swarm);
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
