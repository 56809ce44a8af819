/**
 * How long an agent's command keeps trying a write the plan's files refuse (a full disk, an
 * immutable file) before it exits 5 (SPEC 8): SWARM_WRITE_RETRY_MS, default 10 s. `swarm notify`
 * and `swarm accept` wait it out, so a refusal of a second or two costs no report and no acceptance.
 */
import { excerpt, UsageError, type PlanFilesError } from '../errors.js';

export function writeBudget(env: NodeJS.ProcessEnv): number {
  const given = env.SWARM_WRITE_RETRY_MS;
  if (given === undefined || given === '') return 10_000;
  if (!/^\d+$/.test(given)) throw new UsageError(`SWARM_WRITE_RETRY_MS must be a whole number of milliseconds, got "${excerpt(given, 40)}"`, { hint: 'unset it for the default 10000' });
  return Number(given);
}

/** What an agent's command says on stderr when a write is first refused and it waits (it may yet land). */
export function sayWaiting(stderr: (text: string) => void, command: string, budgetMs: number): (fault: PlanFilesError) => void {
  return (fault) => stderr(`swarm ${command}: ${fault.message}; trying again for up to ${Math.ceil(budgetMs / 1000)} s\n`);
}
