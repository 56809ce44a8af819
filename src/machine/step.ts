/**
 * What the lane machine's transition files share (machine, handoff, resume): the event of one type,
 * joining two steps, and the lane predicates more than one transition asks. Pure.
 */
import { handoffInFlight, type LaneEvent, type LaneState, type Step } from './types.js';

/** The lane event of one `type`. */
export type Ev<T extends LaneEvent['type']> = Extract<LaneEvent, { type: T }>;

/** The lane still has an agent to watch: neither done nor stopped. */
export const isLive = (lane: LaneState): boolean => lane.state !== 'done' && lane.state !== 'stopped';

/**
 * Run `next` on the lane of `first` and join the effects. (Not named `then`: a module exporting `then`
 * is a thenable, and `await import()` of it would call it.)
 */
export function andThen(first: Step, next: (lane: LaneState) => Step): Step {
  const second = next(first.lane);
  return { lane: second.lane, effects: [...first.effects, ...second.effects] };
}

/** The current agent's exit was already handled (lost, or held after a crash loop). */
export const exitRecorded = (lane: LaneState): boolean =>
  lane.state === 'lost' || (lane.blocked?.source === 'engine' && lane.blocked.class === 'dependency');

/** Stall: working (or starting), no gate running, and the agent expected to act (not mid-handoff). */
export function stallWatched(lane: LaneState): boolean {
  return (lane.state === 'working' || lane.state === 'starting') && !lane.gatePending && (!handoffInFlight(lane) || lane.phase === 'rejected');
}
