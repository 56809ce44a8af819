/**
 * How a run ends other than by its plan: `swarm down` ends it (the next `swarm up` starts afresh),
 * and a tmux server that dies under it stops it short (the next `swarm up` resumes: every agent is
 * gone, so each lane gets a degraded packet and a successor). Both are written into the state file,
 * so `swarm status` tells the truth with no engine running.
 */
import { isLive } from '../machine/laneState.js';
import type { LaneState } from '../machine/types.js';
import { reduceHostLost } from '../core/swarm/hostLost.js';
import type { JournalInput } from '../adapters/journal.js';
import { isoNow, type Clock } from './clock.js';
import type { EngineState } from './engineState.js';

/** What stopping on a lost host needs of the engine. */
interface HostLostEngine {
  readonly state: Pick<EngineState, 'hostLost'>;
  readonly clock: Clock;
  commit(patch: Pick<EngineState, 'hostLost'>): void;
  save(): void;
  /** Set: no more lane events are taken (engine.dispatch). */
  closed: boolean;
  journal(input: JournalInput): unknown;
}

/** The saved state to resume, or null for a fresh run (none saved, the plan done, or ended by `swarm down`). */
export function toResume(saved: EngineState | null): EngineState | null {
  if (saved === null || saved.planDone || saved.ended !== undefined) return null;
  const resumed = { ...saved };
  delete resumed.hostLost;
  return resumed;
}

/** The state `swarm down` leaves: ended, every live lane stopped, the inbox read up to `inboxOffset`. */
export function endRun(state: EngineState, at: string, inboxOffset: number): EngineState {
  const lanes = Object.fromEntries(Object.entries(state.lanes).map(([name, lane]) => [name, isLive(lane) ? { ...lane, state: 'stopped' as const } : lane]));
  return { ...state, lanes, ended: at, inboxOffset: Math.max(state.inboxOffset, inboxOffset), timers: [], pending: [] };
}

/** The lanes as `swarm status` shows them: after the host was lost, every live lane's agent is lost. */
export function lanesAsSeen(state: EngineState): LaneState[] {
  const lanes = state.order.map((name) => state.lanes[name]).filter((lane): lane is LaneState => lane !== undefined);
  return state.hostLost === undefined ? lanes : lanes.map((lane) => (isLive(lane) ? { ...lane, state: 'lost' } : lane));
}

/**
 * The tmux server is gone (died, or was killed): its panes went with it, and no pane can be
 * started or watched. The run stops short rather than rebuild a server behind the user's back
 * (killing it is how a user stops everything at once). core/swarm/hostLost.ts decides; this carries
 * out its effects (`finish` settles the run: exit 1, the lock released as the run detaches).
 */
export function stopOnHostLost(engine: HostLostEngine, reason: string, finish: (outcome: { code: 1; why: string }) => void): void {
  const step = reduceHostLost(engine.state.hostLost, { reason }, { now: isoNow(engine.clock) });
  if (step.hostLost) engine.commit({ hostLost: step.hostLost });
  // What effects in flight report now (a spawn that failed for want of a server) is no fact about the
  // lanes or their accounts: taken in, it would use up every account and hold the lane for a human.
  engine.closed = true;
  for (const effect of step.effects) {
    if (effect.type === 'save') engine.save();
    else if (effect.type === 'journal') engine.journal({ type: effect.kind, event: effect.event, lane: null, ...effect.data });
    else finish({ code: effect.code, why: effect.why });
  }
}
