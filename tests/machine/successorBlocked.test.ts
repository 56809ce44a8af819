/**
 * A successor that reports `blocked` before it accepted (its `swarm accept` refused the packet: the
 * demo's flake of session 8, a lead's lock file counted as an uncommitted path) fails at once in its
 * own words: its pane killed, its lease released, the next account tried; a report from a successor
 * that is not blocked is still only noted, and a blocked report from another generation changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane } from '../../src/machine/lane.js';
import { MIN, T0, ctx, journals, only, report, spawned, types } from './build.js';

const refused = 'blocked dependency packet not accepted (exit 3): where.uncommitted differs from the checkout: missing plans/demo/lead.json.lock\ncapacity=ok 90% @work3';

describe('a successor blocked before it accepted', () => {
  it('fails now (not at the accept deadline), in its own words; the next account is picked', () => {
    const step = reduceLane(spawned(), report(refused, 2), ctx(T0 + 6 * MIN + 5000));
    expect(journals(step.effects)).toEqual(['successor_blocked', 'lease_released']);
    expect(types(step.effects)).toEqual(['journal', 'clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account']);
    expect(only(step.effects, 'kill_pane')[0]).toMatchObject({ paneId: '%2' });
    expect(only(step.effects, 'release_lease')[0]).toMatchObject({ account: 'work3' });
    expect(only(step.effects, 'journal')[1]!.data).toMatchObject({ why: expect.stringContaining('reported blocked before accepting: packet not accepted (exit 3): where.uncommitted differs') });
    expect(step.lane.handoff).toMatchObject({ successor: null, tried: ['work3'] });
    expect(step.lane.handoff?.failures?.[0]).toMatchObject({ account: 'work3', lines: expect.stringContaining('missing plans/demo/lead.json.lock') });
    expect(step.lane.generation).toBe(1);
  });

  it('any other report of a successor not yet accepted is only noted; a blocked one of another generation too', () => {
    for (const [text, generation] of [['plan ready\ncapacity=ok 90% @work3', 2], [refused, 3]] as const) {
      const step = reduceLane(spawned(), report(text, generation), ctx(T0 + 6 * MIN + 5000));
      expect(journals(step.effects)).toEqual(['ignored']);
      expect(step.lane).toEqual(spawned());
    }
  });
});
