/**
 * Window 0's records for the `swarm up` that opened it: that its engine started (`swarm up --detach`
 * waits for it before it returns), and how the plan ended (`--until-done`, `--timeout`: the attached
 * `swarm up` exits with the outcome's code after it detaches).
 */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SwarmConfig } from '../../core/config/config.js';
import { planPaths } from '../../core/plan/paths.js';
import { readTextIfExists, writeFileAtomic } from '../../adapters/files.js';
import type { Outcome } from '../swarm.js';

const outcomeFile = (config: SwarmConfig): string => join(planPaths(config.plan).swarmDir, 'dashboard-outcome.json');
const startedFile = (config: SwarmConfig): string => join(planPaths(config.plan).swarmDir, 'dashboard-started.json');

/** Before window 0 starts: no record from an earlier run. */
export function clearRecords(config: SwarmConfig): void {
  for (const file of [outcomeFile(config), startedFile(config)]) {
    try {
      unlinkSync(file);
    } catch {
      // none from an earlier run
    }
  }
}

export function writeOutcome(config: SwarmConfig, outcome: Outcome): void {
  writeFileAtomic(outcomeFile(config), `${JSON.stringify({ ...outcome, pid: process.pid, at: new Date().toISOString() })}\n`);
}

/** The outcome window 0 wrote, or null (none, or not one). */
export function readOutcome(config: SwarmConfig): Outcome | null {
  try {
    const value = JSON.parse(readTextIfExists(outcomeFile(config)) ?? 'null') as Outcome | null;
    return value && (value.code === 0 || value.code === 1) ? { code: value.code, why: String(value.why) } : null;
  } catch {
    return null;
  }
}

/**
 * Window 0's engine holds the plan and has started its run (lock taken, lead and lanes started or
 * re-adopted). Not written is no fault: `swarm up --detach` then only waits for its deadline.
 */
export function writeStarted(config: SwarmConfig): void {
  try {
    writeFileAtomic(startedFile(config), `${JSON.stringify({ pid: process.pid, at: new Date().toISOString() })}\n`);
  } catch {
    // a refused write here is the run's to tell (its journal), not the start's
  }
}

/** The pid of the engine that wrote it has started since the records were cleared, else null. */
export function readStarted(config: SwarmConfig): number | null {
  try {
    const value = JSON.parse(readTextIfExists(startedFile(config)) ?? 'null') as { pid?: unknown } | null;
    return typeof value?.pid === 'number' ? value.pid : null;
  } catch {
    return null;
  }
}
