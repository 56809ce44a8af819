/**
 * How a plan ends (SPEC 7), decided for the whole swarm: once every lane is done the lead is told
 * once and the release deadline starts; the lead's release, or that deadline, ends the plan
 * (`plan_done`, exit 0); under --until-done a plan no lane can move stops short (exit 1). The
 * deadline is state (`releaseAt`), so a restart re-arms it; a lane added stops it; a new lead taking
 * office after every lane is done is told again, with a fresh deadline. Pure.
 */
import type { Progress } from './progress.js';

export interface PlanEnd {
  /** The lead was told every lane is done (once; a lane added starts it again). */
  allDoneTold: boolean;
  /** When swarm releases the plan itself if the lead has not (epoch ms); null: no deadline running. */
  releaseAt: number | null;
  planDone: boolean;
}

export type PlanEndEvent =
  /** A step settled: the lanes' progress, and whether the lead record is released. */
  | { type: 'settled'; progress: Progress; released: boolean; untilDone: boolean }
  /** The lead released the plan (`swarm lead release`). */
  | { type: 'lead_released'; progress: Progress }
  | { type: 'release_due'; progress: Progress }
  | { type: 'lane_added' }
  /** A new lead took office (a successor accepted): one told before, in the middle of a handover, may never have heard. */
  | { type: 'lead_changed' }
  /** The lead record is released (by the lead, or by swarm): the plan is done. */
  | { type: 'record_released' }
  /** After a restart: re-arm what the saved state says is running. */
  | { type: 'resume'; progress: Progress; released: boolean };

export type PlanEndEffect =
  | { type: 'tell_lead'; text: string }
  | { type: 'journal'; kind: 'observation' | 'delegation'; event: 'all_lanes_done' | 'stopped_short' | 'plan_done'; data: Record<string, unknown> }
  | { type: 'arm_release'; at: number }
  | { type: 'disarm_release' }
  /** Release the lead record if it is still held (journal lead_released), then feed `record_released`. */
  | { type: 'release_plan'; why: string }
  /** The run is over: `notify_command` hears of plan_done (code 0), then the run settles. */
  | { type: 'finish'; code: 0 | 1; why: string };

export interface PlanEndContext {
  now: number;
  /** timeouts.release (ms). */
  releaseMs: number;
}

export interface PlanEndStep {
  state: PlanEnd;
  effects: PlanEndEffect[];
}

export const ALL_DONE_TEXT = 'Every lane is done. Release the plan: `swarm lead release`.';

const none = (state: PlanEnd): PlanEndStep => ({ state, effects: [] });

export function reducePlanEnd(state: PlanEnd, event: PlanEndEvent, ctx: PlanEndContext): PlanEndStep {
  if (state.planDone) return none(state);
  switch (event.type) {
    case 'settled':
      return settled(state, event, ctx);
    case 'lead_released':
      return event.progress.kind === 'all_done' ? release(state, 'the lead released the plan') : none(state);
    case 'release_due':
      if (state.allDoneTold && event.progress.kind === 'all_done') return release(state, 'timeouts.release passed');
      return { state: { ...state, releaseAt: null }, effects: [] };
    case 'lane_added':
      return { state: { ...state, allDoneTold: false, releaseAt: null }, effects: [{ type: 'disarm_release' }] };
    case 'lead_changed': {
      // Every lane was done while the lead was being handed over: the new lead is told, with its own deadline.
      if (!state.allDoneTold) return none(state);
      const at = ctx.now + ctx.releaseMs;
      return { state: { ...state, releaseAt: at }, effects: [{ type: 'tell_lead', text: ALL_DONE_TEXT }, { type: 'arm_release', at }] };
    }
    case 'record_released':
      return {
        state: { ...state, planDone: true, releaseAt: null },
        effects: [
          { type: 'disarm_release' },
          { type: 'journal', kind: 'delegation', event: 'plan_done', data: {} },
          { type: 'finish', code: 0, why: 'plan done' },
        ],
      };
    case 'resume':
      return resume(state, event, ctx);
  }
}

function settled(state: PlanEnd, event: Extract<PlanEndEvent, { type: 'settled' }>, ctx: PlanEndContext): PlanEndStep {
  const p = event.progress;
  if (p.kind === 'stuck' && event.untilDone) {
    return {
      state,
      effects: [
        { type: 'journal', kind: 'observation', event: 'stopped_short', data: { why: p.why } },
        { type: 'finish', code: 1, why: p.why },
      ],
    };
  }
  if (p.kind !== 'all_done' || state.allDoneTold) return none(state);
  const at = ctx.now + ctx.releaseMs;
  const told: PlanEndStep = {
    state: { ...state, allDoneTold: true, releaseAt: at },
    effects: [
      { type: 'tell_lead', text: ALL_DONE_TEXT },
      { type: 'journal', kind: 'observation', event: 'all_lanes_done', data: {} },
      { type: 'arm_release', at },
    ],
  };
  if (!event.released) return told;
  const released = release(told.state, 'the lead released the plan');
  return { state: released.state, effects: [...told.effects, ...released.effects] };
}

function release(state: PlanEnd, why: string): PlanEndStep {
  return { state, effects: [{ type: 'release_plan', why }] };
}

function resume(state: PlanEnd, event: Extract<PlanEndEvent, { type: 'resume' }>, ctx: PlanEndContext): PlanEndStep {
  if (!state.allDoneTold || event.progress.kind !== 'all_done') return none(state);
  if (event.released) return release(state, 'the lead released the plan');
  // A state saved before the deadline was state has none: it starts now.
  const at = state.releaseAt ?? ctx.now + ctx.releaseMs;
  return { state: { ...state, releaseAt: at }, effects: [{ type: 'arm_release', at }] };
}
