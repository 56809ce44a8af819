import { describe, expect, it } from 'vitest';
import type { InboxRecord } from '../../../src/core/protocol/inbox.js';
import { reduceLaneAdd, type AddedLane, type LaneAddContext, type LaneAddEffect } from '../../../src/core/swarm/laneAdd.js';

type LaneRecord = Extract<InboxRecord, { kind: 'lane' }>;
const record = (over: Partial<LaneRecord> = {}): LaneRecord => ({
  kind: 'lane', action: 'add', ts: '2026-12-01T12:00:00.000Z', from: 'lead', role: 'lead', account: 'a1', generation: 1, epoch: 2,
  name: 'lane-z', task: 'extra work', checkout: '/repo/wt-z', lane_kind: null, command: null, ...over,
});
const ctx: LaneAddContext = { lanes: [{ name: 'lane-a', checkout: '/repo/wt-a' }], leadName: 'lead', maxLanes: 3, epoch: 2 };
const z: AddedLane = { name: 'lane-z', task: 'extra work', checkout: '/repo/wt-z', kind: null, command: null };
const y: AddedLane = { name: 'lane-y', task: 'y', checkout: '/repo/wt-y', kind: 'codex', command: 'run-y' };
const added: LaneAddEffect[] = [
  { type: 'journal', kind: 'delegation', event: 'lane_added', lane: 'lane-z', data: { by: 'lead', task: 'extra work' } },
  { type: 'start_added' },
];
const refused = (why: string, by = 'lead'): LaneAddEffect[] => [{ type: 'journal', kind: 'intervention', event: 'lane_add_refused', lane: 'lane-z', data: { by, why } }];

describe('reduceLaneAdd', () => {
  it.each<[string, AddedLane[], LaneRecord, LaneAddContext, AddedLane[], LaneAddEffect[]]>([
    ['the first lane added: recorded, journaled, started', [], record(), ctx, [z], added],
    ['with its kind and command', [], record({ lane_kind: 'codex', command: 'run-z' }), ctx, [{ ...z, kind: 'codex', command: 'run-z' }], added],
    ['beside one added earlier', [y], record(), ctx, [y, z], added],
    ['the same add read again (after a restart): nothing', [z], record(), ctx, [z], []],
    ['a name of swarm.yaml: nothing', [], record({ name: 'lane-a', checkout: '/repo/wt-q' }), ctx, [], []],
    ['the lead\'s name: nothing', [], record({ name: 'lead' }), ctx, [], []],
    ['from a lead fenced since (older epoch): refused', [], record({ epoch: 1 }), ctx, [], refused('fenced: queued at epoch 1, the lead is at epoch 2 now')],
    ['a newer epoch than the engine has seen yet: taken', [], record({ epoch: 3 }), ctx, [z], added],
    ['past max_lanes (two adds that both passed the command\'s check): the second refused', [y, { ...y, name: 'lane-x', checkout: '/repo/wt-x' }], record(), ctx,
      [y, { ...y, name: 'lane-x', checkout: '/repo/wt-x' }], refused('the swarm has 3 lanes, its max_lanes (3): raise max_lanes in swarm.yaml')],
    ['another lane\'s checkout: refused', [], record({ checkout: '/repo/wt-a' }), ctx, [], refused('/repo/wt-a is another lane\'s checkout: give each lane its own git worktree')],
    ['a name over 64 characters (a record no `swarm lane add` wrote): refused', [], record({ name: 'z'.repeat(240) }), ctx, [],
      [{ type: 'journal', kind: 'intervention', event: 'lane_add_refused', lane: 'z'.repeat(240), data: { by: 'lead', why: `the lane name "${'z'.repeat(40)}"… is 240 characters: a name may have at most 64 (it names files and tmux panes); shorten it` } }]],
    ['an added lane\'s checkout: refused', [y], record({ checkout: '/repo/wt-y' }), ctx, [y], refused('/repo/wt-y is another lane\'s checkout: give each lane its own git worktree')],
  ])('%s', (_name, before, rec, context, after, effects) => {
    const step = reduceLaneAdd(before, rec, context);
    expect(step.added).toEqual(after);
    expect(step.effects).toEqual(effects);
  });
});
