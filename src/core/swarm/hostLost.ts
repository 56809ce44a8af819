/**
 * The tmux server died under the run (SPEC 9): decided once. The first loss is recorded (the state
 * file then tells `swarm status` the truth with no engine running), journaled with what to do, and
 * stops the run short; a loss heard again changes nothing. Pure.
 */

export const HOST_LOST_WHAT =
  'every agent ran in that server and is gone; `swarm up` again resumes the plan: each lane resumes its own session where it can, else gets a degraded packet and a successor';

export interface HostLost {
  at: string;
  reason: string;
}

export type HostLostEffect =
  | { type: 'save' }
  | { type: 'journal'; kind: 'observation'; event: 'host_lost'; data: { reason: string; what: string } }
  | { type: 'finish'; code: 1; why: string };

export interface HostLostStep {
  hostLost: HostLost | undefined;
  effects: HostLostEffect[];
}

/** `current`: the loss already recorded in this run, if any; `now`: the clock's ISO time. */
export function reduceHostLost(current: HostLost | undefined, event: { reason: string }, ctx: { now: string }): HostLostStep {
  if (current !== undefined) return { hostLost: current, effects: [] };
  const reason = event.reason.trim() === '' ? 'no reason given' : event.reason.trim();
  return {
    hostLost: { at: ctx.now, reason },
    effects: [
      { type: 'save' },
      { type: 'journal', kind: 'observation', event: 'host_lost', data: { reason, what: HOST_LOST_WHAT } },
      { type: 'finish', code: 1, why: `the tmux server is gone (${reason}): ${HOST_LOST_WHAT}` },
    ],
  };
}
