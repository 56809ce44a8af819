/**
 * How a run ends other than by its plan: `swarm down` ends it (the next `swarm up` starts afresh),
 * and a tmux server that dies under it stops it short (the next `swarm up` resumes: every agent is
 * gone, so each lane resumes its own session where it can, else gets a degraded packet and a successor). Both are written into the state file,
 * so `swarm status` tells the truth with no engine running.
 */
import { isLive } from '../machine/laneState.js';
import type { LaneState } from '../machine/types.js';
import type { SwarmEvent } from '../core/swarm/events.js';
import { runOf } from '../core/swarm/runs.js';
import type { EngineState } from './engineState.js';

/** What stopping on a lost host needs of the engine. */
interface HostLostEngine {
  dispatch(event: SwarmEvent): void;
}

/** The saved state to resume, or null for a fresh run (none saved, the plan done, or ended by `swarm down`). */
export function toResume(saved: EngineState | null): EngineState | null {
  if (saved === null || saved.planDone || saved.ended !== undefined) return null;
  const resumed = { ...saved, run: runOf(saved) };
  delete resumed.hostLost;
  return resumed;
}

/**
 * The open run of a saved state, for a command run from a plain shell (no SWARM_RUN): its number
 * while the run is open, else null (no state, the plan done, or ended by `swarm down`).
 */
export function openRun(saved: EngineState | null): number | null {
  return saved === null || saved.planDone || saved.ended !== undefined ? null : runOf(saved);
}

/** The state `swarm down` leaves: ended, every live lane stopped (the run's spools are never read again: the next run has its own). */
export function endRun(state: EngineState, at: string): EngineState {
  const lanes = Object.fromEntries(Object.entries(state.lanes).map(([name, lane]) => [name, isLive(lane) ? { ...lane, state: 'stopped' as const } : lane]));
  return { ...state, lanes, ended: at, timers: [], pending: [] };
}

/** The lanes as `swarm status` shows them: after the host was lost, every live lane's agent is lost. */
export function lanesAsSeen(state: EngineState): LaneState[] {
  const lanes = state.order.map((name) => state.lanes[name]).filter((lane): lane is LaneState => lane !== undefined);
  return state.hostLost === undefined ? lanes : lanes.map((lane) => (isLive(lane) ? { ...lane, state: 'lost' } : lane));
}

/**
 * The tmux server is gone (died, or was killed): its panes went with it, and no pane can be
 * started or watched. The run stops short rather than rebuild a server behind the user's back
 * (killing it is how a user stops everything at once). core/swarm/hostLost.ts decides, through the
 * swarm's reducer; its `finish` settles the run (exit 1, the lock released as the run detaches).
 */
export function stopOnHostLost(engine: HostLostEngine, reason: string): void {
  engine.dispatch({ type: 'host_lost', reason });
}
