/**
 * When the engine reads a pane's screen, and when a pane's output counts as news for the stall clock
 * (agents that never stop drawing). A working agent redraws a spinner and a token counter
 * many times a second; reading its screen at every redraw costs a capture and a match each time for
 * nothing. A screen that matters (permission, trust, login, usage limit) is drawn, and then the pane
 * goes quiet: so a screen is read once output has settled, at most every `maxWaitMs` while it floods
 * (a dialog under a clock that keeps ticking is still seen), and never twice within `minGapMs`. A
 * pane its host calls printing (core/screens/outputEdges.ts) has not settled until the host says quiet.
 */

export interface ScreenCadence {
  /** Quiet this long after the last output: read now. */
  readonly settleMs: number;
  /** Output has been flowing this long since the last read: read anyway. */
  readonly maxWaitMs: number;
  /** Never read the same pane twice within this. */
  readonly minGapMs: number;
  /** A read due within this of one taken now is taken with it (one wake-up for many flooding panes). */
  readonly batchMs: number;
}

export const SCREEN_CADENCE: ScreenCadence = { settleMs: 150, maxWaitMs: 2_000, minGapMs: 250, batchMs: 1_000 };

export interface PaneOutput {
  /** When the pane last printed. */
  readonly lastOutput: number;
  /** When it first printed since its screen was last read (null: nothing unread). */
  readonly firstUnread: number | null;
  /** When its screen was last read (null: never). */
  readonly lastRead: number | null;
  /** Its host says it is printing still (a `printing` edge, no `quiet` yet): it has not settled, whenever it last told. */
  readonly printing?: boolean;
}

/**
 * When to read the pane's screen next (epoch ms, a whole one), or null when it printed nothing since
 * the last read. Rounded up: a quiet edge places the last output a fraction of a ms back (its
 * `quietMs` is on a monotonic clock), and a timer for a fractional deadline fires up to 1 ms before
 * it, finds nothing due, and wakes the engine again for it.
 */
export function nextScreenRead(pane: PaneOutput, cadence: ScreenCadence = SCREEN_CADENCE): number | null {
  if (pane.firstUnread === null) return null;
  const maxWait = pane.firstUnread + cadence.maxWaitMs;
  const due = pane.printing === true ? maxWait : Math.min(pane.lastOutput + cadence.settleMs, maxWait);
  return Math.ceil(pane.lastRead === null ? due : Math.max(due, pane.lastRead + cadence.minGapMs));
}

/**
 * Which of the watched panes to read now, and when the next read is due (null: none). One deadline
 * for every pane (the earliest): output only moves a pane's own due time later, so a flood costs no
 * timer per redraw; the deadline, when it comes, finds who is due and sets the next. When some pane
 * is due, those due within `batchMs` (and not read within `minGapMs`) are read with it, due ones
 * first (a read taken early is safe:
 * output after it makes the pane unread again), so flooding panes fall into step and their max-wait
 * reads share a wake-up instead of taking one each.
 */
export function dueReads<K>(panes: Iterable<readonly [K, PaneOutput]>, now: number, cadence: ScreenCadence = SCREEN_CADENCE): { read: K[]; next: number | null } {
  const read: K[] = [];
  const soon: [K, number, boolean][] = [];
  for (const [key, pane] of panes) {
    const at = nextScreenRead(pane, cadence);
    if (at === null) continue;
    if (at <= now) read.push(key);
    else soon.push([key, at, pane.lastRead === null || now - pane.lastRead >= cadence.minGapMs]);
  }
  let next: number | null = null;
  for (const [key, at, gapped] of soon) {
    if (read.length > 0 && gapped && at <= now + cadence.batchMs) read.push(key);
    else if (next === null || at < next) next = at;
  }
  return { read, next };
}

/** What the stall clock needs to know of a lane to decide whether its output is news. */
export interface ActivityView {
  readonly state: string;
  readonly stallNudged: boolean;
  readonly blockedClass: string | null;
  readonly stallMs: number;
}

/**
 * Whether a pane's output should reach the lane machine as activity now. Output only feeds the stall
 * clock (minutes long), so while a lane works it is news at most every tenth of its stall timeout
 * (capped at a minute): each one is a state write. At once when it changes something: a lane still
 * starting, one nudged for stalling, or one blocked as stalled.
 */
export function activityDue(lane: ActivityView, lastReported: number | null, now: number): boolean {
  if (lane.state === 'starting' || lane.stallNudged || (lane.state === 'blocked' && lane.blockedClass === 'stalled')) return true;
  if (lastReported === null) return true;
  return now - lastReported >= Math.min(60_000, Math.max(1_000, lane.stallMs / 10));
}
