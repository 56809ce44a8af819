/** A done lane's agent leaving its pane (the lane machine; pure). */
import { effectId, journal } from './effects.js';
import { exitOf } from './lastWords.js';
import type { Ev } from './step.js';
import type { Effect, LaneState, MachineContext, Step } from './types.js';

/**
 * A done lane's agent may leave (its work is finished): nothing is succeeded, but its lease is
 * released, since a lease outlives no holder (SPEC 9), and the pane is forgotten so it is told once.
 */
export function doneAgentLeft(lane: LaneState, event: Ev<'exited'>, ctx: MachineContext): Step {
  if (lane.state !== 'done' || lane.paneId === null || event.paneId !== lane.paneId) return { lane, effects: [] };
  const next: LaneState = { ...lane, paneId: null };
  const effects: Effect[] = [journal(next, 'agent_exited', 'observation', { paneId: event.paneId, status: event.status, last_lines: exitOf(event).lines, after: 'done' }, ctx.now)];
  if (lane.account !== null) {
    effects.push(
      { type: 'release_lease', id: effectId(lane, lane.generation, 'release-done', lane.account), account: lane.account },
      journal(next, 'lease_released', 'observation', { account: lane.account, why: 'its agent left after done' }, ctx.now),
    );
  }
  return { lane: next, effects };
}
