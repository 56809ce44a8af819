/**
 * A swarm whose engine runs in window 0 of its tmux session (`swarm up` on a terminal, `--detach`):
 * which process it is, and its end after a test — its tmux server killed (only the test's own), the
 * engine waited for as it goes with it, then the test's folder removed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../../src/adapters/lock.js';
import type { TestSwarm } from './swarmUp.js';
import { killTestServer } from './tmuxServer.js';
import { waitFor } from './waitFor.js';

/** The pid of the engine holding the plan's lock (the window-0 process), or null. */
export function enginePid(s: TestSwarm): number | null {
  try {
    return (JSON.parse(readFileSync(join(s.plan, '.swarm', 'lock'), 'utf8')) as { pid: number }).pid;
  } catch {
    return null;
  }
}

/** Kill the swarm's tmux server, wait for its window-0 engine to end with it, and remove the test's folder. */
export async function endWindowZero(s: TestSwarm): Promise<void> {
  const pid = enginePid(s);
  killTestServer(s.socket);
  if (pid !== null) await waitFor(() => !pidAlive(pid), { timeout: 10_000, what: `the engine (pid ${pid}) to end with its tmux server` });
  await s.cleanup();
}
