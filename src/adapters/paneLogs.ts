/** Saved pane logs (`.swarm/logs/run-<n>/<lane>-g<generation>.log`): what `swarm logs` prints once a pane is gone. */
import { join } from 'node:path';
import { planPaths, runFolder } from '../core/plan/paths.js';
import { writeFileAtomic } from './files.js';

export function writePaneLog(plan: string, run: number, lane: string, generation: number, text: string): void {
  writeFileAtomic(join(runFolder(planPaths(plan).logsDir, run), `${lane}-g${generation}.log`), `${text.trimEnd()}\n`);
}
