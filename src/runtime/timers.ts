/**
 * Deadlines only, armed from the state (core/swarm/deadlines.ts): one timer on the swarm's clock per
 * group (the lanes' timers, the release deadline, the ask deadline) for its earliest entry, re-armed
 * after every step and, from the state file, after a restart. A deadline that passed feeds its event
 * once; the reducer clears it (or moves it), and the next arm follows the state. No polling.
 */
import type { Deadline } from '../core/swarm/deadlines.js';
import type { SwarmEvent } from '../core/swarm/events.js';
import { MAX_TIMER_MS, type Clock, type ClockTimer } from './clock.js';

export class Deadlines {
  private readonly armed = new Map<Deadline['key'], { at: number; handle: ClockTimer }>();
  /** The deadline each group last fed (its event is queued): not fed again until the state moves it. */
  private readonly fed = new Map<Deadline['key'], number>();
  private stopped = false;

  constructor(
    private readonly entries: () => Deadline[],
    private readonly fire: (due: SwarmEvent[]) => void,
    private readonly clock: Clock,
  ) {}

  /** Arm each group for its earliest deadline. Call after every change. */
  arm(): void {
    if (this.stopped) return;
    const earliest = new Map<Deadline['key'], number>();
    for (const d of this.entries()) earliest.set(d.key, Math.min(earliest.get(d.key) ?? Infinity, d.at));
    for (const [key, armed] of this.armed) {
      if (earliest.get(key) === armed.at) continue;
      armed.handle.cancel();
      this.armed.delete(key);
    }
    for (const key of this.fed.keys()) if (earliest.get(key) !== this.fed.get(key)) this.fed.delete(key);
    for (const [key, at] of earliest) {
      if (this.armed.has(key) || this.fed.get(key) === at) continue;
      const delay = Math.max(0, Math.min(at - this.clock.now(), MAX_TIMER_MS));
      this.armed.set(key, { at, handle: this.clock.after(delay, () => this.wake(key, at)) });
    }
  }

  private wake(key: Deadline['key'], at: number): void {
    this.armed.delete(key);
    const now = this.clock.now();
    const due = this.entries().filter((d) => d.key === key && d.at <= now);
    if (due.length === 0) return this.arm(); // a delay past setTimeout's longest: wait on
    this.fed.set(key, at);
    this.fire(due.map((d) => d.event));
  }

  stop(): void {
    this.stopped = true;
    for (const armed of this.armed.values()) armed.handle.cancel();
    this.armed.clear();
  }
}
