/**
 * A restart that finds an agent's pane gone, not dead (chaos seed 2004): the pane went with its tmux
 * server (killed, or died) or was closed from outside, so the agent did not fail by itself and it is
 * no quick exit. Only an exit the agent made — a dead pane kept by remain-on-exit, or an `exited`
 * event while the engine watched — counts toward the crash loop (two quick exits in a row: blocked).
 */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent, type LaneState } from '../../src/machine/lane.js';
import { T0, ctx, types, working } from './build.js';

type Pane = { generation: number; paneId: string; dead: boolean; signal?: number };
/** A lane whose previous agent exited quickly (one quick exit counted), its agent started at T0. */
const afterOneQuickExit = (): LaneState => ({ ...working(), startedAt: T0, quickExits: 1 });
const SOON = T0 + 5000;
const resume = (lane: LaneState, panes: Pane[]) => reduceLane(lane, { type: 'resume', panes } as LaneEvent, ctx(SOON));

describe('resume after the agent\'s pane is gone', () => {
  it('a pane gone 5 s after its start (its tmux server died): lost, a degraded handoff, no crash loop', () => {
    const step = resume(afterOneQuickExit(), []);
    expect(step.lane).toMatchObject({ state: 'lost', phase: 'degraded', handoff: { reason: 'lane_lost' }, blocked: null });
    expect(step.lane.quickExits).toBe(1);
    expect(types(step.effects)).toEqual(['journal', 'clear_timer', 'journal', 'write_degraded']);
  });

  it('a pane dead 5 s after its start (the agent exited; remain-on-exit kept it): the second quick exit blocks the lane', () => {
    const step = resume(afterOneQuickExit(), [{ generation: 1, paneId: '%1', dead: true }]);
    expect(step.lane).toMatchObject({ state: 'blocked', blocked: { class: 'dependency' } });
    expect(step.lane.blocked?.what).toContain('for the second time in a row');
  });

  it('a pane dead by a kill from outside (signal 9, seen on the restart): lost, a degraded handoff, no crash loop', () => {
    const step = resume(afterOneQuickExit(), [{ generation: 1, paneId: '%1', dead: true, signal: 9 }]);
    expect(step.lane).toMatchObject({ state: 'lost', phase: 'degraded', blocked: null });
    expect(step.lane.quickExits).toBe(1);
  });

  it('an exit seen while the engine watched still counts', () => {
    const step = reduceLane(afterOneQuickExit(), { type: 'exited', paneId: '%1', status: 1 }, ctx(SOON));
    expect(step.lane).toMatchObject({ state: 'blocked', blocked: { class: 'dependency' } });
  });
});
