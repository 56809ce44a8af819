/** Blocking a lane: the one escalation a new block makes. Pure; part of the lane machine. */
import { escalation, journal, setTimer } from './effects.js';
import type { Blocked, LaneState, MachineContext, Step } from './types.js';

/** Block the lane and escalate once (a repeat of the same block changes nothing). */
export function block(lane: LaneState, blocked: Blocked, ctx: MachineContext): Step {
  const passive = (source: Blocked['source'] | undefined): boolean => source === 'screen' || source === 'signal';
  const sameSource = lane.blocked?.source === blocked.source || (passive(lane.blocked?.source) && passive(blocked.source));
  const same = lane.state === 'blocked' && lane.blocked?.class === blocked.class && sameSource;
  if (same && (blocked.source !== 'report' || lane.blocked?.what === blocked.what)) {
    // The agent's own signal outlasts a screen that says the same: only its turn going on clears it.
    return blocked.source === 'signal' && lane.blocked?.source === 'screen' ? { lane: { ...lane, blocked }, effects: [] } : { lane, effects: [] };
  }
  const next: LaneState = { ...lane, state: 'blocked', blocked };
  return { lane: next, effects: escalation(next, blocked.class, blocked.what, blocked.source, ctx.now) };
}

/**
 * The developer answered the lane (`swarm answer`, SPEC 10.6): a block the lane reported itself is
 * over at once, the stall clock starting again; a screen's block lasts while the screen does, and an
 * engine's hold (a crash loop, no successor) is not answered away.
 */
export function onAnswered(lane: LaneState, ctx: MachineContext): Step {
  if (lane.state !== 'blocked' || lane.blocked?.source !== 'report') return { lane, effects: [] };
  const next: LaneState = { ...lane, state: 'working', blocked: null, lastActivity: ctx.now, stallNudged: false };
  return {
    lane: next,
    effects: [
      journal(next, 'unblocked', 'observation', { class: lane.blocked.class, by: 'answer' }, ctx.now),
      setTimer(next, 'stall', ctx.now + ctx.timeouts.stall),
    ],
  };
}
