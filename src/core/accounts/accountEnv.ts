/**
 * What an account's `env:` may hold (SPEC 3: profile locations only, never a secret). Pure.
 *
 * Decisions where SPEC 3 is silent:
 * - A name swarm or the pane host sets, or that changes how every program in the pane runs, is
 *   reserved: SWARM_*, TMUX and TMUX_*, PATH, TERM, NODE_OPTIONS, LD_PRELOAD, LD_LIBRARY_PATH and
 *   DYLD_*. Profile variables (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, HOME) stay allowed.
 * - A name like *TOKEN*, *KEY*, *SECRET*, *PASSWORD*, or a value with a token's shape (the packet
 *   rules of secrets.ts), is a credential and refused. The value is never shown. A value that is a
 *   path is held only to the well-known token shapes, not the long-random-string guess.
 */
import { isSecretName, secretShapes, tokenShapes } from '../packet/secrets.js';

const RESERVED: readonly [RegExp, string][] = [
  [/^SWARM_/, 'swarm sets every SWARM_* variable of a pane itself (SPEC 4.1)'],
  [/^TMUX(_|$)/, 'TMUX and TMUX_* tell tmux which server and pane it runs in'],
  [/^PATH$/, "swarm puts its own `swarm` first on a pane's PATH"],
  [/^TERM$/, 'the pane host sets TERM; swarm reads the screen it draws'],
  [/^NODE_OPTIONS$/, 'it changes how `swarm notify` and `swarm capacity` run in the pane'],
  [/^(LD_PRELOAD|LD_LIBRARY_PATH|DYLD_.*)$/, 'it changes how every program in the pane runs'],
];

const HELP = "an account's env holds only its profile location (e.g. CLAUDE_CONFIG_DIR: ~/.claude-work1); keep credentials in that profile, and remove this entry";

/** Why `name=value` may not be in an account's env (`path` names it), or null when it may. */
export function accountEnvProblem(path: string, name: string, value: string): { at: 'key' | 'value'; message: string } | null {
  const reserved = RESERVED.find(([pattern]) => pattern.test(name));
  if (reserved !== undefined) return { at: 'key', message: `"${path}" is reserved: ${reserved[1]}; remove it (an account's env holds only its profile location)` };
  if (isSecretName(name)) return { at: 'key', message: `"${path}" is named like a credential (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*): ${HELP}` };
  // A path (a profile location, the point of an account's env) may hold a random-looking folder name
  // (mkdtemp, a long worktree name): only a token's well-known shape counts there.
  const shape = (/^[/~.]/.test(value) ? tokenShapes(value) : secretShapes(value))[0];
  return shape === undefined ? null : { at: 'value', message: `"${path}" ${shape}, value not shown: ${HELP}` };
}
