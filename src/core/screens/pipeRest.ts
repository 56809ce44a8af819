/**
 * Whether the tmux control pipe rests after a look (adapters/tmux/control.ts). While panes print,
 * the client stops reading the pipe and looks every 100 ms, so a flood costs ten reads a second, not
 * one per redraw: tmux's writes wait in the pipe meanwhile. That only holds while what the panes
 * print in a rest fits in the pipe. When it does not (64 agents each redrawing twenty coloured lines
 * 12 times a second, ~1.2 MB/s), a rest caps what the client takes in at about one pipe a look:
 * tmux, its writes blocked, holds the panes back, and a dialog reaches its screen seconds after it
 * was drawn (screen → seen p50 2.1–2.4 s, max 5.6 s). So a look that took in half a pipe or more
 * leaves it to the event loop, read as it comes, until the next look, which decides again.
 */

/**
 * A look that took in this much found the pipe (nearly) full. A full pipe gives a look 48–52 KB
 * (Linux, tmux 3.3: its writes leave the pipe's 4 KiB pages part filled); 64 lanes redrawing one
 * status line take 4–6 KB a look, 16 lanes of 20-line frames 24–40 KB (they keep up, and cross this
 * now and then, costing a tenth of a second read as it comes), 64 of those a full pipe every look.
 * Half of Linux's 64 KiB, two thirds of what a full pipe gives: the rest ends before it caps a flood.
 */
export const FULL_LOOK_BYTES = 32 * 1024;

export interface Look {
  /** Some pane is printing still: the client looks again in its rest's time. */
  readonly printing: boolean;
  /** Commands sent whose replies have not come: a reply is never kept waiting in a rest. */
  readonly pending: number;
  /** The connection is closing: its pipe is read to the end, or the close never comes. */
  readonly closing: boolean;
  /** The panes' output taken in between this look and the one before (bytes; replies not counted). */
  readonly lookBytes: number;
}

/** Rest the pipe until the next look? */
export function restAfterLook(look: Look): boolean {
  return look.printing && look.pending === 0 && !look.closing && look.lookBytes < FULL_LOOK_BYTES;
}
