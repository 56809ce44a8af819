/**
 * The plan is done (`work_over`, machine/doneExit.ts): nothing of a handoff on its way outlives it.
 * Chaos seed 1040 ended plan done with the lost lead's lease held by nobody while its takeover went on.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneState } from '../../src/machine/lane.js';
import { MIN, T0, ctx, drive, journals, leased, only, picking, spawned, accepted, working } from './build.js';

const AT = T0 + 20 * MIN;
const over = (lane: LaneState) => reduceLane(lane, { type: 'work_over' }, ctx(AT));
/** The lead's pane died (g1 on work2): a degraded handoff, its successor g2 on work3 leased and in pane %2. */
const lostLead = (): LaneState => {
  const lost = drive(working('lead'), [[{ type: 'exited', paneId: '%1', status: 1 }, T0 + 2 * MIN]]).lane;
  const packet = lost.handoff?.packet ?? '/repo/plans/demo/analysis_results/handoff/lead-g1-degraded.yaml';
  return drive(lost, [
    [{ type: 'degraded_written', packet }, T0 + 3 * MIN],
    [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 4 * MIN],
    [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 5 * MIN],
  ]).lane;
};

describe('work over: the plan is done', () => {
  it('a lost lead taken over: its successor is killed and released, and the lost agent’s lease comes back', () => {
    const lead = lostLead();
    expect(lead.handoff?.successor).toMatchObject({ generation: 2, account: 'work3', paneId: '%2' });
    const step = over(lead);
    expect(only(step.effects, 'kill_pane')).toMatchObject([{ paneId: '%2' }]);
    expect(only(step.effects, 'release_lease').map((e) => e.account).sort()).toEqual(['work2', 'work3']);
    expect(journals(step.effects)).toContain('handoff_dropped');
    expect(step.lane).toMatchObject({ state: 'done', handoff: null, paneId: null, generation: 1 });
  });

  it('a live lead spending its account: the successor goes, the lead keeps its pane and lease', () => {
    const step = over(spawned('lead'));
    expect(only(step.effects, 'kill_pane')).toMatchObject([{ paneId: '%2' }]);
    expect(only(step.effects, 'release_lease').map((e) => e.account)).toEqual(['work3']);
    expect(step.lane).toMatchObject({ paneId: '%1', account: 'work2', handoff: null, phase: null });
  });

  it('a successor leased but not yet seen: its lease goes; the spawn answered later is a stray, killed', () => {
    const step = over(leased('lead'));
    expect(only(step.effects, 'kill_pane')).toEqual([]);
    expect(only(step.effects, 'release_lease').map((e) => e.account)).toEqual(['work3']);
    const late = reduceLane(step.lane, { type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, ctx(AT + 1000));
    expect(only(late.effects, 'kill_pane')).toMatchObject([{ paneId: '%2' }]);
  });

  it('a pick still in flight: its lease, answered later, is released as a stray', () => {
    const step = over(picking('lead'));
    expect(step.lane.handoff).toBeNull();
    const late = reduceLane(step.lane, { type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, ctx(AT + 1000));
    expect(only(late.effects, 'release_lease').map((e) => e.account)).toEqual(['work3']);
    expect(only(late.effects, 'spawn')).toEqual([]);
  });

  it('a successor that already accepted is the lane’s agent: nothing changes', () => {
    const lead = accepted('lead');
    const step = over(lead);
    expect(step.effects).toEqual([]);
    expect(step.lane).toBe(lead);
  });

  it('a working agent with no handoff keeps everything', () => {
    const lead = working('lead');
    expect(over(lead).effects).toEqual([]);
  });
});
