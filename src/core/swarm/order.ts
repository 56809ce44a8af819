/**
 * Lanes `after:` others (SPEC 10.6): a waiting lane, with no account and no pane, starts once every
 * lane it is after is done; until then it says for whom it waits. Decided after every step that moved
 * a lane (core/swarm/reduce.ts). Pure.
 */
import type { SwarmConfig } from '../config/config.js';
import type { SwarmEffect } from './events.js';
import type { SwarmState } from './state.js';

/**
 * A waiting lane whose lanes are all done starts: `starting` again (journaled `dependencies_done`), and
 * the lanes with no agent yet are started (`start_added`); one still waiting says for whom now. The
 * state is the one given when nothing changed.
 */
export function startWaiting(state: SwarmState, lanes: SwarmConfig['lanes'], now: number): { state: SwarmState; effects: SwarmEffect[] } {
  let s = state;
  const effects: SwarmEffect[] = [];
  for (const name of s.order) {
    const lane = s.lanes[name];
    if (lane?.state !== 'waiting') continue;
    const after = lanes.find((l) => l.name === name)?.after ?? lane.waitingFor ?? [];
    const pending = after.filter((dep) => s.lanes[dep]?.state !== 'done');
    if (pending.length > 0) {
      if (pending.join() !== (lane.waitingFor ?? []).join()) s = { ...s, lanes: { ...s.lanes, [name]: { ...lane, waitingFor: pending } } };
      continue;
    }
    const { waitingFor: _done, ...rest } = lane;
    s = { ...s, lanes: { ...s.lanes, [name]: { ...rest, state: 'starting', startedAt: now, lastActivity: now } } };
    effects.push({ type: 'journal', kind: 'observation', event: 'dependencies_done', lane: name, data: { after } });
  }
  if (effects.length > 0) effects.push({ type: 'start_added' });
  return { state: s, effects };
}
