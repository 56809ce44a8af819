import { describe, expect, it } from 'vitest';
import { accountOf, initialLane, withLane } from '../../src/machine/laneState.js';
import type { Handoff, LaneState } from '../../src/machine/types.js';

const lead = initialLane({ name: 'lead', role: 'lead', account: 'a1', now: 0 });
const working: LaneState = { ...initialLane({ name: 'lane-a', role: 'lane', account: 'a2', now: 0 }), state: 'working', generation: 3 };

describe('withLane', () => {
  it.each<[string, Record<string, LaneState>, string[], { name: string; role: 'lane' | 'lead'; account: string | null }, string[], LaneState]>([
    ['none yet: the lead, fresh, first', {}, [], { name: 'lead', role: 'lead', account: 'a1' }, ['lead'], initialLane({ name: 'lead', role: 'lead', account: 'a1', now: 5 })],
    ['a new lane goes last, with no account yet', { lead }, ['lead'], { name: 'lane-z', role: 'lane', account: null }, ['lead', 'lane-z'], initialLane({ name: 'lane-z', role: 'lane', account: null, now: 5 })],
    ['a lane already known is kept as it is, never reset', { lead, 'lane-a': working }, ['lead', 'lane-a'], { name: 'lane-a', role: 'lane', account: 'a9' }, ['lead', 'lane-a'], working],
    ['in the order but not the lanes (an older file): fresh, not listed twice', { lead }, ['lead', 'lane-a'], { name: 'lane-a', role: 'lane', account: 'a2' }, ['lead', 'lane-a'], initialLane({ name: 'lane-a', role: 'lane', account: 'a2', now: 5 })],
  ])('%s', (_what, lanes, order, input, wantOrder, wantLane) => {
    const before = JSON.stringify({ lanes, order });
    const next = withLane(lanes, order, { ...input, now: 5 });
    expect(next.order).toEqual(wantOrder);
    expect(next.lane).toEqual(wantLane);
    expect(next.lanes[input.name]).toEqual(wantLane);
    expect(JSON.stringify({ lanes, order })).toBe(before); // pure: the inputs are not changed
  });
});

describe('accountOf: the account an agent of the lane holds, as the engine knows it', () => {
  const lane: LaneState = { ...initialLane({ name: 'lane-a', role: 'lane', account: 'a1', now: 0 }), generation: 2 };
  const handing: LaneState = { ...lane, handoff: { successor: { generation: 3, account: 'a4', paneId: null, deadline: 0, spawnedAt: null } } as Handoff };
  it.each<[string, LaneState, number | null, string | null]>([
    ['the current generation: the lane\'s', lane, 2, 'a1'],
    ['the awaited successor: its own', handing, 3, 'a4'],
    ['a retired generation: none', handing, 1, null],
    ['a generation not yet awaited: none', lane, 3, null],
    ['no generation: none', lane, null, null],
    ['no account leased: none', { ...lane, account: null }, 2, null],
  ])('%s', (_name, l, generation, expected) => {
    expect(accountOf(l, generation)).toBe(expected);
  });
});
