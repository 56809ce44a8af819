/**
 * A lane's agent promoted to lead in place, as the runtime carries it out (the reducers decide:
 * core/swarm/promotion.ts, machine/promotion.ts). `promote_lane` claims lead.json for the name the
 * agent will lead by — at the epoch a handover to that lane raised, else one above the record's (the
 * lost lead fenced from then on) — and tells the lane; `adopt_pane` gives the lead lane the agent's
 * pane: relabelled, the agent recorded as the lead's (its commands by ancestry are the lead's, at the
 * epoch it leads at), and its account's lease moved to the lead. Both are idempotent: a restart that
 * finds the intent not marked done carries it out again to the same end.
 */
import { compareAndSwap, type LeadOutcome } from '../core/lead/epochs.js';
import type { Effect } from '../machine/types.js';
import type { SwarmEffect } from '../core/swarm/events.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import { moveLease } from '../adapters/leaseFiles.js';
import { recordPane } from './agentStarts.js';
import { meetClaim } from './leadClaims.js';
import type { Engine } from './engine.js';

export function promoteLane(engine: Engine, effect: Extract<SwarmEffect, { type: 'promote_lane' }>): void {
  const known = engine.state.epoch;
  const now = new Date(engine.now()).toISOString();
  let refusal: string | null = null;
  let already: number | null = null;
  const outcome = updateLeadRecord(engine.config.plan, (current): LeadOutcome => {
    refusal = null;
    already = null;
    if (!current) return { ok: false, code: 'no_record', message: 'no lead record' };
    if (current.released) return { ok: false, code: 'released', message: 'the lead record is released' };
    const meeting = meetClaim(engine, current, { name: effect.as, known, ranksAs: effect.lane });
    if (meeting.kind === 'already') {
      already = meeting.epoch; // claimed already (the intent carried out again after a restart): nothing to write
      return meeting.refusal;
    }
    const handedToLane = current.lead === effect.lane;
    // Another claim met this one (SPEC 6 tie-break): it stands unless this one ranks first.
    if (meeting.kind === 'met' && !handedToLane && meeting.first !== effect.lane) {
      refusal = `${meeting.other}@${meeting.epoch} in lead.json wins over promoting ${effect.lane}@${known + 1}`;
      return { ok: false, code: 'held', message: refusal };
    }
    const epoch = handedToLane ? current.epoch : current.epoch + 1;
    return compareAndSwap(current, current.revision, { ...current, lead: effect.as, epoch, promoted_from: { lane: effect.lane, generation: effect.generation } }, now);
  });
  const held = already as number | null;
  if (!outcome.ok && held === null) {
    engine.dispatch(engine.state.leadName, { type: 'promotion_failed', lane: effect.lane, why: refusal ?? outcome.message });
    return;
  }
  const epoch = outcome.ok ? outcome.record.epoch : held!;
  if (epoch !== known) engine.apply({ type: 'lead_successor_named', name: effect.as, epoch });
  // Raised for a lost lead; at the epoch a handover to the lane raised, only the name it leads by is written.
  if (outcome.ok) engine.journal({ type: 'observation', event: epoch !== known ? 'lead_epoch_raised' : 'lead_promotion_claimed', lane: effect.as, epoch, promoted: effect.lane, promoted_generation: effect.generation });
  engine.dispatch(effect.lane, { type: 'promote', as: effect.as, epoch });
}

export async function adoptPane(engine: Engine, effect: Extract<Effect, { type: 'adopt_pane' }>): Promise<void> {
  const lead = engine.state.leadName;
  const account = effect.account ?? '';
  const epoch = engine.state.lanes[lead]?.promotedFrom?.epoch ?? engine.state.epoch;
  await engine.host.relabel(effect.paneId, { lane: effect.agent, generation: effect.generation, account, role: 'lead' }).catch((error: unknown) => {
    // The pane is the lead's all the same (state says so); only a restart would not find it by its labels.
    engine.journal({ type: 'observation', event: 'relabel_failed', lane: effect.agent, generation: effect.generation, paneId: effect.paneId, error: error instanceof Error ? error.message : String(error) });
  });
  if (effect.account !== null) moveLease(engine.leases, effect.account, effect.from, { lane: lead, generation: effect.generation });
  const pane = (await engine.host.list().catch(() => [])).find((p) => p.paneId === effect.paneId);
  recordPane(engine, { lane: effect.agent, role: 'lead', generation: effect.generation, account, epoch }, pane ?? null);
  engine.journal({ type: 'observation', event: 'pane_adopted', lane: effect.agent, generation: effect.generation, paneId: effect.paneId, from: `${effect.from.lane} g${effect.from.generation}`, account: effect.account, epoch });
}
