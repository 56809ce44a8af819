/**
 * Is a folder a plan? Cheap enough for `swarm notify` (two stat calls at most): it holds PLAN.md, or
 * the `.swarm/` folder swarm makes in every plan it runs. Keeps `SWARM_PLAN=/etc swarm notify …`
 * from creating `/etc/.swarm/inbox.jsonl`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

export function isPlanFolder(dir: string): boolean {
  return statSync(join(dir, '.swarm'), { throwIfNoEntry: false })?.isDirectory() === true ||
    statSync(join(dir, 'PLAN.md'), { throwIfNoEntry: false })?.isFile() === true;
}
