/** A done lane's agent leaving its pane, and a gone agent's lane at the plan's end (the lane machine; pure). */
import { clearTimer, effectId, journal } from './effects.js';
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

/**
 * The plan is done while the lane's agent is gone (lost, or its exit began the handoff) and no
 * successor is on its way — a lead lost when no account was left for its takeover: its work is over,
 * the handoff is dropped, and its lease comes back, since a lease outlives no holder (SPEC 9).
 * A lane whose agent still runs keeps its lease with it.
 */
export function onWorkOver(lane: LaneState, ctx: MachineContext): Step {
  const gone = lane.state === 'lost' || lane.handoff?.exit !== undefined;
  if (lane.state === 'done' || lane.state === 'stopped' || !gone || (lane.handoff?.successor ?? null) !== null) return { lane, effects: [] };
  const next: LaneState = { ...lane, state: 'done', phase: null, phaseSince: null, blocked: null, handoff: null, paneId: null };
  const effects: Effect[] = (['accept', 'packet', 'stall', 'reset'] as const).map((timer) => clearTimer(next, timer, ctx.now));
  if (lane.account !== null) {
    effects.push(
      { type: 'release_lease', id: effectId(lane, lane.generation, 'release-over', lane.account), account: lane.account },
      journal(next, 'lease_released', 'observation', { account: lane.account, why: 'the plan is done and its agent is gone' }, ctx.now),
    );
  }
  return { lane: next, effects };
}
