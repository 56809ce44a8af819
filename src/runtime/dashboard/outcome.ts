/**
 * The outcome file: how window 0's engine (`--until-done`, `--timeout`) tells the attached
 * `swarm up` how the plan ended, so that one exits with the outcome's code after it detaches.
 */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SwarmConfig } from '../../core/config/config.js';
import { planPaths } from '../../core/plan/paths.js';
import { readTextIfExists, writeFileAtomic } from '../../adapters/files.js';
import type { Outcome } from '../swarm.js';

const outcomeFile = (config: SwarmConfig): string => join(planPaths(config.plan).swarmDir, 'dashboard-outcome.json');

/** Before window 0 starts: no outcome from an earlier run. */
export function clearOutcome(config: SwarmConfig): void {
  try {
    unlinkSync(outcomeFile(config));
  } catch {
    // none from an earlier run
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
