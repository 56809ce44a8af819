/**
 * The lead's succession (SPEC 6), decided for the whole swarm: a `swarm lead handover` becomes the
 * lead lane's handoff; a takeover by another agent makes it the lead; a lost lead's successor goes by
 * the first succession entry that is no lane (else the lead's own name); once a successor accepts
 * (the lead lane's generation moves on), it is the lead and every lane gets one lead notice. The
 * lead record (`lead.json`) is the truth for the epoch; this state follows it. Pure.
 */
import type { LaneEvent } from '../../machine/types.js';
import { parseReport } from '../protocol/protocol.js';
import { spokenDuration } from '../config/duration.js';

export interface Succession {
  /** The agent name the current lead goes by. */
  leadAgent: string;
  /** The agent name a lead successor in flight will go by. */
  leadNext: string | null;
  epoch: number;
  /** The lead lane's generation last seen (a change means a successor lead accepted). */
  leadGeneration: number;
}

export type SuccessionEvent =
  | { type: 'handover'; to: string; packet: string; newEpoch: number }
  | { type: 'takeover'; from: string; newEpoch: number }
  /** After each step: the lead lane's generation, and the epoch in the lead record (null: unreadable). */
  | { type: 'step'; generation: number; recordEpoch: number | null }
  /** A successor of the lead is about to start. */
  | { type: 'successor_starting' }
  /** The successor about to start goes by `name` at `epoch`: another claim to the lead won the tie-break (epochs.winner). */
  | { type: 'successor_named'; name: string; epoch: number }
  /** A promotion in place will not happen: the successor named for it is named no more. */
  | { type: 'promotion_ended' }
  /** swarm raised the epoch in the lead record (a takeover of a lost lead). */
  | { type: 'epoch_raised'; epoch: number }
  /** swarm claimed the lead record at the run's start (`epoch`: the record's, after the claim). */
  | { type: 'claimed'; epoch: number; lead: string; account: string };

export type SuccessionEffect =
  /** Feed the lead lane's machine. */
  | { type: 'lead_lane'; event: LaneEvent }
  /** One lead notice to every lane, journaled once as lead_notice. */
  | { type: 'tell_lanes'; text: string; agent: string; epoch: number }
  /** Point the new lead at its mailbox. */
  | { type: 'poke'; agent: string }
  /** Tell the lead that was, once, that it no longer leads (SPEC 10.5), journaled as lead_stand_down. */
  | { type: 'tell_stale_lead'; agent: string; text: string; lead: string; epoch: number }
  /** The claim, journaled as lead_claimed. */
  | { type: 'journal_claim'; lead: string; epoch: number; account: string };

export interface SuccessionContext {
  /** The lead lane's generation (null: no lead lane yet). */
  leadLaneGeneration: number | null;
  /** Names of the swarm's lanes, the lead's included. */
  lanes: string[];
  /** lead.name and lead.succession from swarm.yaml. */
  leadName: string;
  succession: string[];
  /** timeouts.release (ms): how long the stale lead's pane stays open. */
  releaseMs?: number;
}

export interface SuccessionStep {
  state: Succession;
  effects: SuccessionEffect[];
}

export const leadNotice = (agent: string, epoch: number): string =>
  `lead notice: the lead is now ${agent}@${epoch}; take lead notices only from it.`;

/** What the lead that was is told once another leads (SPEC 10.5). */
export function standDown(agent: string, lead: string, epoch: number, releaseMs: number | undefined): string {
  const closes = releaseMs === undefined || releaseMs <= 0 ? '' : ` This pane closes in ${spokenDuration(releaseMs)}.`;
  return `swarm: ${agent}, you are no longer the lead: ${lead}@${epoch} leads now. Stand down: end your turn and act ` +
    `no more as lead (lead commands, notices to every lane and pushes of the base branch from this pane are refused).${closes}`;
}

const told = (was: string, next: Succession, ctx: Pick<SuccessionContext, 'releaseMs'>): SuccessionEffect[] =>
  was === next.leadAgent ? [] : [{ type: 'tell_stale_lead', agent: was, text: standDown(was, next.leadAgent, next.epoch, ctx.releaseMs), lead: next.leadAgent, epoch: next.epoch }];

const notice = (state: Succession): SuccessionEffect => ({ type: 'tell_lanes', text: leadNotice(state.leadAgent, state.epoch), agent: state.leadAgent, epoch: state.epoch });

/** Who takes over a lost lead: the first succession entry that is no lane and not the lead now, else the lead's own name. */
export function takeoverName(leadAgent: string, ctx: Pick<SuccessionContext, 'lanes' | 'leadName' | 'succession'>): string {
  const lanes = new Set(ctx.lanes);
  return ctx.succession.find((n) => !lanes.has(n) && n !== leadAgent) ?? ctx.leadName;
}

export function reduceSuccession(state: Succession, event: SuccessionEvent, ctx: SuccessionContext): SuccessionStep {
  switch (event.type) {
    case 'handover': {
      const next = { ...state, leadNext: event.to, epoch: event.newEpoch };
      const parsed = parseReport(`handoff ${event.packet}`);
      if (!parsed.ok || ctx.leadLaneGeneration === null) return { state: next, effects: [] };
      return { state: next, effects: [{ type: 'lead_lane', event: { type: 'report', generation: ctx.leadLaneGeneration, report: parsed.report } }] };
    }
    case 'takeover': {
      if (event.from === state.leadAgent) return { state, effects: [] };
      const next = { ...state, epoch: event.newEpoch, leadAgent: event.from };
      return { state: next, effects: [notice(next), ...told(state.leadAgent, next, ctx)] };
    }
    case 'step': {
      if (event.generation === state.leadGeneration) return { state, effects: [] };
      if (event.generation === 1) return { state: { ...state, leadGeneration: 1 }, effects: [] };
      const next: Succession = {
        leadGeneration: event.generation, leadAgent: state.leadNext ?? state.leadAgent, leadNext: null, epoch: event.recordEpoch ?? state.epoch,
      };
      return { state: next, effects: [notice(next), { type: 'poke', agent: next.leadAgent }, ...told(state.leadAgent, next, ctx)] };
    }
    case 'successor_starting':
      return state.leadNext !== null ? { state, effects: [] } : { state: { ...state, leadNext: takeoverName(state.leadAgent, ctx) }, effects: [] };
    case 'successor_named':
      return { state: { ...state, leadNext: event.name, epoch: event.epoch }, effects: [] };
    case 'promotion_ended':
      return { state: { ...state, leadNext: null }, effects: [] };
    case 'epoch_raised':
      return { state: { ...state, epoch: event.epoch }, effects: [] };
    case 'claimed':
      return { state: { ...state, epoch: event.epoch }, effects: [{ type: 'journal_claim', lead: event.lead, epoch: event.epoch, account: event.account }] };
  }
}
