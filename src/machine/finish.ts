/**
 * A lane's work is done (its gate passed, and its review approved where it has one): the lane is
 * done, the lead told; if its agent left meanwhile, that agent's lease goes too. Pure.
 */
import { clearTimer, effectId, journal } from './effects.js';
import { doneAgentLeft } from './doneExit.js';
import { andThen } from './step.js';
import type { LaneState, MachineContext, Step } from './types.js';

export function finishDone(lane: LaneState, ctx: MachineContext): Step {
  const next: LaneState = { ...lane, state: 'done', gate: null, blocked: null, endedAt: ctx.now };
  const command = lane.gate?.command ?? ctx.doneWhen;
  const gate = command === null ? '' : ` (gate passed: ${command})`;
  return {
    lane: next,
    effects: [
      clearTimer(next, 'stall', ctx.now),
      journal(next, 'lane_result', 'delegation', { result: 'done', gate: command, passed: true }, ctx.now),
      { type: 'tell_lead', id: effectId(next, next.generation, 'done', ctx.now), text: `${lane.name} done${gate}` },
    ],
  };
}

/** The lane is done: if its agent left meanwhile (the lane was lost), that agent's lease goes too. */
export function agentLeft(before: LaneState, done: Step, ctx: MachineContext): Step {
  if (before.state !== 'lost' || before.paneId === null) return done;
  return andThen(done, (l) => doneAgentLeft(l, { type: 'exited', paneId: before.paneId!, status: null }, ctx));
}
