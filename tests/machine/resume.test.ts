/** `resume` after a crash: only what is provably missing is emitted again, with the same ids. */
import { describe, expect, it } from 'vitest';
import { initialLane, reduceLane, type Effect, type LaneEvent, type LaneState } from '../../src/machine/lane.js';
import { savedLane } from '../../src/machine/laneState.js';
import {
  GATE_ID, MIN, PACKET, T0, accepted, attentionLane, ctx, degradedLane, doneLane, drive, gateResult, gating, leased, only, picking, report, reported, spawned,
  stoppedLane, types, waitingLane, working, writing,
} from './build.js';

const LATER = T0 + 9 * MIN;
type Pane = { generation: number; paneId: string; dead: boolean; status?: number | null; tail?: string };
const resume = (lane: LaneState, panes: Pane[], doneWhen: string | null = null) =>
  reduceLane(lane, { type: 'resume', panes } as LaneEvent, ctx(LATER, { doneWhen }));
const live = (generation: number, paneId: string): Pane => ({ generation, paneId, dead: false });
const dead = (generation: number, paneId: string): Pane => ({ generation, paneId, dead: true });
/** The effect of `type` the lane emitted when it entered its phase. */
function original(build: () => { effects: Effect[] }, type: Effect['type']): Effect | undefined {
  return build().effects.find((e) => e.type === type);
}

describe('resume', () => {
  it('a lane killed before its start was recorded leaves its live pane to the start (which takes its account and lease)', () => {
    const unstarted = initialLane({ name: 'lane-a', role: 'lane', account: null, now: T0 });
    const step = resume(unstarted, [live(1, '%2')]);
    expect(step.lane.paneId).toBeNull();
    expect(step.lane.state).toBe('starting');
  });

  it('a done lane whose pane went while swarm was down: its lease released; with the pane alive: nothing', () => {
    const gone = resume(doneLane(), []);
    expect(gone.lane.paneId).toBeNull();
    expect(gone.effects).toContainEqual({ type: 'release_lease', id: 'lane-a/g1/release-done/work2', account: 'work2' });
    expect(resume(doneLane(), [dead(1, '%1')]).effects.map((e) => e.type)).toEqual(['journal', 'release_lease', 'journal']);
    expect(resume(doneLane(), [live(1, '%1')]).effects).toEqual([]);
  });

  it('spawning without a pane: spawn again, with the same id', () => {
    const first = original(() => drive(picking(), [[{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 5 * MIN]]), 'spawn');
    const step = resume(leased(), [live(1, '%1')]);
    expect(types(step.effects)).toEqual(['spawn', 'set_timer']);
    expect(step.effects[0]).toEqual(first);
    expect(step.effects[0]).toMatchObject({ id: 'lane-a/g2/spawn/work3', generation: 2, account: 'work3', packet: PACKET });
    expect(step.lane.handoff?.successor?.deadline).toBe(LATER + 10 * MIN);
  });

  it('spawning with the successor\'s pane alive but unrecorded: adopt it, no spawn', () => {
    const step = resume(leased(), [live(1, '%1'), live(2, '%4')]);
    expect(types(step.effects)).toEqual(['journal', 'set_timer']);
    expect(step.effects[0]).toMatchObject({ event: 'successor_spawned', data: { paneId: '%4', adopted: true } });
    expect(step.lane.handoff?.successor).toMatchObject({ paneId: '%4', spawnedAt: LATER });
  });

  it('spawning with the recorded successor alive: only the accept deadline is re-armed', () => {
    const step = resume(spawned(), [live(1, '%1'), live(2, '%2')]);
    expect(step).toEqual({ lane: spawned(), effects: [{ type: 'set_timer', id: `lane-a/g1/timer/accept/${T0 + 15 * MIN}`, timer: 'accept', at: T0 + 15 * MIN }] });
  });

  it('spawning with the successor\'s pane dead: remove it and try the next account', () => {
    const step = resume(spawned(), [live(1, '%1'), dead(2, '%2')]);
    expect(types(step.effects)).toEqual(['clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account']);
    expect(step.lane.handoff?.tried).toEqual(['work3']);
  });

  it('spawning with the successor\'s pane gone (no death: its tmux server went): started again on the same account once per loss, then the next account', () => {
    const step = resume(spawned(), [live(1, '%1')]);
    expect(types(step.effects)).toEqual(['journal', 'spawn', 'set_timer']);
    expect(step.effects[0]).toMatchObject({ event: 'successor_respawned', data: { account: 'work3', paneId: '%2', for_generation: 2 } });
    expect(step.effects[1]).toMatchObject({ type: 'spawn', id: 'lane-a/g2/respawn/work3', generation: 2, account: 'work3', packet: PACKET });
    expect(step.lane.handoff?.successor).toMatchObject({ account: 'work3', paneId: null, spawnedAt: null, respawns: 1, deadline: LATER + 10 * MIN });
    expect(step.lane.handoff?.tried).toEqual([]);
    // The tmux server lost again before it accepted: a second start, with an id of its own.
    let lane = reduceLane(step.lane, { type: 'spawned', generation: 2, account: 'work3', paneId: '%7' } as LaneEvent, ctx(LATER + MIN)).lane;
    const second = resume(lane, [live(1, '%1')]);
    expect(types(second.effects)).toEqual(['journal', 'spawn', 'set_timer']);
    expect(second.effects[1]).toMatchObject({ type: 'spawn', id: 'lane-a/g2/respawn/2/work3', account: 'work3' });
    expect(second.lane.handoff?.successor).toMatchObject({ account: 'work3', respawns: 2 });
    lane = reduceLane(second.lane, { type: 'spawned', generation: 2, account: 'work3', paneId: '%9' } as LaneEvent, ctx(LATER + 2 * MIN)).lane;
    lane = resume(lane, [live(1, '%1')]).lane;
    expect(lane.handoff?.successor).toMatchObject({ respawns: 3 });
    lane = reduceLane(lane, { type: 'spawned', generation: 2, account: 'work3', paneId: '%11' } as LaneEvent, ctx(LATER + 3 * MIN)).lane;
    // Gone a fourth time: the next account.
    const goneAgain = resume(lane, [live(1, '%1')]);
    expect(types(goneAgain.effects)).toEqual(['clear_timer', 'release_lease', 'journal', 'pick_account']);
    expect(goneAgain.lane.handoff?.tried).toEqual(['work3']);
  });

  it('a state file from the release that started a vanished successor only once (respawned: true) counts it as one start', () => {
    const older = spawned();
    const lane = { ...older, handoff: { ...older.handoff!, successor: { ...older.handoff!.successor!, respawned: true as const } } };
    const step = resume(lane, [live(1, '%1')]);
    expect(step.effects[1]).toMatchObject({ type: 'spawn', id: 'lane-a/g2/respawn/2/work3' });
    expect(step.lane.handoff?.successor).toMatchObject({ respawns: 2 });
    expect(step.lane.handoff?.successor).not.toHaveProperty('respawned');
  });

  it('spawning while the account pick was in flight: the same pick again', () => {
    const first = original(() => drive(reported(), [[{ type: 'packet_checked', packet: PACKET, reasons: [] }, T0 + 4 * MIN]]), 'pick_account');
    const lane = picking();
    const step = resume(lane, [live(1, '%1')]);
    expect(step).toEqual({ lane, effects: [first] });
    expect(first).toMatchObject({ id: 'lane-a/g2/pick/1' });
  });

  it('reported: validate the packet again, same id', () => {
    const first = original(() => drive(writing(), [[report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + 3 * MIN]]), 'validate_packet');
    const step = resume(reported(), [live(1, '%1')]);
    expect(types(step.effects)).toEqual(['validate_packet']);
    expect(step.effects[0]).toEqual(first);
  });

  it('degraded before the packet was written: write it again, same id', () => {
    const step = resume(degradedLane(), [live(1, '%1')]);
    expect(step.effects).toEqual([{ type: 'write_degraded', id: `lane-a/g1/degraded/${T0 + MIN}`, reason: 'usage_limit', generation: 1 }]);
  });

  it('accepted with the spent pane still open: close it, same id', () => {
    const step = resume(accepted(), [live(1, '%1'), live(2, '%2')]);
    expect(types(step.effects)).toEqual(['close_pane', 'set_timer']);
    expect(step.effects[0]).toEqual({ type: 'close_pane', id: 'lane-a/g1/close', paneId: '%1' });
  });

  it('accepted with the spent pane dead but kept (remain-on-exit): close it', () => {
    expect(types(resume(accepted(), [dead(1, '%1'), live(2, '%2')]).effects)).toEqual(['close_pane', 'set_timer']);
  });

  it('accepted with the spent pane gone: nothing to close', () => {
    expect(resume(accepted(), [live(2, '%2')])).toEqual({
      lane: accepted(), effects: [{ type: 'set_timer', id: `lane-a/g2/timer/stall/${T0 + 37 * MIN}`, timer: 'stall', at: T0 + 37 * MIN }],
    });
  });

  it('writing: the packet deadline is re-armed where it was', () => {
    const step = resume(writing(), [live(1, '%1')]);
    expect(step.effects[0]).toEqual({ type: 'set_timer', id: `lane-a/g1/timer/packet/${T0 + 12 * MIN}`, timer: 'packet', at: T0 + 12 * MIN });
  });

  it('waiting: the reset timer is re-armed', () => {
    expect(resume(waitingLane(), [live(1, '%1')]).effects).toEqual([
      { type: 'set_timer', id: `lane-a/g1/timer/reset/${T0 + 20 * MIN}`, timer: 'reset', at: T0 + 20 * MIN },
    ]);
  });

  it('working with its pane alive: only the stall timer', () => {
    expect(resume(working(), [live(1, '%1')])).toEqual({
      lane: working(), effects: [{ type: 'set_timer', id: `lane-a/g1/timer/stall/${T0 + 30_000 + 30 * MIN}`, timer: 'stall', at: T0 + 30_000 + 30 * MIN }],
    });
  });

  it.each([
    ['gone', [] as Pane[]],
    ['dead', [dead(1, '%1')]],
  ])('working with its pane %s: the lane was lost, degraded handoff', (_how, panes) => {
    const step = resume(working(), panes);
    expect(step.lane).toMatchObject({ state: 'lost', phase: 'degraded', handoff: { reason: 'lane_lost' } });
    expect(types(step.effects)).toEqual(['journal', 'clear_timer', 'journal', 'write_degraded']);
  });

  it('working with its pane dead and read: agent_exited with the exit status and last lines the restart found', () => {
    const step = resume(working(), [{ ...dead(1, '%1'), status: 1, tail: 'Unable to connect\nENOTFOUND' }]);
    expect(only(step.effects, 'journal').find((j) => j.event === 'agent_exited')?.data).toEqual({ paneId: '%1', status: 1, last_lines: ['Unable to connect', 'ENOTFOUND'] });
    expect(step.lane.handoff?.exit).toEqual({ status: 1, lines: ['Unable to connect', 'ENOTFOUND'] });
  });

  it('a lane whose start was not recorded adopts its live pane', () => {
    const lane = { ...working(), paneId: null };
    expect(resume(lane, [live(1, '%3')]).lane.paneId).toBe('%3');
  });

  it.each([
    ['done, its pane alive', doneLane, [live(1, '%1')]], ['stopped', stoppedLane, []],
  ] as [string, () => LaneState, Pane[]][])('%s: nothing', (_name, build, panes) => {
    const lane = build();
    expect(resume(lane, panes)).toEqual({ lane, effects: [] });
  });

  it('attention: nothing is retried', () => {
    const lane = attentionLane();
    expect(resume(lane, [live(1, '%1')])).toEqual({ lane, effects: [] });
  });

  // Issue 10 item 14: a gate that was running when swarm was killed has no result; gates are rerunnable.
  it('a gate in flight with no result: the gate runs again', () => {
    const step = resume(gating(), [live(1, '%1')], 'npm test');
    expect(step.lane).toMatchObject({ state: 'working', gate: { id: `lane-a/g1/gate/${LATER}`, command: 'npm test', since: LATER } });
    // Its process not recorded (killed before gate_process was saved): the run is found by its id.
    expect(only(step.effects, 'run_gate')).toEqual([{ type: 'run_gate', id: `lane-a/g1/gate/${LATER}`, command: 'npm test', ends: { id: GATE_ID } }]);
    expect(only(step.effects, 'journal').map((j) => [j.event, j.data])).toEqual([['gate_started', { command: 'npm test', id: `lane-a/g1/gate/${LATER}`, rerun: true, ends: GATE_ID }]]);
  });

  it('a gate in flight whose agent left meanwhile: the gate runs again for the lost lane', () => {
    const step = resume(gating(), [], 'npm test');
    expect(step.lane).toMatchObject({ state: 'lost', gate: { id: `lane-a/g1/gate/${LATER}` } });
    expect(types(step.effects)).toContain('run_gate');
    const passed = reduceLane(step.lane, gateResult(true, 'ok', `lane-a/g1/gate/${LATER}`), ctx(LATER + MIN, { doneWhen: 'npm test' }));
    expect(passed.lane.state).toBe('done');
  });

  it('a gate in flight when done_when was removed from swarm.yaml meanwhile: the lane is done', () => {
    const step = resume(gating(), [live(1, '%1')]);
    expect(step.lane).toMatchObject({ state: 'done', gate: null });
    expect(only(step.effects, 'run_gate')).toEqual([]);
  });

  // Issue 11: the gate run is an intent record; its process, recorded, is ended before the rerun.
  it('a gate in flight whose process was recorded: the rerun first ends that very process, under a new id', () => {
    const started = reduceLane(gating(), { type: 'gate_process', id: GATE_ID, pid: 4242, startTicks: 777 }, ctx(T0 + MIN, { doneWhen: 'npm test' })).lane;
    const step = resume(started, [live(1, '%1')], 'npm test');
    const id = `lane-a/g1/gate/${LATER}`;
    expect(step.lane.gate).toEqual({ id, command: 'npm test', since: LATER });
    expect(only(step.effects, 'run_gate')).toEqual([{ type: 'run_gate', id, command: 'npm test', ends: { id: GATE_ID, process: { pid: 4242, startTicks: 777 } } }]);
    expect(only(step.effects, 'journal').map((j) => [j.event, j.data])).toEqual([['gate_started', { command: 'npm test', id, rerun: true, ends: 4242 }]]);
    // The cut-off run's result, should it still come, is stale.
    expect(reduceLane(step.lane, gateResult(true, 'ok'), ctx(LATER + MIN, { doneWhen: 'npm test' })).lane).toEqual(step.lane);
  });

  it.each([
    ['passed (done, its lane_result and tell_lead pending)', true, 'done'],
    ['failed (working, its notice pending)', false, 'working'],
  ])('a gate whose result was already recorded, %s: no rerun', (_name, passed, state) => {
    const recorded = reduceLane(gating(), gateResult(passed, 'out'), ctx(T0 + 2 * MIN, { doneWhen: 'npm test' })).lane;
    const step = resume(recorded, [live(1, '%1')], 'npm test');
    expect(step.lane).toMatchObject({ state, gate: null });
    expect(only(step.effects, 'run_gate')).toEqual([]);
  });

  it('an older state file\'s gatePending: true: the gate runs again, no process known', () => {
    const { gate: _gate, ...rest } = gating();
    const step = resume(savedLane({ ...rest, gatePending: true }), [live(1, '%1')], 'npm test');
    expect(only(step.effects, 'run_gate')).toEqual([{ type: 'run_gate', id: `lane-a/g1/gate/${LATER}`, command: 'npm test', ends: { id: 'lane-a/g1/gate/saved' } }]);
    expect(step.lane.gate).toEqual({ id: `lane-a/g1/gate/${LATER}`, command: 'npm test', since: LATER });
  });

  it('twice in a row gives the same effects (ids included)', () => {
    const once = resume(leased(), [live(1, '%1')]);
    const twice = resume(leased(), [live(1, '%1')]);
    expect(twice).toEqual(once);
  });
});
