/**
 * Reading PLAN.md, which every agent and several commands read: only a regular file, only up to
 * MAX_CONFIG_BYTES, checked before it is opened (adapters/configText.ts), so a FIFO named PLAN.md
 * cannot hang `swarm up`, `swarm accept` or the engine, and a huge one is not read into memory.
 */
import { planContract } from '../core/plan/plan.js';
import { planPaths } from '../core/plan/paths.js';
import { UsageError } from '../errors.js';
import { readConfigText } from './configText.js';

/** PLAN.md's text, or null when the plan folder has none; a UsageError (exit 2) when it is not a plain, small file. */
export function readPlanText(plan: string): string | null {
  const file = planPaths(plan).planFile;
  try {
    return readConfigText(file, file, 'PLAN.md', 'no PLAN.md');
  } catch (error) {
    if (error instanceof UsageError && error.message === 'no PLAN.md') return null;
    throw error;
  }
}

/** The plan's contract id (PLAN.md's front matter), '' when it has none or PLAN.md cannot be read. */
export function planContractOf(plan: string): string {
  try {
    return planContract(readPlanText(plan) ?? '');
  } catch {
    return '';
  }
}

