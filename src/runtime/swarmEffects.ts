/**
 * Carries out the swarm's own effects (core/swarm/events.ts SwarmEffect), the reducer's intents
 * beside the lane machines': journal lines, messages to the lead and lead notices to every lane, a
 * pane killed, the plan released, added lanes started, the run finished. Results come back as events
 * (`record_released`). It decides nothing.
 */
import { release } from '../core/lead/epochs.js';
import type { SwarmEffect } from '../core/swarm/events.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import { runNotifyCommand } from './effects.js';
import type { Engine } from './engine.js';
import { isoNow } from './clock.js';
import { promoteLane } from './promotion.js';

/** What the run provides: how it settles, and how it starts lanes that have no agent yet. */
export interface RunHooks {
  finish(outcome: { code: 0 | 1; why: string }): void;
  startAdded(): Promise<void>;
  /** Read the inbox from where this run has read to. */
  readInbox(): void;
}

export async function runSwarmEffect(engine: Engine, effect: SwarmEffect, run: RunHooks, intent?: string): Promise<void> {
  const { state } = engine;
  switch (effect.type) {
    case 'journal':
      engine.journal({ type: effect.kind, event: effect.event, lane: effect.lane, ...effect.data, ...(intent === undefined ? {} : { intent }) });
      return;
    case 'tell_lead':
      engine.deliver(engine.leadMailbox(), { kind: 'swarm' }, effect.text);
      return;
    case 'tell_lanes':
      for (const name of state.order) if (name !== state.leadName) engine.deliver(name, { kind: 'lead_notice', lead: effect.agent, epoch: effect.epoch }, effect.text);
      engine.journal({ type: 'observation', event: 'lead_notice', lane: effect.agent, epoch: effect.epoch });
      return;
    case 'poke':
      engine.deliveries.poke(effect.agent);
      return;
    case 'tell_stale_lead':
      engine.deliver(effect.agent, { kind: 'swarm' }, effect.text);
      engine.journal({ type: 'intervention', event: 'lead_stand_down', lane: effect.agent, lead: effect.lead, epoch: effect.epoch });
      return;
    case 'promote_lane':
      promoteLane(engine, effect);
      return;
    case 'kill':
      void engine.host.kill(effect.paneId).catch(() => undefined);
      return;
    case 'release_plan':
      releaseRecord(engine, effect.why);
      engine.dispatch({ type: 'plan', event: 'record_released' });
      return;
    case 'start_added':
      return run.startAdded();
    case 'read_inbox':
      return run.readInbox();
    case 'finish':
      if (effect.code === 0) await runNotifyCommand(engine, { event: 'plan_done', plan: engine.config.plan });
      return run.finish({ code: effect.code, why: effect.why });
  }
}

/** Release the lead record for its holder if it is still held (idempotent). */
function releaseRecord(engine: Engine, why: string): void {
  const record = engine.leadRecord();
  if (!record || record.released || !record.lead) return;
  const caller = record.lead;
  updateLeadRecord(engine.config.plan, (current) => release(current, { caller, epoch: record.epoch, now: isoNow(engine.clock) }));
  engine.journal({ type: 'observation', event: 'lead_released', lane: caller, by: 'swarm', why });
}
