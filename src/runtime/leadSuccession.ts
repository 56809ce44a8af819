/**
 * Carries out the lead's succession (core/swarm/leadSuccession.ts): feeds it the lead record's
 * changes from the inbox, the lead lane's generation after each step and a successor's start, and
 * runs its effects. Raising the epoch of a lost lead's record (an I/O on `lead.json`) is here too.
 * It decides nothing.
 */
import { compareAndSwap } from '../core/epochs.js';
import type { InboxRecord } from '../core/inbox.js';
import { reduceSuccession, type Succession, type SuccessionEffect, type SuccessionEvent } from '../core/swarm/leadSuccession.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import type { Engine } from './engine.js';

export function leadSuccession(engine: Engine): void {
  engine.onLeadRecord = (record) => onLeadRecord(engine, record);
}

function onLeadRecord(engine: Engine, record: Extract<InboxRecord, { kind: 'lead' }>): void {
  switch (record.action) {
    case 'handover':
      if (record.to && record.packet) feed(engine, { type: 'handover', to: record.to, packet: record.packet, newEpoch: record.new_epoch });
      return;
    case 'takeover':
      feed(engine, { type: 'takeover', from: record.from, newEpoch: record.new_epoch });
      return;
    case 'release':
      engine.onPlanReleased?.();
      return;
    case 'claim':
      return;
  }
}

/** After each step: a lead successor that accepted is now the lead (true when one just took office). */
export function leadAfterStep(engine: Engine): boolean {
  const lead = engine.lane(engine.state.leadName);
  if (!lead || lead.generation === engine.state.leadGeneration) return false;
  const before = engine.state.leadGeneration;
  feed(engine, { type: 'step', generation: lead.generation, recordEpoch: lead.generation === 1 ? null : (engine.leadRecord()?.epoch ?? null) });
  return lead.generation > 1 && engine.state.leadGeneration !== before;
}

/** swarm claimed the lead record at start: its epoch is the run's. */
export function leadClaimed(engine: Engine, epoch: number): void {
  feed(engine, { type: 'claimed', epoch, lead: engine.config.lead.name, account: engine.config.lead.account });
}

/** A successor of the lead is about to start: the name it will go by. */
export function leadSuccessorName(engine: Engine): string {
  feed(engine, { type: 'successor_starting' });
  return engine.state.leadNext ?? engine.state.leadAgent;
}

function feed(engine: Engine, event: SuccessionEvent): void {
  const { state } = engine;
  const current: Succession = { leadAgent: state.leadAgent, leadNext: state.leadNext, epoch: state.epoch, leadGeneration: state.leadGeneration };
  const { state: next, effects } = reduceSuccession(current, event, {
    leadLaneGeneration: engine.lane(state.leadName)?.generation ?? null,
    lanes: state.order,
    leadName: engine.config.lead.name,
    succession: engine.config.lead.succession,
  });
  engine.commit(next);
  if (event.type === 'step' && effects.length > 0) engine.save();
  for (const effect of effects) carryOut(engine, effect);
}

function carryOut(engine: Engine, effect: SuccessionEffect): void {
  const { state } = engine;
  switch (effect.type) {
    case 'lead_lane':
      engine.dispatch(state.leadName, effect.event);
      return;
    case 'tell_lanes':
      for (const name of state.order) if (name !== state.leadName) engine.deliver(name, 'swarm', effect.text);
      engine.journal({ type: 'observation', event: 'lead_notice', lane: effect.agent, epoch: effect.epoch });
      return;
    case 'journal_claim':
      engine.journal({ type: 'observation', event: 'lead_claimed', lane: effect.lead, epoch: effect.epoch, account: effect.account });
      return;
    case 'poke':
      engine.deliveries.poke(effect.agent);
      return;
  }
}

/** Takeover: the record moves to `by` at epoch + 1 (the lost lead is fenced from then on). */
export function bumpEpoch(engine: Engine, by: string): void {
  const now = new Date(engine.now()).toISOString();
  const outcome = updateLeadRecord(engine.config.plan, (current) => {
    if (!current) return { ok: false, code: 'no_record', message: 'no lead record' };
    return compareAndSwap(current, current.revision, { ...current, lead: by, epoch: current.epoch + 1 }, now);
  });
  if (outcome.ok) {
    feed(engine, { type: 'epoch_raised', epoch: outcome.record.epoch });
    engine.journal({ type: 'observation', event: 'lead_epoch_raised', lane: by, epoch: outcome.record.epoch, missing: 'the in-flight intent of the lost lead: rebuild it from the plan' });
  }
}
