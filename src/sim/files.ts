/**
 * The simulated accounts' files: `.swarm/sim/` holds them, the mailbox offsets, the sim lead's table
 * and the keys logs; an account's quota belongs to a run (`run-<N>/`).
 */
import { join } from 'node:path';
import { planPaths, runFolder } from '../core/plan/paths.js';

/** `.swarm/sim/`: simulated accounts, mailbox offsets, the sim lead's table, keys logs. */
export function simStateDir(plan: string): string {
  return join(planPaths(plan).swarmDir, 'sim');
}

/**
 * A simulated account's state. Its quota belongs to a run (`run-<N>/`): a new run starts every account
 * afresh, so a demo runs again and again. Without a run (a pane started by hand), the plan's own.
 */
export function simAccountFile(plan: string, account: string, run: number | null = null): string {
  const file = `${account.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
  return run === null ? join(simStateDir(plan), file) : join(runFolder(simStateDir(plan), run), file);
}
