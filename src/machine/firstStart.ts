/**
 * A lane's first agent whose pane could not be made (the host refused it: tmux's "no space for new
 * pane", a tmux server gone, a cwd that vanished). The lane never holds an account it has no agent
 * on: the lease goes back to the pool, and the lane is blocked with the host's reason, escalated,
 * until a start is tried again (the next `swarm up`, or the next start of lanes added at run time).
 * Pure.
 */
import { effectId, escalation, journal } from './effects.js';
import type { Ev } from './step.js';
import type { LaneState, MachineContext, Step } from './types.js';

export const START_FAILED = 'its pane could not be made';

/** Blocked by a first start that failed. */
export function startFailed(lane: LaneState): boolean {
  const never = lane.generation === 1 && lane.paneId === null && lane.handoff === null;
  return never && lane.state === 'blocked' && lane.blocked?.source === 'engine' && lane.blocked.what.startsWith(START_FAILED);
}

/** Never started: generation 1, no pane, no handoff (starting, or blocked by a start that failed). */
export function unstarted(lane: LaneState): boolean {
  return (lane.state === 'starting' && lane.generation === 1 && lane.paneId === null && lane.handoff === null) || startFailed(lane);
}

/** After a restart, a lane whose first start failed is starting again: it is tried once more. */
export function retryFirstStart(lane: LaneState, ctx: MachineContext): Step {
  const next: LaneState = { ...lane, state: 'starting', blocked: null };
  return { lane: next, effects: [journal(next, 'start_retried', 'observation', { after: lane.blocked?.what ?? null }, ctx.now)] };
}

/** The first start failed: release its lease, block with the reason; null when the failure is not a first start's. */
export function onFirstStartFailed(lane: LaneState, event: Ev<'spawn_failed'>, ctx: MachineContext): Step | null {
  if (event.generation !== 1 || !unstarted(lane)) return null;
  const blocked = { class: 'stalled' as const, what: `${START_FAILED} on ${event.account}: ${event.error}`, source: 'engine' as const };
  const next: LaneState = { ...lane, state: 'blocked', blocked };
  return {
    lane: next,
    effects: [
      { type: 'release_lease', id: effectId(lane, 1, 'start_failed', 'release', event.account, ctx.now), account: event.account },
      journal(next, 'start_failed', 'observation', { account: event.account, error: event.error }, ctx.now),
      journal(next, 'lease_released', 'observation', { account: event.account }, `start_failed@${ctx.now}`),
      ...escalation(next, blocked.class, blocked.what, blocked.source, ctx.now),
    ],
  };
}
