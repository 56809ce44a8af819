import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LaneEvent, LaneState } from '../../src/machine/types.js';
import { PaneWatch, type WatchedEngine } from '../../src/runtime/watch.js';
import { HandClock } from '../helpers/handClock.js';

const PANE = '%1@s';
const DIALOG = '╭─────────╮\n│ Bash command\n│ Do you want to proceed?\n│ ❯ 1. Yes\n│   2. No\n╰─────────╯';

/** A lane `lane-01` working in PANE on a Claude account, its screen `screen`, on a hand clock. */
function setup() {
  const clock = new HandClock();
  const lane = { name: 'lane-01', role: 'lane', paneId: PANE, account: 'a1', state: 'working', stallNudged: false, blocked: null, handoff: null } as unknown as LaneState;
  const captures: number[] = [];
  const events: LaneEvent[] = [];
  const pokes: number[] = [];
  const world = { screen: '⠋ Working… 37 tokens' };
  const engine: WatchedEngine = {
    clock,
    state: { lanes: { 'lane-01': lane } },
    config: { accounts: [{ id: 'a1', kind: 'claude' }], dir: mkdtempSync(join(tmpdir(), 'swarm-watch-')), timeouts: { stall: 1_800_000 } } as unknown as WatchedEngine['config'],
    host: { capture: () => { captures.push(clock.now()); return Promise.resolve(world.screen); } },
    deliveries: { poke: () => { pokes.push(clock.now()); } },
    lane: (name) => (name === 'lane-01' ? lane : undefined),
    dispatch: (_, event) => { events.push(event); },
    agentName: () => 'lane-01',
  };
  const watch = new PaneWatch(engine);
  const t0 = clock.now();
  const since = () => captures.map((at) => at - t0);
  /** `ms` of redraws every 83 ms (12 a second), the hand clock moved 1 ms at a time. */
  const flood = async (ms: number) => {
    for (let t = 0; t < ms; t += 1) {
      if (t % 83 === 0) watch.handle({ type: 'output', paneId: PANE });
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

  it('stop cancels its deadline', async () => {
    const { watch, clock, since } = setup();
    watch.handle({ type: 'output', paneId: PANE });
    watch.stop();
    expect(clock.pending()).toEqual([]);
    await settle(clock, 3_000);
    expect(since()).toEqual([]);
  });
});
