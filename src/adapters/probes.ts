/**
 * Capacity probes per kind (SPEC 5: the second source, after `ak`): what the agent's own files say
 * about its account and context. Only `sim` has one so far: the simulated account's state in
 * `$SWARM_PLAN/.swarm/sim/<account>.json`, a local file, so its readings are not cached.
 */
import { join } from 'node:path';
import type { RawReading } from '../core/capacity.js';
import type { CapacityThresholds } from '../core/thresholds.js';
import { planPaths } from '../core/paths.js';
import { agentKey, parseAccountState, simReading } from '../sim/model.js';
import { readTextIfExists } from './files.js';

export interface ProbeTarget {
  plan: string;
  account: string;
  lane: string;
  generation: number;
}

export interface ProbeResult {
  reading: RawReading;
  /** Whether the reading may be cached for the usual 300 s (false for cheap local files). */
  cacheable: boolean;
}

/** `.swarm/sim/`: simulated accounts, mailbox offsets, the sim lead's table, keys logs. */
export function simStateDir(plan: string): string {
  return join(planPaths(plan).swarmDir, 'sim');
}

export function simAccountFile(plan: string, account: string): string {
  return join(simStateDir(plan), `${account.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

/** The kind's probe reading; null when the kind has no probe or the probe has nothing to say. */
export function probeReading(kind: string | null, target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null {
  if (kind === 'sim') return simProbe(target, thresholds);
  return null;
}

function simProbe(target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null {
  const text = readTextIfExists(simAccountFile(target.plan, target.account));
  const state = text === null ? null : parseAccountState(text, target.account);
  if (state === null) return null;
  return { reading: simReading(state, agentKey(target.lane, target.generation), thresholds), cacheable: false };
}
