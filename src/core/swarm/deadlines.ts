/**
 * Every deadline of the swarm is state (the one reducer's, exactly once across crashes): the lanes' timers (accept, packet, stall,
 * reset), the release deadline (`releaseAt`), the ask deadline (the oldest open ask's) and the
 * deadline of a last inbox line without its newline (`inboxTail`). A lane
 * transition's set_timer and clear_timer are applied here, in the same step; `deadlines` lists what
 * the runtime arms on its clock, each with the event it feeds when it passes. Pure.
 */
import type { Effect, TimerName } from '../../machine/types.js';
import { askDeadline } from './asks.js';
import type { SwarmEvent } from './events.js';
import type { SwarmState, TimerEntry } from './state.js';

export function setTimer(entries: TimerEntry[], lane: string, timer: TimerName, at: number): TimerEntry[] {
  return [...entries.filter((e) => !(e.lane === lane && e.timer === timer)), { lane, timer, at }];
}

export function clearTimer(entries: TimerEntry[], lane: string, timer: TimerName): TimerEntry[] {
  return entries.filter((e) => !(e.lane === lane && e.timer === timer));
}

/** A transition's set_timer and clear_timer effects applied in order to `entries`, and the effects left. */
export function applyTimers(entries: TimerEntry[], lane: string, effects: readonly Effect[]): { timers: TimerEntry[]; rest: Effect[] } {
  let timers = entries;
  const rest: Effect[] = [];
  for (const effect of effects) {
    if (effect.type === 'set_timer') timers = setTimer(timers, lane, effect.timer, effect.at);
    else if (effect.type === 'clear_timer') timers = clearTimer(timers, lane, effect.timer);
    else rest.push(effect);
  }
  return { timers, rest };
}

/** One deadline to arm: `key` groups those armed as one clock timer (the earliest of the group). */
export interface Deadline {
  key: 'lanes' | 'release' | 'ask' | 'inbox';
  at: number;
  event: SwarmEvent;
}

export function deadlines(state: Pick<SwarmState, 'timers' | 'releaseAt' | 'planDone' | 'asks' | 'askTimeouts' | 'spools'>, askMs: number): Deadline[] {
  const out: Deadline[] = state.timers.map((t) => ({ key: 'lanes', at: t.at, event: { type: 'timer', lane: t.lane, timer: t.timer, at: t.at } }));
  if (typeof state.releaseAt === 'number' && !state.planDone) out.push({ key: 'release', at: state.releaseAt, event: { type: 'plan', event: 'release_due' } });
  const ask = askDeadline(state, askMs);
  if (ask !== null) out.push({ key: 'ask', at: ask, event: { type: 'ask', event: { type: 'ask_due' } } });
  const tails = Object.values(state.spools ?? {}).flatMap((read) => (read.tail ? [read.tail.due] : []));
  if (tails.length > 0) out.push({ key: 'inbox', at: Math.min(...tails), event: { type: 'inbox_due' } });
  return out;
}
