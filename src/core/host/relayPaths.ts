/**
 * What the host relay (core/host/relay.ts) may carry, and how a copy applies what arrives. The plan
 * folder is at the same absolute path P on both machines, so a file travels as its path relative to
 * P, and only under the roots of its direction: the agents' files from the host to the engine, the
 * engine's files to the host. Each side checks every path it is sent (the other side is not
 * trusted: an agent on the host writes its spool, and a relay may be anyone's program). Pure.
 */
import { isPushed } from './pushed.js';
import { MAX_WHOLE } from './relay.js';

/**
 * From the host to the engine: the agents' spools (records, usage, sandboxed packets), the packets
 * and acceptance records, the capacity readings, and the host's pane deaths (`panes-<host>.jsonl`,
 * the host's tmux's pane-died hook). A root ending in `/` is a folder (the files under it), else one
 * file. From the engine to the host: what the engine pushes (core/host/pushed.ts), nothing else.
 */
export function followedRoots(host: string): string[] {
  return ['.swarm/spool/', 'analysis_results/handoff/', '.swarm/capacity/', `.swarm/panes-${host}.jsonl`];
}

/** The longest path carried: past it a path is some agent's mischief, not a plan's file. */
const MAX_PATH = 1024;

/** Why `path` is no plain relative path under P (`a/b`, no `..`, `.`, empty part, leading `/`, NUL, control character, backslash), or null. */
export function pathProblem(path: string): string | null {
  if (path === '') return 'an empty path';
  if (path.length > MAX_PATH) return `a path longer than ${MAX_PATH} characters`;
  if (path.startsWith('/')) return 'an absolute path';
  // eslint-disable-next-line no-control-regex -- the control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return 'a NUL, a control character or a backslash';
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return 'an empty, `.` or `..` part';
  return null;
}

const followedBy = (path: string, roots: readonly string[]): boolean => roots.some((root) => (root.endsWith('/') ? path.startsWith(root) : path === root));

/**
 * How the host's file at `path` travels to the engine: `append` (a .jsonl: only its new bytes),
 * `whole` (written once or rewritten atomically: the file again when it changes), or null when it
 * does not (not a plain path, outside the followed roots, or a writer's temporary file).
 */
export function followed(path: string, host: string): 'append' | 'whole' | null {
  if (pathProblem(path) !== null || !followedBy(path, followedRoots(host)) || path.endsWith('.tmp')) return null;
  return path.endsWith('.jsonl') ? 'append' : 'whole';
}

/** Whether the folder at `path` ('' is P) holds followed files, or leads to a followed root. */
export function followedDir(path: string, host: string): boolean {
  if (path === '') return true;
  if (pathProblem(path) !== null) return false;
  const roots = followedRoots(host);
  return followedBy(`${path}/`, roots) || roots.some((root) => root.startsWith(`${path}/`));
}

/** Whether the engine may write `path` on the host. */
export function pushable(path: string): boolean {
  return pathProblem(path) === null && isPushed(path) && !path.endsWith('.jsonl') && !path.endsWith('.tmp');
}

/**
 * How a copy ending at `size` applies bytes of the other side's file at `at`: append them; skip the
 * part it already holds (a restart's overlap) and append the rest; or, bytes beyond its end, ask for
 * them again from its end (its copy never gets a hole).
 */
export type AppendStep = { do: 'append'; skip: number } | { do: 'nothing' } | { do: 'resend'; from: number };

export function appendStep(size: number, at: number, length: number): AppendStep {
  if (size < at) return { do: 'resend', from: size };
  const skip = size - at;
  return skip >= length ? { do: 'nothing' } : { do: 'append', skip };
}

/** A whole file arriving in pieces (`file`, `write` frames): the pieces so far. */
export interface Assembly { parts: Uint8Array[]; size: number }

/**
 * The next piece of a whole file: a piece at 0 starts it again; one elsewhere must follow the last.
 * `done`: the whole file, once its last piece came; `problem`: the pieces were out of order or too many.
 */
export function assemble(pending: Assembly | undefined, piece: { at: number; data: Uint8Array; last: boolean }): { pending: Assembly | null; done: Uint8Array | null; problem: string | null } {
  const start = piece.at === 0 ? { parts: [], size: 0 } : pending;
  if (start === undefined || start.size !== piece.at) return { pending: null, done: null, problem: `a piece at ${piece.at}, expected at ${start?.size ?? 0}` };
  const next = { parts: [...start.parts, piece.data], size: start.size + piece.data.length };
  if (next.size > MAX_WHOLE) return { pending: null, done: null, problem: `a whole file larger than ${MAX_WHOLE} bytes` };
  return piece.last ? { pending: null, done: Buffer.concat(next.parts, next.size), problem: null } : { pending: next, done: null, problem: null };
}
