/**
 * The lead's succession around the lane machine (SPEC 6): a `swarm lead handover` becomes the lead
 * lane's handoff; a lost lead is taken over at epoch + 1 by the first succession entry that is no lane
 * (else a new lead under the lead's name); once the successor accepts, it is the lead and every lane
 * gets one lead notice.
 */
import { compareAndSwap } from '../core/epochs.js';
import type { InboxRecord } from '../core/inbox.js';
import { parseReport } from '../core/protocol.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import type { Engine } from './engine.js';

export function leadSuccession(engine: Engine): void {
  engine.onLeadRecord = (record) => onLeadRecord(engine, record);
}

function onLeadRecord(engine: Engine, record: Extract<InboxRecord, { kind: 'lead' }>): void {
  const { state } = engine;
  switch (record.action) {
    case 'handover': {
      if (!record.to || !record.packet) return;
      state.leadNext = record.to;
      state.epoch = record.new_epoch;
      const parsed = parseReport(`handoff ${record.packet}`);
      const lead = engine.lane(state.leadName);
      if (parsed.ok && lead) engine.dispatch(state.leadName, { type: 'report', generation: lead.generation, report: parsed.report });
      return;
    }
    case 'takeover':
      if (record.from === state.leadAgent) return;
      state.epoch = record.new_epoch;
      state.leadAgent = record.from;
      noticeToLanes(engine);
      return;
    case 'release':
      engine.onPlanReleased?.();
      return;
    case 'claim':
      return;
  }
}

/** After each step: a lead successor that accepted is now the lead. */
export function leadAfterStep(engine: Engine): void {
  const { state } = engine;
  const lead = engine.lane(state.leadName);
  if (!lead || lead.generation === state.leadGeneration) return;
  state.leadGeneration = lead.generation;
  if (lead.generation === 1) return;
  state.leadAgent = state.leadNext ?? state.leadAgent;
  state.leadNext = null;
  state.epoch = engine.leadRecord()?.epoch ?? state.epoch;
  engine.save();
  noticeToLanes(engine);
  engine.deliveries.poke(state.leadAgent);
}

function noticeToLanes(engine: Engine): void {
  const { state } = engine;
  for (const name of state.order) {
    if (name === state.leadName) continue;
    engine.deliver(name, 'swarm', `lead notice: the lead is now ${state.leadAgent}@${state.epoch}; take lead notices only from it.`);
  }
  engine.journal({ type: 'observation', event: 'lead_notice', lane: state.leadAgent, epoch: state.epoch });
}

/** Who takes over a lost lead: the first succession entry that is no lane, else the lead's own name. */
export function takeoverName(engine: Engine): string {
  const lanes = new Set(engine.state.order);
  return engine.config.lead.succession.find((n) => !lanes.has(n) && n !== engine.state.leadAgent) ?? engine.config.lead.name;
}

/** Takeover: the record moves to `by` at epoch + 1 (the lost lead is fenced from then on). */
export function bumpEpoch(engine: Engine, by: string): void {
  const now = new Date().toISOString();
  const outcome = updateLeadRecord(engine.config.plan, (current) => {
    if (!current) return { ok: false, code: 'no_record', message: 'no lead record' };
    return compareAndSwap(current, current.revision, { ...current, lead: by, epoch: current.epoch + 1 }, now);
  });
  if (outcome.ok) {
    engine.state.epoch = outcome.record.epoch;
    engine.journal({ type: 'observation', event: 'lead_epoch_raised', lane: by, epoch: outcome.record.epoch, missing: 'the in-flight intent of the lost lead: rebuild it from the plan' });
  }
}
