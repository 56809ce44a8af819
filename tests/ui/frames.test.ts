import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bindFrames } from '../../src/ui/frames.js';
import { createSwarmStore, pushEvent } from '../../src/ui/store.js';
import { NOW, entry, lane } from './views.js';

const store = () => createSwarmStore({
  name: 'demo', plan: '/repo/plans/demo', session: 'swarm-demo', backend: 'tmux', startedAt: NOW,
  lead: { name: 'lead', epoch: 1, account: 'a1', state: 'working' }, lanes: [],
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('bindFrames: at most one frame per 100 ms', () => {
  it('starts with the store as it is, at the current time', () => {
    const source = store();
    const { frames, stop } = bindFrames(source);
    expect(frames.getState().view).toBe(source.getState());
    expect(frames.getState().now).toBe(NOW);
    stop();
  });

  it('the first change after a quiet spell shows at once', () => {
    const source = store();
    const { frames, stop } = bindFrames(source);
    source.setState({ lanes: [lane('lane-a')] });
    expect(frames.getState().view.lanes).toHaveLength(1);
    stop();
  });

  it('a burst of 50 changes within 100 ms makes 2 frames: the first at once, the last after the interval', () => {
    const source = store();
    const { frames, stop } = bindFrames(source);
    const drawn: number[] = [];
    frames.subscribe((f) => drawn.push(f.view.events.length));
    for (let i = 0; i < 50; i += 1) {
      pushEvent(source, entry('lane_started', `lane-${i}`));
      vi.advanceTimersByTime(1);
    }
    expect(drawn).toEqual([1]);
    vi.advanceTimersByTime(60);
    expect(drawn).toEqual([1, 50]);
    expect(frames.getState().view).toBe(source.getState());
    stop();
  });

  it('a steady stream draws frames 100 ms apart, never closer: 10 a second', () => {
    const source = store();
    const { frames, stop } = bindFrames(source, { clock: false });
    const at: number[] = [];
    frames.subscribe(() => at.push(Date.now() - NOW));
    for (let i = 0; i < 400; i += 1) {
      pushEvent(source, entry('output', 'lane-a'));
      vi.advanceTimersByTime(5);
    }
    expect(at.slice(0, 4)).toEqual([0, 100, 200, 300]);
    expect(at.slice(1).map((t, i) => t - at[i]!).every((gap) => gap >= 100)).toBe(true);
    expect(at.filter((t) => t < 1000)).toHaveLength(10);
    stop();
  });

  it('the clock redraws when a time on screen changes: each second under a minute', () => {
    const source = store();
    source.setState({ lanes: [lane('lane-a', { phase: 'accepted', phaseSince: NOW })] });
    const { frames, stop } = bindFrames(source);
    const at: number[] = [];
    frames.subscribe((f) => at.push(f.now - NOW));
    vi.advanceTimersByTime(3000);
    expect(at).toEqual([500, 1500, 2500]);
    stop();
  });

  it('with only minutes on screen the clock waits for the next minute', () => {
    const source = store();
    source.setState({ startedAt: NOW - 125_000, lanes: [lane('lane-a', { phase: 'accepted', phaseSince: NOW - 70_000 }), lane('lane-b')] });
    const { frames, stop } = bindFrames(source);
    const at: number[] = [];
    frames.subscribe((f) => at.push(f.now - NOW));
    vi.advanceTimersByTime(120_000);
    // lane-a's age turns 2m at 119.5 s (49.5 s from now); the uptime turns 3m at 179.5 s (54.5 s).
    expect(at).toEqual([49_500, 54_500, 109_500, 114_500]);
    stop();
  });

  it('clock: false never redraws on time alone', () => {
    const source = store();
    const { frames, stop } = bindFrames(source, { clock: false });
    vi.advanceTimersByTime(600_000);
    expect(frames.getState().now).toBe(NOW);
    stop();
  });

  it('after stop nothing changes: no frame, no timer left', () => {
    const source = store();
    const { frames, stop } = bindFrames(source);
    source.setState({ lanes: [lane('lane-a')] });
    source.setState({ lanes: [lane('lane-a'), lane('lane-b')] });
    stop();
    vi.advanceTimersByTime(5000);
    expect(frames.getState().view.lanes).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
