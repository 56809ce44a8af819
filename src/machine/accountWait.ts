/**
 * Waiting for an account another swarm on the machine holds (SPEC 10.4 `waiting_for_account`): a
 * lane's first start, or its successor's pick, found its account (or every eligible one) held by a
 * live holder elsewhere. The lane asks again every `accountRetryMs` (a timer, so a restart keeps it)
 * and takes the account once it is freed; the wait is journaled once, when it begins or its reason
 * changes, not at every ask. Pure.
 */
import { effectId, journal, setTimer } from './effects.js';
import { unstarted } from './firstStart.js';
import type { Ev } from './step.js';
import { ACCOUNT_RETRY_MS, type Handoff, type LaneState, type MachineContext, type Step } from './types.js';

const retryAt = (ctx: MachineContext): number => ctx.now + (ctx.accountRetryMs ?? ACCOUNT_RETRY_MS);

/** The wait's journal line, only when it begins or its reason changes. */
function told(lane: LaneState, next: LaneState, why: string, generation: number, ctx: MachineContext) {
  return lane.waitingForAccount?.why === why ? [] : [journal(next, 'waiting_for_account', 'observation', { why, for_generation: generation }, ctx.now)];
}

/** A first start whose account another swarm holds: wait, and start again at the timer. */
export function onAccountHeld(lane: LaneState, event: Ev<'account_held'>, ctx: MachineContext): Step {
  if (event.generation !== 1 || !unstarted(lane) || lane.state !== 'starting') return { lane, effects: [] };
  const since = lane.waitingForAccount?.since ?? ctx.now;
  const next: LaneState = { ...lane, phase: 'waiting', phaseSince: since, waitingForAccount: { why: event.why, since } };
  return { lane: next, effects: [...told(lane, next, event.why, 1, ctx), setTimer(next, 'reset', retryAt(ctx))] };
}

/** The retry of a first start that waits for an account. */
export function firstStartAgain(lane: LaneState, ctx: MachineContext): Step | null {
  if (lane.handoff !== null || lane.phase !== 'waiting' || !unstarted(lane)) return null;
  return { lane, effects: [{ type: 'start_again', id: effectId(lane, 1, 'start-again', ctx.now) }] };
}

/** A successor's pick found what it could take held by another swarm: wait, and pick again at the timer. */
export function successorWaitsForAccount(lane: LaneState, h: Handoff, why: string, ctx: MachineContext): Step {
  const at = retryAt(ctx);
  const since = lane.waitingForAccount?.since ?? ctx.now;
  // The wait's age spans every ask (each pick is a moment of `spawning` between two waits).
  const next: LaneState = { ...lane, phase: 'waiting', phaseSince: since, handoff: { ...h, retryAt: at }, waitingForAccount: { why, since } };
  return { lane: next, effects: [...told(lane, next, why, h.from.generation + 1, ctx), setTimer(next, 'reset', at)] };
}
