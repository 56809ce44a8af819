/**
 * Runs, in-process (SPEC 10.1): startSwarm on the fake pane host with a hand clock and real plan files.
 * A report queued while no engine ran counts on the restart, even when its agent has exited since;
 * a record of an ended run (an old agent that outlived its pane) changes nothing in the new run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { machineLeaseDir, readPlanLeases, releaseKey } from '../../src/adapters/leaseFiles.js';
import { planPaths } from '../../src/core/plan/paths.js';
import { loadState, saveState } from '../../src/runtime/engineState.js';
import { endRun } from '../../src/runtime/runEnd.js';
import { FakeHost, type Action, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { finishInProcess, startInProcess } from '../helpers/inProcess.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const TIMEOUTS = '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }';

/** A gate a script waits at until the test opens it. */
function gate(): { action: Action; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { action: async () => opened, open };
}

const laneState = (s: TestSwarm, lane: string) => loadState(planPaths(s.plan).state)?.lanes[lane];
const working = (s: TestSwarm, lane: string) => waitFor(() => laneState(s, lane)?.state === 'working', { what: `${lane} working` });

describe('runs, in-process', () => {
  it('a done reported while no engine ran, by an agent that exited since: the restart reads it first; the lane is done, no successor, no degraded packet', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }], timeouts: TIMEOUTS }));
    const held = gate();
    const scripts: Scripts = { 'lane-a g1': ['ready', held.action, 'done', 'exit'] };
    const clock = new HandClock();
    const first = new FakeHost(scripts);
    const engine = await startInProcess(s, first, clock);
    await working(s, 'lane-a');
    await engine.detach(); // the engine is gone (its state saved as it went)
    held.open();
    await Promise.all([...first.running]); // done queued, then the agent exited
    expect(first.live().filter((p) => p.startsWith('lane-a'))).toEqual([]);

    const second = new FakeHost(scripts, first.snapshot());
    const outcome = await finishInProcess(s, await startInProcess(s, second, clock), second, clock);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', generation: 1, result: 'done' }]);
    expect(s.events('lane_lost')).toEqual([]);
    expect(s.events('successor_spawned')).toEqual([]);
    expect(s.events('handoff_reported').filter((e) => e.degraded === true)).toEqual([]);
    expect(readPlanLeases(s.plan, s.env)).not.toContainEqual(expect.objectContaining({ lane: 'lane-a' }));
  });

  it('after swarm down, an old agent (its job outlived its pane) reports done: into its run 1 spool, which run 2 never reads; the new run\'s lane is done only by its own agent', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }], timeouts: TIMEOUTS }));
    const old = gate();
    const clock = new HandClock();
    const first = new FakeHost({ 'lane-a g1': ['ready', old.action, 'done'] });
    const engine = await startInProcess(s, first, clock);
    await working(s, 'lane-a');
    await engine.detach();
    // `swarm down`: the run ended, its leases released (its panes closed; the old job lives on).
    const paths = planPaths(s.plan);
    saveState(paths.state, endRun(loadState(paths.state)!, new Date(clock.now()).toISOString()));
    for (const lease of readPlanLeases(s.plan, s.env)) releaseKey(machineLeaseDir(s.env), s.plan, lease.key!);

    const oldSpool = join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g1', 'records.jsonl');
    const staleSeen = async () => {
      await waitFor(() => readFileSync(oldSpool, 'utf8').includes('"text":"done'), { what: 'the old agent\'s done in its run 1 spool' });
      expect(laneState(s, 'lane-a')?.state).toBe('working');
    };
    const second = new FakeHost({ 'lane-a g1': ['ready', async () => old.open(), staleSeen, 'done'] });
    const outcome = await finishInProcess(s, await startInProcess(s, second, clock), second, clock);
    await Promise.all([...first.running, ...second.running]);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('run_started')).toMatchObject([{ run: 1 }, { run: 2 }]);
    expect(s.events('stale_record')).toEqual([]);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', generation: 1, result: 'done' }]);
    const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { run: number };
    expect(state.run).toBe(2);
  });
});
