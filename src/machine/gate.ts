/**
 * A lane's `done_when` gate in the lane machine: `done` starts it, its result finishes the lane or
 * sends it back to work, and a restart runs a gate that was in flight again. `gatePending` is the
 * intent record: set (and saved) before the gate runs, cleared only by its result. Gates are
 * rerunnable, so a gate killed with swarm is simply run again. Pure.
 */
import { degrade } from './degrade.js';
import { clearTimer, effectId, journal } from './effects.js';
import { isLive } from './laneState.js';
import { notices, tail } from './notices.js';
import { type Ev, ignored } from './step.js';
import type { LaneState, MachineContext, Step } from './types.js';

/** Run the gate (again, after a restart): journal that it started, then run it. */
export function startGate(lane: LaneState, ctx: MachineContext, rerun = false): Step {
  if (ctx.doneWhen === null) return finishDone(lane, ctx);
  const command = ctx.doneWhen;
  const next: LaneState = { ...lane, gatePending: true };
  return {
    lane: next,
    effects: [
      journal(next, 'gate_started', 'observation', rerun ? { command, rerun } : { command }, ctx.now),
      { type: 'run_gate', id: effectId(next, next.generation, 'gate', ctx.now), command },
    ],
  };
}

export function finishDone(lane: LaneState, ctx: MachineContext): Step {
  const next: LaneState = { ...lane, state: 'done', gatePending: false, blocked: null };
  const gate = ctx.doneWhen === null ? '' : ` (gate passed: ${ctx.doneWhen})`;
  return {
    lane: next,
    effects: [
      clearTimer(next, 'stall', ctx.now),
      journal(next, 'lane_result', 'delegation', { result: 'done', gate: ctx.doneWhen, passed: true }, ctx.now),
      { type: 'tell_lead', id: effectId(next, next.generation, 'done', ctx.now), text: `${lane.name} done${gate}` },
    ],
  };
}

export function onGate(lane: LaneState, event: Ev<'gate'>, ctx: MachineContext): Step {
  if (!lane.gatePending || !isLive(lane)) return ignored(lane, event, 'no gate is running', ctx.now);
  if (event.passed) return finishDone(lane, ctx);
  const command = ctx.doneWhen ?? 'done_when';
  const next: LaneState = { ...lane, gatePending: false };
  const result = journal(next, 'lane_result', 'delegation', { result: 'gate_failed', gate: command, passed: false, output: tail(event.output, 500) }, ctx.now);
  if (lane.state === 'lost') {
    const degraded = degrade(next, 'lane_lost', ctx);
    return { lane: degraded.lane, effects: [result, ...degraded.effects] };
  }
  const notify = { type: 'notify' as const, id: effectId(next, next.generation, 'gate-failed', ctx.now), text: notices.gateFailed(command, event.output) };
  return { lane: next, effects: [result, notify] };
}
