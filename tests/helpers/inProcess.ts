/**
 * A swarm run in-process (startSwarm on a fake pane host with a hand clock, real plan files), as the
 * runtime tests drive one: started from the test swarm's swarm.yaml, then run to its end with the
 * release deadline passed once every lane is done.
 */
import { dirname } from 'node:path';
import { loadConfig } from '../../src/adapters/configFile.js';
import { startSwarm, type Outcome, type RunningSwarm } from '../../src/runtime/swarm.js';
import type { FakeHost } from './fakeHost.js';
import type { HandClock } from './handClock.js';
import type { TestSwarm } from './swarmUp.js';

/** The release deadline of the runtime tests' timeouts (`release: 7m`). */
export const RELEASE = 7 * 60_000;

/** `swarm up --until-done` of the test swarm, in this process. */
export async function startInProcess(s: TestSwarm, host: FakeHost, clock: HandClock): Promise<RunningSwarm> {
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  return startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host, clock });
}

/** Run to the end, passing the release deadline once every lane is done; detached, its agents finished. */
export async function finishInProcess(s: TestSwarm, swarm: RunningSwarm, host: FakeHost, clock: HandClock): Promise<Outcome> {
  let over = false;
  const releaser = (async () => {
    while (!over) {
      if (clock.pending().includes(RELEASE) && s.events('all_lanes_done').length > 0) return clock.advance(RELEASE);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const outcome = await swarm.finished;
  over = true;
  await releaser;
  await swarm.detach();
  await Promise.all([...host.running]);
  return outcome;
}
