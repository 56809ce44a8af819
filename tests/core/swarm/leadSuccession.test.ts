import { describe, expect, it } from 'vitest';
import { parseReport } from '../../../src/core/protocol/protocol.js';
import {
  leadNotice, reduceSuccession, standDown, takeoverName, type Succession, type SuccessionContext, type SuccessionEffect, type SuccessionEvent,
} from '../../../src/core/swarm/leadSuccession.js';

const ctx: SuccessionContext = { leadLaneGeneration: 1, lanes: ['lead', 'lane-a', 'lane-b'], leadName: 'lead', succession: ['lead-b', 'lead-c'] };
const g1: Succession = { leadAgent: 'lead', leadNext: null, epoch: 1, leadGeneration: 1 };
const handingOver: Succession = { ...g1, leadNext: 'lead-b', epoch: 2 };
const tell = (agent: string, epoch: number): SuccessionEffect => ({ type: 'tell_lanes', text: leadNotice(agent, epoch), agent, epoch });
const stale = (agent: string, lead: string, epoch: number, releaseMs?: number): SuccessionEffect =>
  ({ type: 'tell_stale_lead', agent, lead, epoch, text: standDown(agent, lead, epoch, releaseMs) });
const PACKET = 'plans/p/.swarm/packets/lead-g1.yaml';
const parsed = parseReport(`handoff ${PACKET}`);
const handoff = parsed.ok ? parsed.report : null;

describe('reduceSuccession', () => {
  it.each<[string, Succession, SuccessionEvent, SuccessionContext, Succession, SuccessionEffect[]]>([
    ['handover: the successor name and the new epoch; the lead lane hears the handoff', g1, { type: 'handover', to: 'lead-b', packet: PACKET, newEpoch: 2 }, ctx,
      handingOver, [{ type: 'lead_lane', event: { type: 'report', generation: 1, report: handoff! } }]],
    ['handover with no lead lane yet: recorded, no event', g1, { type: 'handover', to: 'lead-b', packet: PACKET, newEpoch: 2 }, { ...ctx, leadLaneGeneration: null },
      handingOver, []],
    ['takeover by another agent: it is the lead, every lane told once', g1, { type: 'takeover', from: 'lead-b', newEpoch: 2 }, ctx,
      { ...g1, leadAgent: 'lead-b', epoch: 2 }, [tell('lead-b', 2), stale('lead', 'lead-b', 2)]],
    ['takeover by the lead itself (its own record echoed): nothing', g1, { type: 'takeover', from: 'lead', newEpoch: 2 }, ctx, g1, []],
    ['step, the lead lane still at its generation: nothing', g1, { type: 'step', generation: 1, recordEpoch: 1 }, ctx, g1, []],
    ['step, the successor accepted: it is the lead at the record epoch, lanes told, pointed at its mailbox', handingOver,
      { type: 'step', generation: 2, recordEpoch: 2 }, ctx, { leadAgent: 'lead-b', leadNext: null, epoch: 2, leadGeneration: 2 },
      [tell('lead-b', 2), { type: 'poke', agent: 'lead-b' }, stale('lead', 'lead-b', 2)]],
    ['step, the successor accepted, with a release time: the stale lead is told when its pane closes', handingOver,
      { type: 'step', generation: 2, recordEpoch: 2 }, { ...ctx, releaseMs: 600_000 }, { leadAgent: 'lead-b', leadNext: null, epoch: 2, leadGeneration: 2 },
      [tell('lead-b', 2), { type: 'poke', agent: 'lead-b' }, stale('lead', 'lead-b', 2, 600_000)]],
    ['step, a successor under the lead name (no leadNext): the same agent name, lanes told', { ...g1, epoch: 2 },
      { type: 'step', generation: 2, recordEpoch: null }, ctx, { leadAgent: 'lead', leadNext: null, epoch: 2, leadGeneration: 2 },
      [tell('lead', 2), { type: 'poke', agent: 'lead' }]],
    ['step, generation 1 first seen (a saved state without it): noted, nobody told', { ...g1, leadGeneration: 0 },
      { type: 'step', generation: 1, recordEpoch: 1 }, ctx, g1, []],
    ['successor starting: the first succession entry that is no lane', g1, { type: 'successor_starting' }, ctx, { ...g1, leadNext: 'lead-b' }, []],
    ['successor starting, a name already chosen (handover): kept', { ...g1, leadNext: 'lead-c' }, { type: 'successor_starting' }, ctx, { ...g1, leadNext: 'lead-c' }, []],
    ['epoch raised by swarm (takeover of a lost lead)', g1, { type: 'epoch_raised', epoch: 3 }, ctx, { ...g1, epoch: 3 }, []],
    ['another claim won the tie-break: the successor goes by its name, at its epoch', { ...g1, leadNext: 'lead-b' }, { type: 'successor_named', name: 'lead-c', epoch: 3 }, ctx,
      { ...g1, leadNext: 'lead-c', epoch: 3 }, []],
    ['claimed at start: the record\'s epoch, the claim journaled', { ...g1, epoch: 0 }, { type: 'claimed', epoch: 4, lead: 'lead', account: 'a1' }, ctx,
      { ...g1, epoch: 4 }, [{ type: 'journal_claim', lead: 'lead', epoch: 4, account: 'a1' }]],
  ])('%s', (_name, state, event, context, next, effects) => {
    const step = reduceSuccession(state, event, context);
    expect(step.state).toEqual(next);
    expect(step.effects).toEqual(effects);
  });

  it('standDown says who leads now, what is refused, and when the pane closes', () => {
    expect(standDown('lead', 'lead-b', 2, 600_000)).toBe(
      'swarm: lead, you are no longer the lead: lead-b@2 leads now. Stand down: end your turn and act no more as lead ' +
      '(lead commands, notices to every lane and pushes of the base branch from this pane are refused). This pane closes in 10 min.');
    expect(standDown('lead', 'lead-b', 2, undefined)).not.toContain('closes');
  });

  it.each<[string, string, Partial<SuccessionContext>, string]>([
    ['the first entry', 'lead', {}, 'lead-b'],
    ['skips the lead now', 'lead-b', {}, 'lead-c'],
    ['skips an entry that is a lane', 'lead', { lanes: ['lead', 'lead-b'] }, 'lead-c'],
    ['none left: the lead name', 'lead-c', { succession: ['lead-c'] }, 'lead'],
    ['no succession: the lead name', 'lead', { succession: [] }, 'lead'],
    ['the default order (SPEC 10.5), first takeover: the successor lead', 'lead', { succession: ['lead-b', 'lane-a'] }, 'lead-b'],
    ['the default order, the successor lead taken over in turn: the lead name again', 'lead-b', { succession: ['lead-b', 'lane-a'] }, 'lead'],
  ])('takeoverName: %s', (_name, leadAgent, over, name) => {
    expect(takeoverName(leadAgent, { ...ctx, ...over })).toBe(name);
  });
});
