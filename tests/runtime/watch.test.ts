import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LaneEvent, LaneState } from '../../src/machine/types.js';
import { PaneWatch, type WatchedEngine } from '../../src/runtime/watch.js';
import { HandClock } from '../helpers/handClock.js';

const PANE = '%1@s';
const DIALOG = '╭─────────╮\n│ Bash command\n│ Do you want to proceed?\n│ ❯ 1. Yes\n│   2. No\n╰─────────╯';

/** A lane `lane-01` working in PANE on a Claude account (and `others` more, lane-02 in %2/s, …), its screen `world.screen`, on a hand clock. */
function setup(others = 0) {
  const clock = new HandClock();
  const laneIn = (i: number) => ({ name: `lane-0${i}`, role: 'lane', paneId: i === 1 ? PANE : `%${i}/s`, account: 'a1', state: 'working', stallNudged: false, blocked: null, handoff: null }) as unknown as LaneState;
  const lanes = Object.fromEntries(Array.from({ length: others + 1 }, (_, i) => [`lane-0${i + 1}`, laneIn(i + 1)]));
  const captures: number[] = [];
  const events: LaneEvent[] = [];
  const pokes: number[] = [];
  const world = { screen: '⠋ Working… 37 tokens' };
  const engine: WatchedEngine = {
    clock,
    state: { lanes },
    config: { accounts: [{ id: 'a1', kind: 'claude' }], dir: mkdtempSync(join(tmpdir(), 'swarm-watch-')), timeouts: { stall: 1_800_000 } } as unknown as WatchedEngine['config'],
    host: { capture: () => { captures.push(clock.now()); return Promise.resolve(world.screen); } },
    deliveries: { poke: () => { pokes.push(clock.now()); } },
    lane: (name) => lanes[name],
    dispatch: (_, event) => { events.push(event); },
    agentName: () => 'lane-01',
  };
  const watch = new PaneWatch(engine);
  const t0 = clock.now();
  const since = () => captures.map((at) => at - t0);
  /** `ms` of redraws every 83 ms (12 a second) in every pane, pane n starting (n - 1) × `stagger` ms in, the hand clock moved 1 ms at a time. */
  const flood = async (ms: number, stagger = 0) => {
    for (let t = 0; t < ms; t += 1) {
      for (const [i, l] of Object.values(lanes).entries()) if (t >= i * stagger && (t - i * stagger) % 83 === 0) watch.handle({ type: 'output', paneId: l.paneId! });
      expect(clock.pending().length).toBeLessThanOrEqual(1); // one deadline for every pane, none per redraw
      clock.advance(1);
      await Promise.resolve();
    }
  };
  return { clock, world, watch, events, pokes, since, flood, t0 };
}

const settle = async (clock: HandClock, ms: number) => {
  for (let t = 0; t < ms; t += 1) {
    clock.advance(1);
    await Promise.resolve();
  }
};

describe('PaneWatch on the engine clock (issue 12 §5)', () => {
  it('reads a flooding pane once per max wait, on the clock it was given', async () => {
    const { flood, since } = setup();
    await flood(10_000);
    expect(since()).toEqual([2_000, 4_075, 6_150, 8_225]); // max wait 2 s after the first unread redraw, not a read per redraw
  });

  it('reads eight flooding panes that started apart together: their max-wait reads share wake-ups', async () => {
    const { flood, since } = setup(7);
    await flood(10_000, 125);
    const wakes = new Set(since());
    expect(since().length).toBeGreaterThanOrEqual(8 * 4); // each still read every ~2 s
    expect(wakes.size).toBeLessThanOrEqual(6); // not 32 wake-ups, one per read
  });

  it('wakes for its reads only while panes flood in chunks, not once per chunk to find nothing due', async () => {
    const { clock, watch, since } = setup(3);
    // Node's view of a deadline: the event loop arms its timer for the earliest one as an event's
    // synchronous part ends; one cancelled after that still wakes the engine at its time, for nothing.
    const timers: { at: number; fired: boolean; cancelled: boolean }[] = [];
    const after = clock.after.bind(clock);
    clock.after = (ms, fn) => {
      const t = { at: clock.now() + ms, fired: false, cancelled: false };
      timers.push(t);
      const timer = after(ms, () => { t.fired = true; fn(); });
      return { cancel: () => { t.cancelled = true; timer.cancel(); } };
    };
    let idle = 0;
    // The control client's rhythm: a chunk every 100 ms naming every pane that printed in it.
    for (let t = 0; t < 10_000; t += 100) {
      for (const i of [1, 2, 3, 4]) watch.handle({ type: 'output', paneId: i === 1 ? PANE : `%${i}/s` });
      const armed = timers.filter((x) => !x.fired && !x.cancelled).sort((x, y) => x.at - y.at)[0];
      await settle(clock, 100);
      if (armed && armed.at < clock.now() && !armed.fired) idle += 1; // the loop woke for it: cancelled meanwhile
    }
    const wakes = new Set(since()).size;
    expect(since().length).toBeGreaterThanOrEqual(4 * 4); // every pane still read every ~2 s
    expect(timers.filter((x) => x.fired).length).toBe(wakes); // each deadline that fired read something
    expect(idle).toBe(0); // and none armed after a chunk was moved before it came
  });

  it('sees a dialog drawn after a flood within the settle time once the pane goes quiet', async () => {
    const { flood, world, watch, clock, events, since, t0 } = setup();
    await flood(3_000);
    world.screen = `⠋ Working… 900 tokens\n${DIALOG}`;
    watch.handle({ type: 'output', paneId: PANE });
    const drawn = clock.now() - t0;
    await settle(clock, 400);
    expect(since().at(-1)).toBe(drawn + 150);
    expect(events).toContainEqual(expect.objectContaining({ type: 'screen', screen: 'permission' }));
  });

  it('sees a dialog under a clock that keeps ticking within the max wait', async () => {
    const { flood, world, events } = setup();
    await flood(1_000);
    world.screen = `${DIALOG}\n12s · esc to interrupt`;
    await flood(1_100);
    expect(events).toContainEqual(expect.objectContaining({ type: 'screen', screen: 'permission' }));
  });

  it('pokes the mailbox when a pane settles, not at the reads taken while it still prints', async () => {
    const { flood, clock, pokes, t0 } = setup();
    await flood(6_000);
    expect(pokes).toEqual([]);
    await settle(clock, 300);
    expect(pokes.map((at) => at - t0)).toEqual([5_976 + 150]);
  });

  it('a pane told by its edges (printing … quiet) is read once per max wait while it prints, and its dialog once it is quiet', async () => {
    const { watch, clock, world, events, since, t0, pokes } = setup();
    // The tmux host's rhythm (core/screens/outputEdges.ts): printing, again every 500 ms, then quiet 100 ms after the last redraw.
    for (let t = 0; t < 5_000; t += 1) {
      if (t % 500 === 0) watch.handle({ type: 'printing', paneId: PANE });
      expect(clock.pending().length).toBeLessThanOrEqual(1);
      clock.advance(1);
      await Promise.resolve();
    }
    expect(since()).toEqual([2_000, 4_000]); // not a settle read 150 ms after each heartbeat
    expect(pokes).toEqual([]);
    world.screen = `⠋ Working… 900 tokens\n${DIALOG}`;
    // Last redraw (the dialog) at 5 000, quiet told at the next look, 100 ms on.
    await settle(clock, 100);
    watch.handle({ type: 'quiet', paneId: PANE, quietMs: 100 });
    await settle(clock, 400);
    expect(since()).toEqual([2_000, 4_000, 5_150]); // settle after the last output, not after the quiet was told
    expect(events).toContainEqual(expect.objectContaining({ type: 'screen', screen: 'permission' }));
    expect(pokes.map((at) => at - t0)).toEqual([5_150]);
  });

  it('a quiet told late reads at once: its settle time has passed already', async () => {
    const { watch, clock, since } = setup();
    watch.handle({ type: 'printing', paneId: PANE });
    await settle(clock, 1_000);
    watch.handle({ type: 'quiet', paneId: PANE, quietMs: 700 });
    await settle(clock, 1);
    expect(since()).toEqual([1_000]);
  });

  it('a quiet told with a fractional quietMs wakes the engine once, for its read, on a clock that fires timers in whole ms', async () => {
    const { watch, clock, since } = setup();
    // Node's timers against Date.now(): a fractional delay fires up to 1 ms before its deadline
    // (measured: 241 of 300 timers of 7.3–8.2 ms; none of a whole number of ms), and never sooner than 1 ms.
    const after = clock.after.bind(clock);
    let fired = 0;
    clock.after = (ms, fn) => after(Math.max(1, Math.trunc(ms)), () => { fired += 1; fn(); });
    watch.handle({ type: 'printing', paneId: PANE });
    await settle(clock, 1_000);
    fired = 0;
    watch.handle({ type: 'quiet', paneId: PANE, quietMs: 90.4 }); // the tmux host's edges are on performance.now()
    await settle(clock, 300);
    expect(since()).toEqual([1_060]); // 150 ms after the last output, to the next whole ms
    expect(fired).toBe(1); // not a wake-up 1 ms early that finds nothing due, then another
  });

  it('a printing pane is activity for the stall clock, on its cadence; quiet is not', async () => {
    const { watch, clock, events } = setup();
    for (let t = 0; t <= 130_000; t += 500) {
      watch.handle({ type: 'printing', paneId: PANE });
      clock.advance(500);
      await Promise.resolve();
    }
    watch.handle({ type: 'quiet', paneId: PANE, quietMs: 100 });
    expect(events.filter((e) => e.type === 'output')).toHaveLength(3); // at once, then once a minute (a 30-minute stall clock)
  });

  it('a pane poked while printing stays printing: no settle read until it is quiet', async () => {
    const { watch, clock, since } = setup();
    watch.handle({ type: 'printing', paneId: PANE });
    await settle(clock, 100);
    watch.poke(PANE);
    await settle(clock, 1_500);
    expect(since()).toEqual([]);
  });

  it('stop cancels its deadline', async () => {
    const { watch, clock, since } = setup();
    watch.handle({ type: 'output', paneId: PANE });
    watch.stop();
    expect(clock.pending()).toEqual([]);
    await settle(clock, 3_000);
    expect(since()).toEqual([]);
  });
});

describe('PaneWatch across generations: a successor, once accepted, is watched as the lane', () => {
  /** lane-01 in PANE (g1) handing off to g2 in %9@s, which prints before it accepts; then the acceptance (as machine/handoff.ts leaves the lane). */
  function handedOff() {
    const s = setup();
    const lane = s.watch['engine'].state.lanes['lane-01'] as unknown as Record<string, unknown>;
    const G2 = '%9@s';
    const successor = { generation: 2, account: 'a1', paneId: G2, deadline: 0, spawnedAt: s.clock.now() };
    Object.assign(lane, { phase: 'spawning', handoff: { successor, from: { generation: 1, account: 'a1', paneId: PANE } } });
    const accept = () => Object.assign(lane, { generation: 2, paneId: G2, phase: 'accepted' }); // the handoff (and its successor) stays as it ended
    return { ...s, G2, accept };
  }

  it('a successor printing before and after it accepted is activity for the stall clock', async () => {
    const { watch, clock, events, G2, accept } = handedOff();
    watch.handle({ type: 'printing', paneId: G2 });
    watch.handle({ type: 'quiet', paneId: G2, quietMs: 100 });
    await settle(clock, 1_000);
    expect(events.filter((e) => e.type === 'output')).toHaveLength(0); // not yet the lane's agent
    accept();
    for (let i = 0; i < 6; i += 1) {
      await settle(clock, 5_000);
      watch.handle({ type: 'printing', paneId: G2 });
      watch.handle({ type: 'quiet', paneId: G2, quietMs: 100 });
    }
    expect(events.filter((e) => e.type === 'output').length).toBeGreaterThanOrEqual(1);
  });

  it('a permission dialog drawn in an accepted successor\'s pane is seen as the lane\'s screen', async () => {
    const { watch, clock, world, events, G2, accept } = handedOff();
    watch.handle({ type: 'printing', paneId: G2 });
    watch.handle({ type: 'quiet', paneId: G2, quietMs: 100 });
    await settle(clock, 1_000);
    accept();
    world.screen = `⠋ Working… 900 tokens\n${DIALOG}`;
    watch.handle({ type: 'printing', paneId: G2 });
    watch.handle({ type: 'quiet', paneId: G2, quietMs: 100 });
    await settle(clock, 1_000);
    expect(events).toContainEqual(expect.objectContaining({ type: 'screen', screen: 'permission' }));
  });

  it('a wake set while the pane was a successor reads it as the lane\'s once it has accepted', async () => {
    const { watch, clock, world, events, G2, accept } = handedOff();
    world.screen = `⠋ Working… 900 tokens\n${DIALOG}`;
    watch.handle({ type: 'output', paneId: G2 });
    accept(); // before its settle read
    await settle(clock, 1_000);
    expect(events).toContainEqual(expect.objectContaining({ type: 'screen', screen: 'permission' }));
  });
});

describe('PaneWatch: a pane closed from tmux (gone)', () => {
  it('is the lane\'s agent gone: exited, vanished (no exit of its own), nothing read from it', async () => {
    const { watch, clock, events, since } = setup();
    watch.handle({ type: 'gone', paneId: PANE });
    await settle(clock, 10);
    expect(events).toEqual([{ type: 'exited', paneId: PANE, status: null, vanished: true }]);
    expect(since()).toEqual([]);
  });

  it('gone before the pane was the lane\'s: told once it is (poke)', async () => {
    const { watch, clock, events } = setup();
    watch.handle({ type: 'gone', paneId: '%7@s' });
    await settle(clock, 10);
    expect(events).toEqual([]);
    Object.assign(watch['engine'].state.lanes['lane-01']!, { paneId: '%7@s' }); // the start is recorded
    watch.poke('%7@s'); // as the engine does for a pane newly a lane's
    await settle(clock, 10);
    expect(events).toEqual([{ type: 'exited', paneId: '%7@s', status: null, vanished: true }]);
  });
});
