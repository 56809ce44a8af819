/**
 * Deadlines only (accept, packet, stall, reset): one timer on the swarm's clock for the earliest
 * entry, re-armed from the state after a restart. No polling.
 */
import type { Effect, TimerName } from '../machine/types.js';
import type { TimerEntry } from './engineState.js';
import { MAX_TIMER_MS, type Clock, type ClockTimer } from './clock.js';

export class Deadlines {
  private handle: ClockTimer | null = null;
  private stopped = false;

  constructor(
    private readonly entries: () => TimerEntry[],
    private readonly fire: (due: TimerEntry[]) => void,
    private readonly clock: Clock,
  ) {}

  static set(entries: TimerEntry[], lane: string, timer: TimerName, at: number): TimerEntry[] {
    return [...entries.filter((e) => !(e.lane === lane && e.timer === timer)), { lane, timer, at }];
  }

  static clear(entries: TimerEntry[], lane: string, timer: TimerName): TimerEntry[] {
    return entries.filter((e) => !(e.lane === lane && e.timer === timer));
  }

  /**
   * A transition's deadlines are state: its set_timer and clear_timer effects, applied in order to
   * `entries` (saved with the transition itself), and the effects left to carry out. Pure.
   */
  static apply(entries: TimerEntry[], lane: string, effects: readonly Effect[]): { timers: TimerEntry[]; rest: Effect[] } {
    let timers = entries;
    const rest: Effect[] = [];
    for (const effect of effects) {
      if (effect.type === 'set_timer') timers = Deadlines.set(timers, lane, effect.timer, effect.at);
      else if (effect.type === 'clear_timer') timers = Deadlines.clear(timers, lane, effect.timer);
      else rest.push(effect);
    }
    return { timers, rest };
  }

  /** Re-arm for the earliest entry. Call after every change. */
  arm(): void {
    if (this.stopped) return;
    this.handle?.cancel();
    this.handle = null;
    const entries = this.entries();
    if (entries.length === 0) return;
    const earliest = Math.min(...entries.map((e) => e.at));
    const delay = Math.max(0, Math.min(earliest - this.clock.now(), MAX_TIMER_MS));
    this.handle = this.clock.after(delay, () => {
      this.handle = null;
      const now = this.clock.now();
      const due = this.entries().filter((e) => e.at <= now);
      if (due.length > 0) this.fire(due);
      else this.arm();
    });
  }

  stop(): void {
    this.stopped = true;
    this.handle?.cancel();
    this.handle = null;
  }
}
