import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeadAsks } from '../../src/runtime/asks.js';
import type { Engine } from '../../src/runtime/engine.js';
import { MAX_TIMER_MS, safeTimeout, systemClock } from '../../src/runtime/clock.js';

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
