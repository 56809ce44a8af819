/**
 * What the lane machine's transition files share (lane, handoff, resume, gate): the event of one
 * type, joining two steps, and the step that changes nothing. Pure.
 */
import { journal } from './effects.js';
import type { LaneEvent, LaneState, Step } from './types.js';

/** The lane event of one `type`. */
export type Ev<T extends LaneEvent['type']> = Extract<LaneEvent, { type: T }>;

/**
 * Run `next` on the lane of `first` and join the effects. (Not named `then`: a module exporting `then`
 * is a thenable, and `await import()` of it would call it.)
 */
export function andThen(first: Step, next: (lane: LaneState) => Step): Step {
  const second = next(first.lane);
  return { lane: second.lane, effects: [...first.effects, ...second.effects] };
}

/** The event changed nothing: the same lane, and one journal entry saying why. */
export function ignored(lane: LaneState, event: LaneEvent, why: string, now: number): Step {
  return { lane, effects: [journal(lane, 'ignored', 'observation', { event: event.type, why }, `${event.type}@${now}`)] };
}
