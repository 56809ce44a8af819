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
 * The plan is done: a lane's work is over, and a handoff still on its way is dropped — the lead's
 * (every lane is done by then), lost or spending its account as the last lane finished. Nothing of
 * it may outlive the plan (SPEC 7, 9): a successor not yet accepted is given up (its pane, if seen,
 * killed, its lease released; a pick or a spawn still in flight is answered as a stray, since no
 * successor is awaited any more); a gone agent's lease comes back, since a lease outlives no holder.
 * An agent that still runs keeps its pane and its lease, as a done lane's does, until it leaves. A
 * successor that already accepted is the lane's agent: its handover finishes as it would.
 */
export function onWorkOver(lane: LaneState, ctx: MachineContext): Step {
  if (lane.state === 'done' || lane.state === 'stopped' || lane.state === 'waiting' || lane.phase === 'accepted') return { lane, effects: [] };
  const h = lane.handoff;
  const gone = lane.state === 'lost' || h?.exit !== undefined || lane.paneId === null;
  if (h === null && !gone) return { lane, effects: [] };
  const next: LaneState = gone
    ? { ...lane, state: 'done', phase: null, phaseSince: null, blocked: null, handoff: null, paneId: null, waitingForAccount: null }
    : { ...lane, phase: null, phaseSince: null, blocked: null, handoff: null, waitingForAccount: null };
  const effects: Effect[] = (['accept', 'packet', 'stall', 'reset'] as const).map((timer) => clearTimer(next, timer, ctx.now));
  const s = h?.successor ?? null;
  if (h !== null) {
    const successor = s === null ? {} : { account: s.account, paneId: s.paneId, for_generation: s.generation };
    effects.push(journal(next, 'handoff_dropped', 'observation', { packet: h.packet, ...successor, why: 'the plan is done' }, ctx.now));
  }
  if (s !== null) {
    if (s.paneId !== null) effects.push({ type: 'kill_pane', id: effectId(lane, s.generation, 'kill-over', s.account), paneId: s.paneId });
    if (s.account !== lane.account) {
      effects.push(
        { type: 'release_lease', id: effectId(lane, s.generation, 'release-over', s.account), account: s.account },
        journal(next, 'lease_released', 'observation', { account: s.account, for_generation: s.generation, why: 'the plan is done: its successor is not needed' }, ctx.now),
      );
    }
  }
  if (gone && lane.account !== null) {
    effects.push(
      { type: 'release_lease', id: effectId(lane, lane.generation, 'release-over', lane.account), account: lane.account },
      journal(next, 'lease_released', 'observation', { account: lane.account, why: 'the plan is done and its agent is gone' }, ctx.now),
    );
  }
  return { lane: next, effects };
}
