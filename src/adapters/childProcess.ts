/**
 * node:child_process, loaded only when a process is really started. Loading it costs about 6 ms of
 * a ~36 ms cold start (npm run bench), and the agents' fast path (`swarm statusline`, `hook`,
 * `capacity`) starts a process only now and then (`--then`, `ak`).
 */
import { createRequire } from 'node:module';

type ChildProcess = typeof import('node:child_process');

export function childProcess(): ChildProcess {
  if (typeof process.getBuiltinModule === 'function') return process.getBuiltinModule('node:child_process');
  return createRequire(import.meta.url)('node:child_process') as ChildProcess;
}
