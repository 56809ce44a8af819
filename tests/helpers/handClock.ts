/**
 * A clock driven by hand (src/runtime/clock.ts): time stands still until a test advances it, and
 * advancing fires every deadline it passes, earliest first, each at its own time.
 */
import type { Clock, ClockTimer } from '../../src/runtime/clock.js';

interface Entry {
  at: number;
  seq: number;
  fn: () => void;
}

export class HandClock implements Clock {
  private time: number;
  private entries: Entry[] = [];
  private seq = 0;

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): ClockTimer {
    const entry: Entry = { at: this.time + (ms > 0 ? ms : 0), seq: this.seq++, fn };
    this.entries.push(entry);
    return { cancel: () => { this.entries = this.entries.filter((e) => e !== entry); } };
  }

  /** Deadlines set and not yet fired or cancelled, as delays from now. */
  pending(): number[] {
    return this.entries.map((e) => e.at - this.time).sort((a, b) => a - b);
  }

  /** Move time on by `ms`, firing each deadline passed at its own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.entries.filter((e) => e.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.entries = this.entries.filter((e) => e !== due);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = end;
  }
}
