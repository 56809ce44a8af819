/**
 * The lead's succession as the runtime sees it (core/swarm/leadSuccession.ts decides, through the
 * swarm's reducer): lead-record changes read from the inbox become events; a lead successor about
 * to start takes the name the reducer gives it; swarm's own writes of `lead.json` (the claim at
 * start, the epoch raised for a lost lead) are I/O here, their results fed back as events.
 */
import { compareAndSwap } from '../core/lead/epochs.js';
import type { InboxRecord } from '../core/protocol/inbox.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import type { Engine } from './engine.js';

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

/** Takeover: the record moves to `by` at epoch + 1 (the lost lead is fenced from then on). */
export function bumpEpoch(engine: Engine, by: string): void {
  const now = new Date(engine.now()).toISOString();
  const outcome = updateLeadRecord(engine.config.plan, (current) => {
    if (!current) return { ok: false, code: 'no_record', message: 'no lead record' };
    return compareAndSwap(current, current.revision, { ...current, lead: by, epoch: current.epoch + 1 }, now);
  });
  if (outcome.ok) {
    engine.apply({ type: 'lead_epoch_raised', epoch: outcome.record.epoch });
    engine.journal({ type: 'observation', event: 'lead_epoch_raised', lane: by, epoch: outcome.record.epoch, missing: 'the in-flight intent of the lost lead: rebuild it from the plan' });
  }
}
