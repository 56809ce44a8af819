/** The simulated agent's capacity probe: its account's state in `.swarm/sim/run-<N>/<account>.json`. */
import type { ProbeResult, ProbeTarget } from '../../core/capacity/probe.js';
import type { CapacityThresholds } from '../../core/capacity/thresholds.js';
import { readTextIfExists } from '../../adapters/files.js';
import { agentKey, parseAccountState, simReading } from '../../sim/model.js';
import { simAccountFile } from '../../sim/files.js';

export function simProbe(target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null {
  const text = readTextIfExists(simAccountFile(target.plan, target.account, target.run ?? null));
  const state = text === null ? null : parseAccountState(text, target.account);
  if (state === null) return null;
  return { reading: simReading(state, agentKey(target.lane, target.generation), thresholds), cacheable: false };
}
