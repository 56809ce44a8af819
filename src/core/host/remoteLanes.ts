/**
 * Lanes on other hosts (SPEC 10.9) are read, validated and checked by `swarm doctor`, but not yet
 * run: `swarm up` refuses a swarm.yaml that puts a lane on a host before anything starts, and says
 * what to do instead. Pure.
 */
import { UsageError } from '../../errors.js';
import type { SwarmConfig } from '../config/types.js';

/** Throws (exit 2) when a lane names a host; returns when every lane runs here. */
export function refuseRemoteLanes(config: Pick<SwarmConfig, 'lanes'>): void {
  const remote = config.lanes.filter((l) => l.host !== undefined);
  if (remote.length === 0) return;
  const which = remote.map((l) => `${l.name} on host ${l.host}`).join(', ');
  throw new UsageError(
    `swarm up: running lanes on other hosts is not built yet (SPEC 10.9 is in progress; \`swarm doctor\` checks the hosts today), and swarm.yaml has ${remote.length === 1 ? 'a lane' : 'lanes'} there: ${which}; nothing was started`,
    { hint: `to run ${remote.length === 1 ? 'it' : 'them'} now, run ${remote.length === 1 ? 'the lane' : 'each lane'} here: remove its host: and give it a local checkout (a folder on this machine, e.g. a git worktree)` },
  );
}
