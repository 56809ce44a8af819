/** A done_when gate as an intent record (issue 11): the run's id, its process, stale results ignored. */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent } from '../../src/machine/lane.js';
import { savedLane, type SavedLane } from '../../src/machine/laneState.js';
import { GATE_ID, MIN, PACKET, T0, ctx, drive, gateResult, gating, only, report, spawned, types, working } from './build.js';

const AT = T0 + 2 * MIN;
const gateCtx = ctx(AT, { doneWhen: 'npm test' });
const processOf = (id: string, pid = 4242, startTicks = 777): LaneEvent => ({ type: 'gate_process', id, pid, startTicks });

describe('a gate run is an intent record', () => {
  it('done with a gate: the run is recorded (id, command, since) in the same step that runs it, under the same id', () => {
    const step = reduceLane(working(), report('done\ncapacity=ok 70% @work2'), ctx(T0 + MIN, { doneWhen: 'npm test' }));
    expect(step.lane.gate).toEqual({ id: GATE_ID, command: 'npm test', since: T0 + MIN });
    expect(only(step.effects, 'run_gate')).toEqual([{ type: 'run_gate', id: GATE_ID, command: 'npm test' }]);
    expect(only(step.effects, 'journal').map((j) => [j.event, j.data])).toContainEqual(['gate_started', { command: 'npm test', id: GATE_ID }]);
  });

  it('the run\'s process is recorded (pid and start time), with no effect', () => {
    const step = reduceLane(gating(), processOf(GATE_ID), gateCtx);
    expect(step.lane.gate).toEqual({ id: GATE_ID, command: 'npm test', since: T0 + MIN, process: { pid: 4242, startTicks: 777 } });
    expect(step.effects).toEqual([]);
  });

  it('the result of the run in flight ends it: passed → done, failed → working, and the record goes', () => {
    expect(reduceLane(gating(), gateResult(true, 'ok'), gateCtx).lane).toMatchObject({ state: 'done', gate: null, endedAt: AT });
    expect(reduceLane(gating(), gateResult(false, 'FAIL'), gateCtx).lane).toMatchObject({ state: 'working', gate: null });
    expect(reduceLane(gating(), gateResult(false, 'FAIL'), gateCtx).lane.endedAt).toBeUndefined();
  });

  it('gates travel (SPEC 10.6): the accepted packet\'s gates run with done_when at done, all must pass; the next packet\'s replace them', () => {
    const accepted = drive(spawned(), [[{ type: 'accepted', generation: 2, packet: PACKET, gates: ['npm run lint'] }, AT]]).lane;
    expect(accepted.travelling).toEqual(['npm run lint']);
    const done = reduceLane(accepted, report('done\ncapacity=ok 70% @work3', 2), ctx(AT + MIN, { doneWhen: 'npm test' }));
    expect(only(done.effects, 'run_gate').map((r) => r.command)).toEqual(['(npm test) && (npm run lint)']);
    const failed = reduceLane(done.lane, gateResult(false, 'lint: 3 problems', done.lane.gate!.id), ctx(AT + 2 * MIN, { doneWhen: 'npm test' }));
    expect(failed.lane).toMatchObject({ state: 'working', gate: null });
    expect(only(failed.effects, 'journal').find((j) => j.event === 'lane_result')?.data).toMatchObject({ result: 'gate_failed', gate: '(npm test) && (npm run lint)' });
    // With no done_when, a travelling gate is the lane's gate still.
    expect(only(reduceLane(accepted, report('done\ncapacity=ok 70% @work3', 2), ctx(AT + MIN)).effects, 'run_gate').map((r) => r.command)).toEqual(['npm run lint']);
    // An acceptance whose packet leaves none: none travel.
    expect(drive(spawned(), [[{ type: 'accepted', generation: 2, packet: PACKET }, AT]]).lane.travelling).toEqual([]);
  });

  it('a pass that ran nothing (SPEC 10.6) fails: the lane works again, told why, the result journaled as gate_failed', () => {
    const step = reduceLane(gating(), gateResult(true, 'No test files found, exiting with code 0'), gateCtx);
    expect(step.lane).toMatchObject({ state: 'working', gate: null });
    const result = only(step.effects, 'journal').find((j) => j.event === 'lane_result');
    expect(result?.data).toMatchObject({ result: 'gate_failed', passed: false, output: expect.stringMatching(/^a vacuous pass: vitest ran nothing/) });
    expect(only(step.effects, 'notify')[0]?.text).toContain('a vacuous pass: vitest ran nothing');
  });

  it('a lane whose agent left while its gate ran: passed → done, and that agent\'s lease released once', () => {
    const lost = reduceLane(gating(), { type: 'exited', paneId: '%1', status: 0 }, gateCtx).lane;
    expect(lost).toMatchObject({ state: 'lost', paneId: '%1' });
    const step = reduceLane(lost, gateResult(true, 'ok'), gateCtx);
    expect(step.lane).toMatchObject({ state: 'done', gate: null, paneId: null });
    expect(only(step.effects, 'release_lease')).toEqual([{ type: 'release_lease', id: 'lane-a/g1/release-done/work2', account: 'work2' }]);
    expect(only(step.effects, 'release_lease')).toHaveLength(1);
  });

  it.each([
    ['a stale run of this generation', `lane-a/g1/gate/${T0}`],
    ['a run of an earlier generation', `lane-a/g0/gate/${T0 + MIN}`],
    ['an empty id', ''],
  ])('a result of %s is ignored and journaled as stale; the run in flight stays', (_name, id) => {
    for (const event of [gateResult(true, 'ok', id), gateResult(false, 'FAIL', id), processOf(id)]) {
      const step = reduceLane(gating(), event, gateCtx);
      expect(step.lane).toEqual(gating());
      expect(types(step.effects)).toEqual(['journal']);
      expect(step.effects[0]).toMatchObject({ event: 'ignored', data: { event: event.type, why: `a stale gate run (${id}; the run in flight is ${GATE_ID})` } });
    }
  });

  it('a result after the run ended (the second of two) is ignored: no gate is running', () => {
    const done = drive(gating(), [[gateResult(false, 'FAIL'), AT]], { doneWhen: 'npm test' }).lane;
    const step = reduceLane(done, gateResult(true, 'ok'), gateCtx);
    expect(step.lane).toEqual(done);
    expect(step.effects[0]).toMatchObject({ event: 'ignored', data: { why: 'no gate is running' } });
  });
});

describe('an older state file', () => {
  const old = (): SavedLane => {
    const { gate: _gate, ...rest } = working();
    return { ...rest, gatePending: true };
  };

  it('gatePending: true is a gate in flight whose run and process are unknown', () => {
    const lane = savedLane(old());
    expect(lane.gate).toEqual({ id: 'lane-a/g1/gate/saved', command: 'done_when', since: lane.lastActivity });
    expect('gatePending' in lane).toBe(false);
  });

  it.each([
    ['gatePending: false', { gatePending: false }],
    ['neither field', {}],
  ])('%s: no gate', (_name, over) => {
    const { gatePending: _p, ...rest } = old();
    expect(savedLane({ ...rest, ...over }).gate).toBeNull();
  });

  it('a file of today is kept as it is', () => {
    expect(savedLane(gating())).toEqual(gating());
  });
});
