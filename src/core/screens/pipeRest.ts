/**
 * How the tmux control pipe is read while panes print (adapters/tmux/control.ts). The client stops
 * reading the pipe and looks at it now and then, reading what waited in one go, so a flood costs 10
 * to 100 reads a second, not one per redraw: tmux's writes wait in the pipe meanwhile. That only holds
 * while what the panes print in a rest fits in the pipe: when it does not, tmux, its writes blocked,
 * stops reading the panes behind (their agents' writes block), and a dialog reaches its screen
 * seconds after it was drawn (64 agents each redrawing twenty coloured lines 12 times a second,
 * ~1.2 MB/s, with a 100 ms rest: screen → seen p50 2.1–2.4 s, max 5.6 s). Read as it comes instead,
 * such a flood is ~700 reads a second (tmux writes at most 8 KiB at a time while behind, in pieces
 * of 32 bytes a pane), each a trip through Node's stream and the engine's edges: ~2.5 % of a core.
 * So a rest is sized to what the last one took in: long enough to gather ~16 KiB, a third of a pipe,
 * at the rate the panes print now, between MIN_REST_MS and REST_MS.
 */

/** A rest while panes print lightly (one look finding nothing is a pane gone quiet: core/screens/outputEdges.ts). */
export const REST_MS = 100;
/** The shortest rest: a flood of ~1.6 MB/s and more is looked at 100 times a second. */
export const MIN_REST_MS = 10;
/**
 * What a rest should gather at most. A full pipe gives a look 48–52 KB (Linux, tmux 3.3: its writes
 * leave the socket's pages part filled); 64 lanes redrawing one status line take 4–6 KB a 100 ms look,
 * 16 lanes of 20-line frames 24–40 KB. A third of a full pipe: room for the rate to double in a rest.
 */
export const LOOK_BYTES = 16 * 1024;

export interface Look {
  /** Some pane is printing still: the client looks again after a rest. */
  readonly printing: boolean;
  /** Commands sent whose replies have not come: a reply is never kept waiting in a rest. */
  readonly pending: number;
  /** The connection is closing: its pipe is read to the end, or the close never comes. */
  readonly closing: boolean;
}

/** Rest the pipe until the next look? */
export function restAfterLook(look: Look): boolean {
  return look.printing && look.pending === 0 && !look.closing;
}

/**
 * How long to rest after a look that took in `bytes` of the panes' output over the `elapsedMs`
 * since the one before (replies not counted): what gathers LOOK_BYTES at that rate, within
 * [MIN_REST_MS, REST_MS]; REST_MS when nothing came or no time passed (a new spell of printing).
 */
export function restMs(bytes: number, elapsedMs: number): number {
  if (!(bytes > 0) || !(elapsedMs > 0)) return REST_MS;
  const ms = Math.floor((LOOK_BYTES * elapsedMs) / bytes);
  if (Number.isNaN(ms)) return REST_MS; // both infinite
  return Math.max(MIN_REST_MS, Math.min(REST_MS, ms));
}
