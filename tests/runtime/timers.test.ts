import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeadAsks } from '../../src/runtime/asks.js';
import type { Engine } from '../../src/runtime/engine.js';
import { MAX_TIMER_MS, safeTimeout, systemClock } from '../../src/runtime/clock.js';
import type { TimerEntry } from '../../src/runtime/engineState.js';
import { Deadlines } from '../../src/runtime/timers.js';
import type { Effect } from '../../src/machine/types.js';

const HOUR = 3_600_000;

afterEach(() => {
  vi.useRealTimers();
});

describe('safeTimeout', () => {
  it('fires after a delay past setTimeout\'s 24.8 days, not before, and clearTimeout stops it', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    safeTimeout(fired, 600 * HOUR);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(600 * HOUR - MAX_TIMER_MS - 2);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100 * HOUR);
    expect(fired).toHaveBeenCalledTimes(1);

    const cleared = vi.fn();
    const handle = safeTimeout(cleared, 600 * HOUR);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    clearTimeout(handle);
    vi.advanceTimersByTime(600 * HOUR);
    expect(cleared).not.toHaveBeenCalled();
  });

  it.each([[-5], [0], [Number.NaN]])('a delay of %d fires on the next turn', (ms) => {
    vi.useFakeTimers();
    const fired = vi.fn();
    safeTimeout(fired, ms);
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('never fires for an infinite delay', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    safeTimeout(fired, Number.POSITIVE_INFINITY);
    vi.advanceTimersByTime(1000 * HOUR);
    expect(fired).not.toHaveBeenCalled();
  });
});

describe('the ask timer with a delay past 24.8 days', () => {
  it('does not re-fire every millisecond (real timers)', async () => {
    let expiries = 0;
    const state = { asks: [] as { from: string; at: number }[], askTimeouts: 0, leadName: 'lead', leadAgent: 'lead' };
    const engine = {
      state,
      config: { timeouts: { ask: 600 * HOUR } },
      clock: systemClock,
      commit: (patch: object) => Object.assign(state, patch),
      now: () => Date.now(),
      enqueue: () => {
        expiries += 1;
        return Promise.resolve();
      },
    } as unknown as Engine;
    const asks = new LeadAsks(engine);
    asks.asked('lane-a', Date.now());
    await new Promise((resolve) => setTimeout(resolve, 100));
    asks.stop();
    expect(expiries).toBe(0);
  });
});

describe('Deadlines.apply: a transition\'s deadlines are state', () => {
  const journal = { type: 'journal', id: 'j', kind: 'observation', event: 'x', data: {} } as const;
  it.each<[string, TimerEntry[], Effect[], TimerEntry[], Effect[]]>([
    ['none: nothing changes', [], [], [], []],
    ['a set, beside another lane\'s', [{ lane: 'b', timer: 'stall', at: 1 }], [{ type: 'set_timer', id: 's', timer: 'stall', at: 9 }], [{ lane: 'b', timer: 'stall', at: 1 }, { lane: 'a', timer: 'stall', at: 9 }], []],
    ['a set replaces the same timer', [{ lane: 'a', timer: 'accept', at: 1 }], [{ type: 'set_timer', id: 's', timer: 'accept', at: 7 }], [{ lane: 'a', timer: 'accept', at: 7 }], []],
    ['clear then set, in order; other effects left to carry out', [{ lane: 'a', timer: 'packet', at: 1 }],
      [{ type: 'clear_timer', id: 'c', timer: 'packet' }, journal, { type: 'set_timer', id: 's', timer: 'stall', at: 4 }], [{ lane: 'a', timer: 'stall', at: 4 }], [journal]],
    ['a clear of a timer not set: nothing', [], [{ type: 'clear_timer', id: 'c', timer: 'reset' }], [], []],
  ])('%s', (_what, entries, effects, timers, rest) => {
    expect(Deadlines.apply(entries, 'a', effects)).toEqual({ timers, rest });
  });
});
