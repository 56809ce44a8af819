/**
 * Waiting for an account another swarm on the machine holds (SPEC 10.4 `waiting_for_account`): a
 * first start and a successor's pick each wait, ask again every few seconds (a timer: state), journal
 * the wait once, and take the account once it is free.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane } from '../../src/machine/lane.js';
import { initialLane } from '../../src/machine/laneState.js';
import { ACCOUNT_RETRY_MS } from '../../src/machine/types.js';
import { T0, ctx, journals, only, picking, types } from './build.js';

const HELD = 'work2 is held by plan /other/plans/p, lane-x g1';
const unstartedLane = () => initialLane({ name: 'lane-a', role: 'lane', account: 'work2', now: T0 });

describe('a first start whose account another swarm holds', () => {
  it('waits (journaled once), asks again at the timer, and is started when the account is free', () => {
    const held = reduceLane(unstartedLane(), { type: 'account_held', generation: 1, why: HELD }, ctx(T0));
    expect(journals(held.effects)).toEqual(['waiting_for_account']);
    expect(only(held.effects, 'journal')[0]!.data).toMatchObject({ why: HELD, for_generation: 1 });
    expect(only(held.effects, 'set_timer')).toMatchObject([{ timer: 'reset', at: T0 + ACCOUNT_RETRY_MS }]);
    expect(held.lane).toMatchObject({ state: 'starting', phase: 'waiting', phaseSince: T0, waitingForAccount: { why: HELD, since: T0 } });

    const due = reduceLane(held.lane, { type: 'timer', timer: 'reset' }, ctx(T0 + ACCOUNT_RETRY_MS));
    expect(types(due.effects)).toEqual(['start_again']);

    // Still held: no second journal line, the next ask set.
    const again = reduceLane(held.lane, { type: 'account_held', generation: 1, why: HELD }, ctx(T0 + ACCOUNT_RETRY_MS));
    expect(journals(again.effects)).toEqual([]);
    expect(only(again.effects, 'set_timer')).toMatchObject([{ at: T0 + 2 * ACCOUNT_RETRY_MS }]);
    expect(again.lane).toMatchObject({ phaseSince: T0, waitingForAccount: { since: T0 } });

    // Another holder now: said again.
    const other = reduceLane(again.lane, { type: 'account_held', generation: 1, why: 'work2 is held by plan /third, lane-y g2' }, ctx(T0 + 3 * ACCOUNT_RETRY_MS));
    expect(journals(other.effects)).toEqual(['waiting_for_account']);

    const started = reduceLane(other.lane, { type: 'started', generation: 1, account: 'work2', paneId: '%1' }, ctx(T0 + 4 * ACCOUNT_RETRY_MS));
    expect(journals(started.effects)).toEqual(['lane_started']);
    expect(started.lane).toMatchObject({ state: 'starting', phase: null, phaseSince: null, waitingForAccount: null, paneId: '%1' });
  });

  it('a lane already started ignores it, and its reset timer starts nothing', () => {
    const started = reduceLane(unstartedLane(), { type: 'started', generation: 1, account: 'work2', paneId: '%1' }, ctx(T0));
    expect(reduceLane(started.lane, { type: 'account_held', generation: 1, why: HELD }, ctx(T0 + 1))).toEqual({ lane: started.lane, effects: [] });
    expect(reduceLane(started.lane, { type: 'timer', timer: 'reset' }, ctx(T0 + 1)).effects).toEqual([]);
  });
});

describe("a successor whose every eligible account another swarm holds", () => {
  it('waits for it (not for a reset, not escalated), picks again every few seconds, and takes it when freed', () => {
    const lane = picking();
    const now = lane.phaseSince! + 1000;
    const held = reduceLane(lane, { type: 'lease', account: null, resetsAt: null, why: `no account has headroom (work3 held by another swarm (plan /other, lane-x g1))`, heldElsewhere: true }, ctx(now));
    expect(journals(held.effects)).toEqual(['waiting_for_account']);
    expect(held.lane).toMatchObject({ phase: 'waiting', state: lane.state, waitingForAccount: { since: now } });
    expect(only(held.effects, 'set_timer')).toMatchObject([{ timer: 'reset', at: now + ACCOUNT_RETRY_MS }]);
    expect(held.lane.handoff?.retryAt).toBe(now + ACCOUNT_RETRY_MS);

    const due = reduceLane(held.lane, { type: 'timer', timer: 'reset' }, ctx(now + ACCOUNT_RETRY_MS));
    expect(types(due.effects)).toEqual(['pick_account']);
    const still = reduceLane(due.lane, { type: 'lease', account: null, resetsAt: null, why: held.lane.waitingForAccount!.why, heldElsewhere: true }, ctx(now + ACCOUNT_RETRY_MS + 5));
    expect(journals(still.effects)).toEqual([]);
    expect(still.lane.phaseSince).toBe(held.lane.phaseSince);

    const got = reduceLane(reduceLane(still.lane, { type: 'timer', timer: 'reset' }, ctx(now + 2 * ACCOUNT_RETRY_MS + 5)).lane,
      { type: 'lease', account: 'work3', resetsAt: null, why: 'work3: capacity unknown' }, ctx(now + 2 * ACCOUNT_RETRY_MS + 10));
    expect(journals(got.effects)).toEqual(['lease_acquired']);
    expect(types(got.effects)).toContain('spawn');
    expect(got.lane).toMatchObject({ phase: 'spawning', waitingForAccount: null, handoff: { successor: { account: 'work3', generation: 2 } } });
  });
});
