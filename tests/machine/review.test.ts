/** Review by another vendor in the lane machine (SPEC 10.6, machine/review.ts): rounds, reviewers replaced, max_reviews. */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent, type LaneState } from '../../src/machine/lane.js';
import type { MachineContext, Step } from '../../src/machine/types.js';
import { GATE_ID, MIN, T0, ctx, gateResult, journals, only, report, types, working } from './build.js';

const REVIEW = { maxReviews: 2 };
const at = (minutes: number, over: Partial<MachineContext> = {}) => ctx(T0 + minutes * MIN, { doneWhen: 'npm test', review: REVIEW, ...over });
const run = (lane: LaneState, events: [LaneEvent, number][]): Step => {
  let step: Step = { lane, effects: [] };
  for (const [event, minutes] of events) step = reduceLane(step.lane, event, at(minutes));
  return step;
};

/** The lane whose gate passed: round 1 asks for a reviewer. */
const inReview = (): Step => run(working(), [[report('done\ncapacity=ok 70% @work2'), 1], [gateResult(true, 'ok', GATE_ID), 2]]);
const leased = (account = 'codex1', round = 1): Step => run(inReview().lane, [[{ type: 'reviewer_lease', round, account, why: 'ok' }, 3]]);
const reviewing = (): Step => run(leased().lane, [[{ type: 'reviewer_spawned', seq: 1, paneId: '%9' }, 3]]);
const verdict = (v: 'approved' | 'changes', what = '', seq = 1): LaneEvent => ({ type: 'review_verdict', seq, verdict: v, what });

describe('a reviewed lane (SPEC 10.6)', () => {
  it('is not done when its gate passes: round 1 begins and an account of another vendor is picked; the stall clock stops', () => {
    const step = inReview();
    expect(step.lane).toMatchObject({ state: 'working', gate: null, review: { round: 1, seq: 0, reviewer: null, tried: [] }, last: 'in review (round 1)' });
    expect(only(step.effects, 'pick_reviewer')).toEqual([{ type: 'pick_reviewer', id: 'lane-a/g1/review/1/pick/0', round: 1, exclude: [] }]);
    expect(journals(step.effects)).toContain('review_requested');
    expect(journals(step.effects)).not.toContain('lane_result');
    expect(step.lane.endedAt).toBeUndefined();
  });

  it('without review: the gate\'s pass is done, as before', () => {
    const noReview = (minutes: number) => ctx(T0 + minutes * MIN, { doneWhen: 'npm test' });
    const gated = reduceLane(working(), report('done\ncapacity=ok 70% @work2'), noReview(1)).lane;
    expect(reduceLane(gated, gateResult(true, 'ok'), noReview(2)).lane.state).toBe('done');
  });

  it('a lane with no gate goes to review at done', () => {
    const step = reduceLane(working(), report('done\ncapacity=ok 70% @work2'), ctx(T0 + MIN, { review: REVIEW }));
    expect(step.lane.review).toMatchObject({ round: 1 });
    expect(types(step.effects)).toContain('pick_reviewer');
  });

  it('the lease starts reviewer g1 (`lane-a.review`) on it, with a deadline of timeouts.stall', () => {
    const step = leased();
    expect(step.lane.review).toMatchObject({ seq: 1, reviewer: { seq: 1, account: 'codex1', paneId: null }, deadline: T0 + 33 * MIN });
    expect(step.lane.reviewSeq).toBe(1);
    expect(only(step.effects, 'spawn_reviewer')).toEqual([{ type: 'spawn_reviewer', id: 'lane-a/g1/review/1/spawn/1', round: 1, seq: 1, account: 'codex1' }]);
    expect(only(step.effects, 'set_timer')).toEqual([expect.objectContaining({ timer: 'review', at: T0 + 33 * MIN })]);
  });

  it('approved: the reviewer closes, its lease goes, the lane is done and the lead told', () => {
    const step = run(reviewing().lane, [[verdict('approved'), 10]]);
    expect(step.lane).toMatchObject({ state: 'done', review: null, reviewRounds: 1, endedAt: T0 + 10 * MIN, last: 'approved (review round 1)' });
    expect(only(step.effects, 'close_reviewer')).toEqual([{ type: 'close_reviewer', id: 'lane-a/g1/review/close/1', paneId: '%9', seq: 1 }]);
    expect(only(step.effects, 'release_lease').map((e) => e.account)).toEqual(['codex1']);
    expect(journals(step.effects)).toEqual(expect.arrayContaining(['review_verdict', 'lane_result']));
    expect(only(step.effects, 'tell_lead').map((e) => e.text)).toEqual(['lane-a: review round 1 approved by lane-a.review g1 @codex1', 'lane-a done (gate passed: npm test)']);
  });

  it('changes: told to the lane as data, which works again (stall clock on); its next done runs the gate, then round 2 with a fresh reviewer', () => {
    const changed = run(reviewing().lane, [[verdict('changes', 'rename foo to bar\nand add a test'), 10]]);
    expect(changed.lane).toMatchObject({ state: 'working', review: null, reviewRounds: 1, last: 'review round 1: changes' });
    expect(only(changed.effects, 'notify')[0]!.text).toContain('rename foo to bar\nand add a test');
    expect(only(changed.effects, 'set_timer').map((t) => t.timer)).toEqual(['stall']);
    const again = run(changed.lane, [[report('done\ncapacity=ok 60% @work2'), 20]]);
    expect(types(again.effects)).toContain('run_gate');
    const round2 = run(again.lane, [[gateResult(true, 'ok', again.lane.gate!.id), 21], [{ type: 'reviewer_lease', round: 2, account: 'codex2', why: 'ok' }, 21]]);
    expect(round2.lane.review).toMatchObject({ round: 2, seq: 2, reviewer: { seq: 2, account: 'codex2' } });
  });

  it('after max_reviews rounds of changes: one escalation, the lane held until the developer answers', () => {
    let lane = run(reviewing().lane, [[verdict('changes', 'one'), 10]]).lane;
    lane = run(lane, [[report('done\ncapacity=ok 60% @work2'), 20]]).lane;
    lane = run(lane, [[gateResult(true, 'ok', lane.gate!.id), 21], [{ type: 'reviewer_lease', round: 2, account: 'codex2', why: 'ok' }, 21], [{ type: 'reviewer_spawned', seq: 2, paneId: '%10' }, 21]]).lane;
    const held = run(lane, [[verdict('changes', 'two', 2), 30]]);
    expect(held.lane).toMatchObject({ state: 'blocked', blocked: { class: 'decision', source: 'report' }, reviewRounds: 2 });
    expect(held.lane.blocked!.what).toContain('2 review rounds of lane-a asked for changes (max_reviews 2)');
    expect(only(held.effects, 'escalate')).toHaveLength(1);
    expect(run(held.lane, [[{ type: 'answered' }, 40]]).lane.state).toBe('working');
  });

  it('a reviewer that exits, shows a screen or cannot start is replaced by a fresh one on another account; the round goes on', () => {
    const exited = run(reviewing().lane, [[{ type: 'reviewer_exited', seq: 1, status: 1, tail: 'Error: no auth' }, 5]]);
    expect(exited.lane.review).toMatchObject({ round: 1, reviewer: null, tried: ['codex1'] });
    expect(only(exited.effects, 'pick_reviewer')).toEqual([expect.objectContaining({ exclude: ['codex1'] })]);
    expect(only(exited.effects, 'release_lease').map((e) => e.account)).toEqual(['codex1']);
    expect(only(exited.effects, 'journal').find((j) => j.event === 'reviewer_failed')?.data.why).toContain('Error: no auth');
    const second = run(exited.lane, [[{ type: 'reviewer_lease', round: 1, account: 'codex2', why: 'ok' }, 6]]);
    expect(second.lane.review?.reviewer).toMatchObject({ seq: 2, account: 'codex2' });
    const screen = run(second.lane, [[{ type: 'reviewer_screen', seq: 2, screen: 'login', text: 'Please log in' }, 7]]);
    expect(screen.lane.review).toMatchObject({ tried: ['codex1', 'codex2'] });
    const failed = run(screen.lane, [[{ type: 'reviewer_lease', round: 1, account: 'gem1', why: 'ok' }, 8], [{ type: 'reviewer_spawn_failed', seq: 3, account: 'gem1', error: 'no space for new pane' }, 8]]);
    expect(failed.lane.review).toMatchObject({ tried: ['codex1', 'codex2', 'gem1'] });
    // It had no pane recorded: the close looks for one by its identity.
    expect(only(failed.effects, 'close_reviewer')).toEqual([{ type: 'close_reviewer', id: 'lane-a/g1/review/close/3', paneId: null, seq: 3 }]);
  });

  it('a reviewer silent past its deadline is replaced; an early timer re-arms', () => {
    expect(only(run(reviewing().lane, [[{ type: 'timer', timer: 'review' }, 20]]).effects, 'set_timer')).toEqual([expect.objectContaining({ at: T0 + 33 * MIN })]);
    const late = run(reviewing().lane, [[{ type: 'timer', timer: 'review' }, 33]]);
    expect(late.lane.review).toMatchObject({ reviewer: null, tried: ['codex1'] });
    expect(types(late.effects)).toEqual(expect.arrayContaining(['close_reviewer', 'release_lease', 'pick_reviewer']));
  });

  it('no account of another vendor: the lane is blocked and escalated once; swarm answer tries the round again', () => {
    const none = run(inReview().lane, [[{ type: 'reviewer_lease', round: 1, account: null, why: 'every account of another vendor is in use' }, 3]]);
    expect(none.lane).toMatchObject({ state: 'blocked', blocked: { class: 'dependency', source: 'engine' }, review: null });
    expect(none.lane.blocked!.what).toContain('every account of another vendor is in use');
    expect(only(none.effects, 'escalate')).toHaveLength(1);
    const again = run(none.lane, [[{ type: 'answered' }, 10]]);
    expect(again.lane).toMatchObject({ state: 'working', review: { round: 1, tried: [] } });
    // A pick of its own: the round's first pick's intent id was carried out already.
    const first = only(inReview().effects, 'pick_reviewer')[0]!.id;
    expect(only(again.effects, 'pick_reviewer').map((e) => e.id)).toEqual([`lane-a/g1/review/1/pick/again/${T0 + 10 * MIN}`]);
    expect(only(again.effects, 'pick_reviewer')[0]!.id).not.toBe(first);
  });

  it('four reviewers failing in one round block the lane', () => {
    let lane = inReview().lane;
    for (const [i, account] of ['c1', 'c2', 'c3', 'c4'].entries()) {
      lane = run(lane, [[{ type: 'reviewer_lease', round: 1, account, why: 'ok' }, 3 + i], [{ type: 'reviewer_exited', seq: i + 1, status: 1 }, 3 + i]]).lane;
    }
    expect(lane).toMatchObject({ state: 'blocked', review: null });
    expect(lane.blocked!.what).toContain('4 reviewers of lane-a failed this round');
  });

  it('stale news is ignored: a verdict or exit of another reviewer, a second done, a lease nobody waits for (given back)', () => {
    const r = reviewing().lane;
    expect(journals(run(r, [[verdict('approved', '', 7), 5]]).effects)).toEqual(['ignored']);
    expect(journals(run(r, [[{ type: 'reviewer_exited', seq: 7, status: 0 }, 5]]).effects)).toEqual(['ignored']);
    expect(journals(run(r, [[report('done\ncapacity=ok 60% @work2'), 5]]).effects)).toEqual(['ignored']);
    const unwanted = run(r, [[{ type: 'reviewer_lease', round: 1, account: 'codex9', why: 'ok' }, 5]]);
    expect(only(unwanted.effects, 'release_lease').map((e) => e.account)).toEqual(['codex9']);
    expect(unwanted.lane).toEqual(r);
  });

  it('the lane\'s agent left during the review: approved → done with its lease released; changes → a successor from a degraded packet', () => {
    const lost = run(reviewing().lane, [[{ type: 'exited', paneId: '%1', status: 0 }, 5]]).lane;
    expect(lost.state).toBe('lost');
    const approved = run(lost, [[verdict('approved'), 6]]);
    expect(approved.lane.state).toBe('done');
    expect(only(approved.effects, 'release_lease').map((e) => e.account)).toEqual(['codex1', 'work2']);
    const changes = run(lost, [[verdict('changes', 'fix it'), 6]]);
    expect(types(changes.effects)).toContain('write_degraded');
  });

  it('after a restart: no reviewer yet → pick again (a new intent); none recorded started → start again; gone or dead → a fresh one; running → its deadline again', () => {
    const picking = run(inReview().lane, [[{ type: 'review_resume', panes: [] }, 4]]);
    expect(only(picking.effects, 'pick_reviewer')).toEqual([{ type: 'pick_reviewer', id: `lane-a/g1/review/1/pick/0/resumed/${T0 + 4 * MIN}`, round: 1, exclude: [] }]);
    expect(picking.lane.review?.picks).toBe(1);
    const unstarted = run(leased().lane, [[{ type: 'review_resume', panes: [] }, 4]]);
    expect(only(unstarted.effects, 'spawn_reviewer')).toEqual([expect.objectContaining({ seq: 1, account: 'codex1' })]);
    const running = run(reviewing().lane, [[{ type: 'review_resume', panes: [{ generation: 1, paneId: '%9', dead: false }] }, 4]]);
    expect(types(running.effects)).toEqual(['set_timer']);
    const gone = run(reviewing().lane, [[{ type: 'review_resume', panes: [] }, 4]]);
    expect(gone.lane.review).toMatchObject({ reviewer: null, tried: ['codex1'] });
    expect(only(gone.effects, 'journal').find((j) => j.event === 'reviewer_failed')?.data.why).toBe('its pane was gone when swarm started again');
    const dead = run(reviewing().lane, [[{ type: 'review_resume', panes: [{ generation: 1, paneId: '%9', dead: true, status: 2 }] }, 4]]);
    expect(only(dead.effects, 'journal').find((j) => j.event === 'reviewer_failed')?.data.why).toBe('it exited (status 2) while swarm was down');
    expect(run(working(), [[{ type: 'review_resume', panes: [] }, 4]]).effects).toEqual([]);
  });

  it('a reviewer at a usage limit is replaced and its account marked limited, as a lane\'s would be; a login screen marks nothing', () => {
    const limited = run(reviewing().lane, [[{ type: 'reviewer_screen', seq: 1, screen: 'usage_limit', text: "You've hit your usage limit" }, 5]]);
    expect(only(limited.effects, 'mark_limited')).toEqual([{ type: 'mark_limited', id: 'lane-a/g1/review/limited/1/codex1', account: 'codex1', resetsAt: null }]);
    expect(types(limited.effects)).toContain('pick_reviewer');
    expect(types(run(reviewing().lane, [[{ type: 'reviewer_screen', seq: 1, screen: 'login', text: 'Please log in' }, 5]]).effects)).not.toContain('mark_limited');
    expect(types(run(reviewing().lane, [[{ type: 'reviewer_screen', seq: 9, screen: 'usage_limit', text: 'x' }, 5]]).effects)).not.toContain('mark_limited');
  });
});
