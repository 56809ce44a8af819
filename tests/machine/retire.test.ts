/**
 * The spent lead's pane after its successor accepted (SPEC 10.5, machine/retire.ts): kept open, with
 * its account, for timeouts.release, then closed and released; at once when its agent ends; the
 * deadline survives a restart, and a pane gone meanwhile is released without a close. A lane's spent
 * pane is closed at once, as before.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneState } from '../../src/machine/lane.js';
import { MIN, PACKET, T0, ctx, drive, journals, only, spawned, types } from './build.js';

const RELEASE = 5 * MIN;
const AT = T0 + 7 * MIN;
const over = { timeouts: { accept: 10 * MIN, packet: 10 * MIN, stall: 30 * MIN, release: RELEASE } };
const accept = (role: 'lane' | 'lead') => drive(spawned(role), [[{ type: 'accepted', generation: 2, packet: PACKET }, AT]], over);
const kept = (): LaneState => accept('lead').lane;

describe('the spent lead’s pane', () => {
  it('stays open with its account at acceptance: no close, no release, a retire deadline', () => {
    const step = accept('lead');
    expect(types(step.effects)).not.toContain('close_pane');
    expect(types(step.effects)).not.toContain('release_lease');
    expect(journals(step.effects)).toEqual(['packet_accepted', 'lead_accepted', 'lead_pane_kept']);
    expect(step.lane).toMatchObject({ generation: 2, paneId: '%2', account: 'work3', retiring: { generation: 1, paneId: '%1', account: 'work2', releases: true, at: AT + RELEASE } });
    expect(only(step.effects, 'set_timer').map((t) => [t.timer, t.at])).toContainEqual(['retire', AT + RELEASE]);
  });

  it('a lane’s spent pane closes at once, release or not', () => {
    const step = accept('lane');
    expect(types(step.effects)).toContain('close_pane');
    expect(step.lane.retiring ?? null).toBeNull();
  });

  it('with no release time, the lead’s closes at once too', () => {
    const step = drive(spawned('lead'), [[{ type: 'accepted', generation: 2, packet: PACKET }, AT]]);
    expect(only(step.effects, 'close_pane')).toMatchObject([{ paneId: '%1' }]);
  });

  it('closes when timeouts.release has passed (an early timer waits on), releasing the spent account', () => {
    const early = reduceLane(kept(), { type: 'timer', timer: 'retire' }, ctx(AT + MIN, over));
    expect(types(early.effects)).toEqual(['set_timer']);
    const due = reduceLane(kept(), { type: 'timer', timer: 'retire' }, ctx(AT + RELEASE, over));
    expect(only(due.effects, 'close_pane')).toEqual([{ type: 'close_pane', id: 'lead/g1/close', paneId: '%1', generation: 1 }]);
    expect(only(due.effects, 'release_lease')).toEqual([{ type: 'release_lease', id: 'lead/g1/release/work2', account: 'work2' }]);
    expect(journals(due.effects)).toEqual(['pane_closed', 'lease_released']);
    expect(due.lane.retiring).toBeNull();
    // Once closed, a late timer does nothing.
    expect(reduceLane(due.lane, { type: 'timer', timer: 'retire' }, ctx(AT + RELEASE + 1, over)).effects).toEqual([]);
  });

  it('closes at once when its agent ends (the stale lead stood down)', () => {
    const step = reduceLane(kept(), { type: 'exited', paneId: '%1', status: 0 }, ctx(AT + MIN, over));
    expect(types(step.effects)).toEqual(['clear_timer', 'close_pane', 'release_lease', 'journal', 'journal']);
    expect(step.lane).toMatchObject({ generation: 2, paneId: '%2', state: 'working', retiring: null });
  });

  it.each([
    ['ended mid-handover', () => drive(spawned('lead'), [[{ type: 'exited', paneId: '%1', status: 0 }, AT - MIN], [{ type: 'accepted', generation: 2, packet: PACKET }, AT]], over)],
    ['lost (a takeover)', () => drive({ ...spawned('lead'), state: 'lost' }, [[{ type: 'accepted', generation: 2, packet: PACKET }, AT]], over)],
  ])('a spent lead whose agent %s is closed and released at acceptance, not kept (chaos seed 1029)', (_name, step) => {
    const { effects, lane } = step();
    expect(only(effects, 'close_pane').map((e) => e.paneId)).toEqual(['%1']);
    expect(only(effects, 'release_lease').map((e) => e.account)).toEqual(['work2']);
    expect(journals(effects)).not.toContain('lead_pane_kept');
    expect(lane.retiring ?? null).toBeNull();
  });

  it('keeps the successor’s lease when both ran on one account', () => {
    const lane: LaneState = { ...kept(), retiring: { ...kept().retiring!, account: 'work3', releases: false } };
    const due = reduceLane(lane, { type: 'timer', timer: 'retire' }, ctx(AT + RELEASE, over));
    expect(types(due.effects)).toEqual(['clear_timer', 'close_pane', 'journal']);
  });

  it.each([
    ['alive: its deadline again', [{ generation: 1, paneId: '%1', dead: false }, { generation: 2, paneId: '%2', dead: false }], false, false, true],
    ['dead: closed and released now', [{ generation: 1, paneId: '%1', dead: true }, { generation: 2, paneId: '%2', dead: false }], true, true, false],
    ['gone: released, nothing to close', [{ generation: 2, paneId: '%2', dead: false }], false, true, false],
  ])('after a restart, the kept pane %s', (_name, panes, closes, releases, stays) => {
    const step = reduceLane(kept(), { type: 'resume', panes }, ctx(AT + MIN, over));
    expect(only(step.effects, 'close_pane').map((e) => e.paneId)).toEqual(closes ? ['%1'] : []);
    expect(only(step.effects, 'release_lease').map((e) => e.account)).toEqual(releases ? ['work2'] : []);
    expect(only(step.effects, 'set_timer').some((t) => t.timer === 'retire' && t.at === AT + RELEASE)).toBe(stays);
    expect(step.lane.retiring != null).toBe(stays);
    expect(types(step.effects)).not.toContain('spawn');
  });
});
