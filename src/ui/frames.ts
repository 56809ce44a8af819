/**
 * The binding between the engine's store and the dashboard: a second small store holding what one
 * frame shows (the view and the time), updated at most once per interval however often the engine
 * writes, and by the clock only when a time on screen changes (each second while an age is under a
 * minute, else each minute). Components subscribe to this one, so no component holds a timer.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { clockDue } from './format.js';
import type { SwarmStore, SwarmView } from './store.js';

export interface Frame {
  view: SwarmView;
  /** The time this frame is drawn for (ages, uptime). */
  now: number;
}

export type FrameStore = StoreApi<Frame>;

export interface FrameOptions {
  /** Least time between two frames; 100 ms is at most 10 frames a second. */
  intervalMs?: number;
  /** Redraw when a time on screen changes (default true). */
  clock?: boolean;
  now?: () => number;
}

export interface FrameBinding {
  frames: FrameStore;
  /** Stop following the engine's store and the clock. */
  stop(): void;
}

export const FRAME_INTERVAL_MS = 100;

/** Follow `source`: the first change after a quiet spell shows at once, the rest are folded into one frame per interval. */
export function bindFrames(source: SwarmStore, options: FrameOptions = {}): FrameBinding {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? FRAME_INTERVAL_MS;
  const frames = createStore<Frame>(() => ({ view: source.getState(), now: now() }));
  let lastFlush = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  let clock: NodeJS.Timeout | null = null;
  let stopped = false;

  const armClock = (): void => {
    if (clock) clearTimeout(clock);
    clock = null;
    if (stopped || options.clock === false) return;
    const { view, now: at } = frames.getState();
    clock = setTimeout(schedule, clockDue(view, at));
    clock.unref();
  };
  const flush = (): void => {
    timer = null;
    if (stopped) return;
    lastFlush = now();
    frames.setState({ view: source.getState(), now: lastFlush });
    armClock();
  };
  function schedule(): void {
    if (stopped || timer !== null) return;
    const wait = lastFlush + interval - now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  }

  const unsubscribe = source.subscribe(schedule);
  armClock();
  return {
    frames,
    stop: () => {
      stopped = true;
      unsubscribe();
      if (clock) clearTimeout(clock);
      if (timer) clearTimeout(timer);
      timer = null;
      clock = null;
    },
  };
}
