/**
 * Deadlines only (accept, packet, stall, reset): one Node timer for the earliest entry, re-armed
 * from the state after a restart. No polling.
 */
import type { TimerName } from '../core/machineTypes.js';
import type { TimerEntry } from './engineState.js';

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
    const delay = Math.max(0, Math.min(earliest - this.now(), 2 ** 31 - 1));
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
