/**
 * Notices by role (SPEC 10.5): the lead at `low` is told once to name its successor and prepare its
 * lead packet while it keeps leading; at `critical` to hand over with `swarm lead handover`. A lane
 * is told to finish its step and report `handoff <path>`.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane } from '../../src/machine/lane.js';
import { MIN, T0, ctx, only, verdict, working } from './build.js';

const told = (role: 'lane' | 'lead') => {
  const near = reduceLane(working(role), verdict('handoff_soon'), ctx(T0 + MIN));
  const again = reduceLane(near.lane, verdict('handoff_soon'), ctx(T0 + MIN + 1000));
  const now = reduceLane(near.lane, verdict('handoff_now'), ctx(T0 + 2 * MIN));
  return { near: only(near.effects, 'notify').map((n) => n.text), again: only(again.effects, 'notify'), now: only(now.effects, 'notify').map((n) => n.text), lane: now.lane };
};

describe('notices by role', () => {
  it('the lead at low: name a successor and prepare the lead packet, keep leading (once)', () => {
    const { near, again } = told('lead');
    expect(near).toHaveLength(1);
    expect(near[0]).toMatch(/^swarm: you, the lead, are running low \(capacity low 20%, context 30%\)\. Keep leading, and prepare to hand over: name your successor/);
    expect(near[0]).toContain('`swarm lead show`');
    expect(near[0]).toContain('`swarm packet write --reason lead_handover');
    expect(near[0]).not.toContain('report `handoff');
    expect(again).toEqual([]);
  });

  it('the lead at critical: hand over with swarm lead handover, the lead packet first', () => {
    const { now, lane } = told('lead');
    expect(now).toEqual([
      'swarm: hand over the lead now. Write your lead packet with `swarm packet write --reason lead_handover --doing TEXT --next STEP` ' +
        '— with a `--deadend "what you tried: why it failed"` for each approach that did not work — ' +
        'and run `swarm lead handover <successor> --packet <path>` within 10 min, or swarm writes a degraded packet and your successor takes the lead over.',
    ]);
    expect(lane).toMatchObject({ phase: 'writing', handoff: { reason: 'lead_handover' } });
  });

  it('a lane: finish the step and report handoff <path>', () => {
    const { near, now } = told('lane');
    expect(near[0]).toMatch(/^swarm: you are running low .*report `handoff <packet path>`\.$/);
    expect(now[0]).toMatch(/^swarm: hand off now\. .*report `handoff <packet path>` within 10 min/);
  });
});
