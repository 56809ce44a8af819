/**
 * The ledger as the agents' files hold it now (SPEC 10.7), for `swarm status`, which reads the saved
 * state with no engine: the state's ledger, and every usage record of the run's spools past the offsets
 * the state saved (`usageRead`), folded the way the engine's look folds them (core/ledger/reduce.ts).
 * The engine saves a look's fold within minutes (runtime/planWrites.ts SOFT_SAVE_MS), so without this
 * `status` would trail the dashboard by as much. Reads only; a record of an agent swarm did not record
 * counts for nobody, as in the engine.
 */
import { attributed } from '../core/authority/agents.js';
import type { Ledger } from '../core/ledger/ledger.js';
import { reduceUsage } from '../core/ledger/reduce.js';
import type { UsageSeen } from '../core/swarm/events.js';
import { runOf } from '../core/swarm/runs.js';
import { recordedAgents } from '../adapters/agentRegistry.js';
import { readUsage, runSpools, usageFile, usageSize } from '../adapters/spool.js';
import type { EngineState } from './engineState.js';
import { seenUnder } from './spend.js';

export function ledgerNow(plan: string, state: EngineState): Ledger | undefined {
  const agents = new Map(recordedAgents(plan).map((a) => [a.spool, a]));
  const seen: UsageSeen[] = [];
  for (const spool of runSpools(plan, runOf(state))) {
    const from = state.usageRead?.[spool] ?? 0;
    const file = usageFile(plan, spool);
    const agent = agents.get(spool);
    if (agent === undefined || (usageSize(file) ?? 0) <= from) continue;
    for (const record of readUsage(file, from).records) {
      const r = attributed(record, agent);
      if (r.kind !== 'usage') continue;
      // Under its lane (any lead agent under the lead lane), as the engine's look; on the account its record names.
      const one = seenUnder(r, (name) => (r.role === 'lead' ? state.leadName : state.lanes[name] !== undefined ? name : null), () => r.account);
      if (one !== null) seen.push(one);
    }
  }
  // A generation not in the ledger yet gets no vendor here (status shows spend, not vendors).
  return seen.length === 0 ? state.ledger : reduceUsage(state.ledger, seen, () => null).ledger;
}
