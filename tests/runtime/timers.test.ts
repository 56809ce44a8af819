import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, safeTimeout, systemClock } from '../../src/runtime/clock.js';
import type { TimerEntry } from '../../src/runtime/engineState.js';
import { Deadlines } from '../../src/runtime/timers.js';
import { deadlines } from '../../src/core/swarm/deadlines.js';
import type { SwarmEvent } from '../../src/core/swarm/events.js';
import { HandClock } from '../helpers/handClock.js';

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

describe('the ask deadline with a delay past 24.8 days', () => {
  it('does not re-fire every millisecond (real timers)', async () => {
    let fired = 0;
    const state = { timers: [] as TimerEntry[], releaseAt: null, planDone: false, asks: [{ from: 'lane-a', at: Date.now() }], askTimeouts: 0 };
    const timers = new Deadlines(() => deadlines(state, 600 * HOUR), () => { fired += 1; }, systemClock);
    timers.arm();
    await new Promise((resolve) => setTimeout(resolve, 100));
    timers.stop();
    expect(fired).toBe(0);
  });
});

describe('Deadlines: one clock timer per group, each deadline fed once', () => {
  const lanes = (...ats: number[]): TimerEntry[] => ats.map((at, i) => ({ lane: `l${i}`, timer: 'stall', at }));
  it('arms the earliest lane timer, the release and the ask deadline; feeds each once, and follows the state', () => {
    const clock = new HandClock(0);
    const state = { timers: lanes(50, 20), releaseAt: 70 as number | null, planDone: false, asks: [{ from: 'a', at: 0 }], askTimeouts: 0 };
    const fed: SwarmEvent[] = [];
    const timers = new Deadlines(() => deadlines(state, 30), (due) => { fed.push(...due); }, clock);
    timers.arm();
    expect(clock.pending()).toEqual([20, 30, 70]);
    clock.advance(25);
    expect(fed).toEqual([{ type: 'timer', lane: 'l1', timer: 'stall', at: 20 }]);
    timers.arm(); // a step before the lane's timer event ran: not fed again
    expect(clock.pending()).toEqual([5, 45]);
    state.timers = lanes(50);
    timers.arm();
    expect(clock.pending()).toEqual([5, 25, 45]);
    timers.stop();
    expect(clock.pending()).toEqual([]);
  });
});
