import { describe, expect, it } from 'vitest';
import type { InboxRecord } from '../../../src/core/protocol/inbox.js';
import { nextRun, recordVerdict, runOf } from '../../../src/core/swarm/runs.js';
import { initialLane } from '../../../src/machine/laneState.js';
import type { LaneState } from '../../../src/machine/types.js';

type Message = Extract<InboxRecord, { kind: 'message' }>;
const done = (over: Partial<Message> = {}): Message => ({
  kind: 'message', ts: '2026-12-01T12:00:00.000Z', from: 'lane-a', role: 'lane', account: 'a2', generation: 1, epoch: 3,
  to: 'lead', text: 'done\ncapacity=ok 80%', cwd: '/repo', ...over,
});
const working: LaneState = { ...initialLane({ name: 'lane-a', role: 'lane', account: 'a2', now: 0 }), state: 'working', paneId: '%4' };
const handingOff: LaneState = {
  ...working,
  phase: 'spawning',
  handoff: {
    packet: '/p.yaml', reason: 'capacity_low', degraded: false, from: { generation: 1, account: 'a2', paneId: '%4' },
    successor: { generation: 2, account: 'o1', paneId: '%7', deadline: 1, spawnedAt: 0 }, tried: [], rejected: [], picks: 1, retryAt: null, accountLimited: false,
  },
};
const state = { run: 2, runEpoch: 3 };

describe('runs', () => {
  it('numbers runs from 1, past the last one', () => {
    expect(nextRun(undefined)).toBe(1);
    expect(nextRun(null)).toBe(1);
    expect(nextRun(4)).toBe(5);
    expect(runOf({})).toBe(1); // a state saved before runs were numbered
    expect(runOf({ run: 3 })).toBe(3);
  });

  it.each<[string, LaneState | undefined, InboxRecord, boolean, RegExp | null]>([
    ['this run\'s record', working, done({ run: 2 }), true, null],
    ['a record of an ended run, its lane and generation alive again in this one', working, done({ run: 1 }), false, /a record of run 1; this is run 2/],
    ['a record of a later run (a newer swarm) changes nothing either', working, done({ run: 3 }), false, /run 3/],
    ['this run\'s record of a lane with no live agent still counts (its machine decides)', undefined, done({ run: 2 }), true, null],
    ['no run: the live agent, its generation and an epoch of this run', working, done(), true, null],
    ['no run, the epoch raised since within the run', working, done({ epoch: 5 }), true, null],
    ['no run, the successor in flight', handingOff, done({ generation: 2 }), true, null],
    ['no run, an epoch older than this run\'s first: the old run\'s agent', working, done({ epoch: 2 }), false, /epoch 2 is older than run 2's first \(3\)/],
    ['no run, no epoch', working, done({ epoch: null }), false, /epoch \?/],
    ['no run, another generation', working, done({ generation: 3 }), false, /lane-a g3 is not a live agent of run 2/],
    ['no run, no generation', working, done({ generation: null }), false, /g\?/],
    ['no run, the lane has no agent yet', { ...working, paneId: null }, done(), false, /not a live agent/],
    ['no run, the lane is done', { ...working, state: 'done' }, done(), false, /no live agent/],
    ['no run, no such lane', undefined, done({ from: 'lane-q' }), false, /lane-q has no live agent in run 2/],
    ['the developer\'s answer without a run (no run was open)', undefined,
      { kind: 'answer', ts: 'x', from: 'developer', role: 'developer', account: null, generation: null, epoch: null, to: 'lane-a', text: 'yes' }, true, null],
    ['the developer\'s answer to an ended run', undefined,
      { kind: 'answer', ts: 'x', from: 'developer', role: 'developer', account: null, generation: null, epoch: null, run: 1, to: 'lane-a', text: 'yes' }, false, /run 1/],
  ])('%s', (_name, lane, record, counts, why) => {
    const verdict = recordVerdict(state, lane, record);
    expect(verdict.counts).toBe(counts);
    if (!verdict.counts) expect(verdict.why).toMatch(why!);
  });

  it('a state saved before runs were numbered is run 1, with no first epoch', () => {
    expect(recordVerdict({}, working, done({ run: 1 }))).toEqual({ counts: true });
    expect(recordVerdict({}, working, done({ epoch: 0 }))).toEqual({ counts: true });
  });
});
