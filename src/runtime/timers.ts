/**
 * Deadlines only (accept, packet, stall, reset): one Node timer for the earliest entry, re-armed
 * from the state after a restart. No polling. And safeTimeout, the setTimeout every timer of the
 * engine uses: Node fires a delay over 2^31-1 ms (24.8 days) at once.
 */
import type { TimerName } from '../machine/types.js';
import type { TimerEntry } from './engineState.js';

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * setTimeout for any delay: a longer one than MAX_TIMER_MS runs as an interval of equal steps that
 * fires `fn` once, on the last; an infinite one never fires; a negative or NaN one fires next turn.
 * The handle is one Node timer throughout, so clearTimeout stops it at any time.
 */
export function safeTimeout(fn: () => void, ms: number): NodeJS.Timeout {
  if (!(ms > 0)) return setTimeout(fn, 0);
  if (ms <= MAX_TIMER_MS) return setTimeout(fn, ms);
  if (ms === Number.POSITIVE_INFINITY) return setInterval(() => undefined, MAX_TIMER_MS);
  const steps = Math.ceil(ms / MAX_TIMER_MS);
  let left = steps;
  const handle = setInterval(() => {
    left -= 1;
    if (left > 0) return;
    clearInterval(handle);
    fn();
  }, ms / steps);
  return handle;
}

export class Deadlines {
  private handle: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly entries: () => TimerEntry[],
    private readonly fire: (due: TimerEntry[]) => void,
    private readonly now: () => number,
  ) {}

  static set(entries: TimerEntry[], lane: string, timer: TimerName, at: number): TimerEntry[] {
    return [...entries.filter((e) => !(e.lane === lane && e.timer === timer)), { lane, timer, at }];
  }

  static clear(entries: TimerEntry[], lane: string, timer: TimerName): TimerEntry[] {
    return entries.filter((e) => !(e.lane === lane && e.timer === timer));
  }

  /** Re-arm for the earliest entry. Call after every change. */
  arm(): void {
    if (this.stopped) return;
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
    const entries = this.entries();
    if (entries.length === 0) return;
    const earliest = Math.min(...entries.map((e) => e.at));
    const delay = Math.max(0, Math.min(earliest - this.now(), MAX_TIMER_MS));
    this.handle = setTimeout(() => {
      this.handle = null;
      const now = this.now();
      const due = this.entries().filter((e) => e.at <= now);
      if (due.length > 0) this.fire(due);
      else this.arm();
    }, delay);
  }

  stop(): void {
    this.stopped = true;
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
  }
}
