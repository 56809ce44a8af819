import { describe, expect, it } from 'vitest';
import { initialLane, withLane } from '../../src/machine/laneState.js';
import type { LaneState } from '../../src/machine/types.js';

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
