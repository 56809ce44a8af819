/**
 * A lane's `done_when` gate in the lane machine: `done` starts it, its result finishes the lane or
 * sends it back to work, and a restart runs a gate that was in flight again. `gate` is the intent
 * record, like a spawn's: set (and saved) before the gate runs, with the run's id and, once it
 * started, its process; cleared only by the result of that very run (a result of another run is
 * stale: ignored, journaled). Gates are rerunnable, so a gate cut off by a crash is run again, after
 * its process (if still the one swarm started) is ended. Pure.
 */
import { gateCommand } from '../core/gate/travel.js';
import { vacuousPass } from '../core/gate/vacuous.js';
import { degrade } from './degrade.js';
import { effectId, journal } from './effects.js';
import { isLive } from './laneState.js';
import { notices, tail } from './notices.js';
import { type Ev, ignored } from './step.js';
import { doneOrReview } from './review.js';
import { agentLeft } from './finish.js';
import type { Effect, GateRun, LaneState, MachineContext, Step } from './types.js';

/** Run the gate (again, after a restart: ending the earlier run's process first): journal that it started, then run it. */
export function startGate(lane: LaneState, ctx: MachineContext, rerun = false): Step {
  const command = gateCommand(ctx.doneWhen, lane.travelling);
  if (command === null) return doneOrReview(lane, ctx);
  const earlier = lane.gate;
  const gate: GateRun = { id: effectId(lane, lane.generation, 'gate', ctx.now), command, since: ctx.now };
  const next: LaneState = { ...lane, gate };
  const ends = earlier === null ? null : { id: earlier.id, ...(earlier.process ? { process: earlier.process } : {}) };
  const data = rerun ? { command, id: gate.id, rerun, ...(ends ? { ends: ends.process?.pid ?? ends.id } : {}) } : { command, id: gate.id };
  const run: Effect = { type: 'run_gate', id: gate.id, command, ...(ends ? { ends } : {}) };
  return { lane: next, effects: [journal(next, 'gate_started', 'observation', data, ctx.now), run] };
}



/** Why an event about gate run `id` is not about the run in flight (null: it is). */
function notThisRun(lane: LaneState, id: string): string | null {
  if (lane.gate === null || !isLive(lane)) return 'no gate is running';
  if (lane.gate.id !== id) return `a stale gate run (${id}; the run in flight is ${lane.gate.id})`;
  return null;
}

/** The run's process started: record it, so a restart ends this very process before running the gate again. */
export function onGateProcess(lane: LaneState, event: Ev<'gate_process'>, ctx: MachineContext): Step {
  const why = notThisRun(lane, event.id);
  if (why !== null || lane.gate === null) return ignored(lane, event, why ?? 'no gate is running', ctx.now);
  return { lane: { ...lane, gate: { ...lane.gate, process: { pid: event.pid, startTicks: event.startTicks } } }, effects: [] };
}

export function onGate(lane: LaneState, event: Ev<'gate'>, ctx: MachineContext): Step {
  const why = notThisRun(lane, event.id);
  if (why !== null) return ignored(lane, event, why, ctx.now);
  // A pass that ran nothing (no test files, a tool not installed) is a failure (SPEC 10.6).
  const vacuous = event.passed ? vacuousPass(event.output) : null;
  if (vacuous !== null) return onGate(lane, { ...event, passed: false, output: `${vacuous}\n${event.output}` }, ctx);
  if (event.passed) {
    // Its agent left while the gate ran: the lane is done, and that agent's lease goes too.
    const done = doneOrReview(lane, ctx);
    return done.lane.state === 'done' ? agentLeft(lane, done, ctx) : done;
  }
  const command = lane.gate?.command ?? ctx.doneWhen ?? 'done_when';
  const next: LaneState = { ...lane, gate: null };
  const result = journal(next, 'lane_result', 'delegation', { result: 'gate_failed', gate: command, passed: false, output: tail(event.output, 500) }, ctx.now);
  if (lane.state === 'lost') {
    const degraded = degrade(next, 'lane_lost', ctx);
    return { lane: degraded.lane, effects: [result, ...degraded.effects] };
  }
  const notify = { type: 'notify' as const, id: effectId(next, next.generation, 'gate-failed', ctx.now), text: notices.gateFailed(command, event.output) };
  return { lane: next, effects: [result, notify] };
}
