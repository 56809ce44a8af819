/**
 * Is a folder a plan? Cheap enough for `swarm notify` (two stat calls at most): it holds PLAN.md, or
 * the `.swarm/` folder swarm makes in every plan it runs. Keeps `SWARM_PLAN=/etc swarm notify …`
 * from creating `/etc/.swarm/inbox.jsonl`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

export function isPlanFolder(dir: string): boolean {
  return statSync(join(dir, '.swarm'), { throwIfNoEntry: false })?.isDirectory() === true ||
    statSync(join(dir, 'PLAN.md'), { throwIfNoEntry: false })?.isFile() === true;
}

/** Refuse (exit 2, nothing written) an agent command whose SWARM_PLAN is no plan folder. */
export function requirePlanFolder(plan: string, command: string): void {
  if (isPlanFolder(plan)) return;
  throw new UsageError(`swarm ${command}: SWARM_PLAN=${plan} is no plan folder (no PLAN.md, no .swarm/); nothing was written`, {
    hint: 'SWARM_PLAN is set by `swarm up` to the plan folder of swarm.yaml; set it back to that folder',
  });
}
