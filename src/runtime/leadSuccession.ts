/**
 * The lead's succession as the runtime sees it (core/swarm/leadSuccession.ts decides, through the
 * swarm's reducer): lead-record changes read from the inbox become events; a lead successor about
 * to start takes the name the reducer gives it; swarm's own writes of `lead.json` (the claim at
 * start, the epoch raised for a lost lead) are I/O here, their results fed back as events.
 */
import { compareAndSwap, type LeadOutcome } from '../core/lead/epochs.js';
import type { InboxRecord } from '../core/protocol/inbox.js';
import { readLeadRecord, updateLeadRecord } from '../adapters/leadStore.js';
import type { Engine } from './engine.js';
import { meetClaim } from './leadClaims.js';

/** A lead record's change, read from the inbox. */
export function leadRecordEvent(engine: Engine, record: Extract<InboxRecord, { kind: 'lead' }>): void {
  switch (record.action) {
    case 'handover':
      if (record.to && record.packet) engine.dispatch({ type: 'lead_handover', to: record.to, packet: record.packet, newEpoch: record.new_epoch });
      return;
    case 'takeover':
      engine.dispatch({ type: 'lead_takeover', from: record.from, newEpoch: record.new_epoch });
      return;
    case 'release':
      engine.dispatch({ type: 'plan', event: 'lead_released' });
      return;
    case 'claim':
      return;
  }
}

/** swarm claimed the lead record at start: its epoch is the run's. */
export function leadClaimed(engine: Engine, epoch: number): void {
  engine.apply({ type: 'lead_claimed', epoch, lead: engine.config.lead.name, account: engine.config.lead.account });
}

/** A successor of the lead is about to start (a job on the queue): the name it will go by. */
export function leadSuccessorName(engine: Engine): string {
  engine.apply({ type: 'lead_successor_starting' });
  return engine.state.leadNext ?? engine.state.leadAgent;
}

/**
 * swarm's takeover of a lost lead: the record moves to `proposed` at the epoch after the one it
 * knows (the lost lead is fenced from then on). Where another claim met it — the record moved
 * meanwhile: a handover the lead wrote just before it died, its inbox record not read (or never
 * written) — the tie-break decides (SPEC 6, epochs.winner): the higher epoch wins, on a tie the
 * earlier succession entry. swarm's claim winning raises the epoch above the other's; the other
 * winning stands, and the successor swarm starts goes by its name. A lane is never that name until a
 * lane can be promoted in place. Both claims are journaled (`lead_claims_met`). Returns the name the
 * successor goes by.
 */
export function claimTakeover(engine: Engine, proposed: string): string {
  const known = engine.state.epoch;
  const lanes = new Set(engine.state.order);
  let met: { other: string; epoch: number; first: string } | null = null;
  const now = new Date(engine.now()).toISOString();
  const outcome = updateLeadRecord(engine.config.plan, (current): LeadOutcome => {
    met = null;
    if (!current) return { ok: false, code: 'no_record', message: 'no lead record' };
    const meeting = meetClaim(engine, current, { name: proposed, known, since: known, outranks: lanes });
    // Claimed already: this very takeover, carried out again after a crash (its spawn's intent), raises nothing.
    if (meeting.kind === 'already') return meeting.refusal;
    if (meeting.kind === 'met') {
      const { other, epoch, first } = meeting;
      met = { other, epoch, first };
      if (first !== proposed) return { ok: false, code: 'held', message: `${other}@${epoch} wins over ${proposed}@${known + 1}` };
    }
    return compareAndSwap(current, current.revision, { ...current, lead: proposed, epoch: current.epoch + 1 }, now);
  });
  const claims = met as { other: string; epoch: number; first: string } | null;
  if (claims !== null) {
    engine.journal({
      type: 'observation', event: 'lead_claims_met', lane: claims.first, epoch: claims.first === proposed && outcome.ok ? outcome.record.epoch : claims.epoch,
      claims: [`${proposed}@${known + 1} (swarm's takeover)`, `${claims.other}@${claims.epoch} (in lead.json)`],
      why: claims.first === proposed ? 'swarm\'s takeover ranks first: the epoch is raised above the other claim' : 'the claim in lead.json ranks first: the successor goes by its name',
    });
  }
  if (outcome.ok) {
    engine.apply({ type: 'lead_epoch_raised', epoch: outcome.record.epoch });
    engine.journal({ type: 'observation', event: 'lead_epoch_raised', lane: proposed, epoch: outcome.record.epoch, missing: 'the in-flight intent of the lost lead: rebuild it from the plan' });
    return proposed;
  }
  // Refused for another reason than a claim that stands (no record): as before, no epoch raised.
  if (outcome.code !== 'held') return proposed;
  const record = readLeadRecord(engine.config.plan);
  if (record === null || record.lead === null) return proposed;
  // Another claim stands (or this one was in the record already): the successor goes by its name, at its epoch.
  engine.apply({ type: 'lead_successor_named', name: record.lead, epoch: record.epoch });
  return record.lead;
}
