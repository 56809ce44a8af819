/** The store's lead and lane rows, derived from the engine state (the lead has its own header). */
import type { LeadRecord } from '../core/lead/epochs.js';
import type { LaneView, SwarmView } from '../ui/store.js';
import type { EngineState } from './engineState.js';
import { forecast, leftText } from '../core/capacity/forecast.js';
import { agentFigures, ledgerFigures, spendText, type Ledger } from '../core/ledger/ledger.js';

/** What the views read of the engine (not the engine itself: no import cycle). */
export interface ViewSource {
  readonly state: EngineState;
  readonly config: { accounts: readonly { id: string; vendor: string }[]; thresholds?: { capacityCritical: number } };
  taskOf(name: string): string;
}

export function laneViews(engine: ViewSource): LaneView[] {
  return engine.state.order
    .filter((name) => name !== engine.state.leadName)
    .map((name) => engine.state.lanes[name])
    .filter((lane) => lane !== undefined)
    .map((lane) => ({
      lane,
      vendor: engine.config.accounts.find((a) => a.id === lane.account)?.vendor ?? null,
      task: engine.taskOf(lane.name),
      left: lane.account === null || lane.state === 'done' ? null : leftText(forecast(engine.state.samples?.[lane.account] ?? [], engine.config.thresholds?.capacityCritical ?? 10)),
      spend: spendOf(engine.state.ledger, lane.name),
    }));
}

/** The run's spend so far (the lead's and the reviewers' included), as the header says it; null: nothing told. */
export function spentView(engine: ViewSource): string | null {
  return spendOf(engine.state.ledger, null);
}

/**
 * The spend texts of one ledger (an agent's, or the whole run's for null), worked out once: the ledger
 * changes only at a usage look, and the views are published after every step (SPEC 10.7: the ledger
 * adds next to nothing to the engine's CPU; bench/ledger.mjs).
 */
const spendTexts = new WeakMap<Ledger, Map<string | null, string | null>>();
const NO_LEDGER: Ledger = {};

function spendOf(ledger: Ledger | undefined, agent: string | null): string | null {
  const key = ledger ?? NO_LEDGER;
  let texts = spendTexts.get(key);
  if (texts === undefined) spendTexts.set(key, (texts = new Map()));
  if (texts.has(agent)) return texts.get(agent)!;
  const text = spendText(agent === null ? ledgerFigures(ledger) : agentFigures(ledger?.[agent]));
  texts.set(agent, text);
  return text;
}

/**
 * The header's lead: `released` once the lead record is released (by the lead or by swarm), as
 * `swarm status` says, whatever its pane still shows; else its lane's state.
 */
export function leadView(engine: ViewSource & { leadRecord(): LeadRecord | null }): SwarmView['lead'] {
  const lead = engine.state.lanes[engine.state.leadName];
  const released = engine.leadRecord()?.released === true;
  const promoting = lead?.handoff?.promotion?.lane;
  const state = released ? 'released' : promoting !== undefined ? `${lead?.state ?? 'lost'}, promoting ${promoting}` : (lead?.state ?? 'starting');
  return { name: engine.state.leadAgent, epoch: engine.state.epoch, account: lead?.account ?? null, state };
}
