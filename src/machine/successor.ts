/**
 * A handoff's successor attempts, shared by several transitions: a fresh handoff, picking an account
 * (again), failing a successor, waiting for a reset, and giving up to a human (attention). Pure.
 */
import type { PacketReason } from '../core/packet/packet.js';
import { clearTimer, effectId, escalation, journal, pickEffect, setTimer } from './effects.js';
import { type Effect, type Handoff, type LaneState, type MachineContext, type Step, WAIT_RETRY_MS } from './types.js';

export function freshHandoff(lane: LaneState, reason: PacketReason, degraded: boolean): Handoff {
  // A promotion in place stays this generation's handoff's, whatever the agent does next (a rejected
  // packet, a degraded one after it died); a later generation's handoff is its own.
  const promoted = lane.handoff?.promoted !== undefined && lane.handoff.from.generation === lane.generation ? { promoted: lane.handoff.promoted } : {};
  return {
    packet: null, reason, degraded, from: { generation: lane.generation, account: lane.account, paneId: lane.paneId },
    successor: null, tried: [], rejected: [], picks: 0, retryAt: null, accountLimited: false, ...promoted,
  };
}

/** Phase `spawning`: ask for an account (again). */
export function startPick(lane: LaneState, h: Handoff, ctx: MachineContext): Step {
  const handoff: Handoff = { ...h, picks: h.picks + 1, successor: null, retryAt: null };
  const phaseSince = lane.phase === 'spawning' ? lane.phaseSince : ctx.now;
  const next: LaneState = { ...lane, phase: 'spawning', phaseSince, handoff };
  return { lane: next, effects: [pickEffect(next, handoff)] };
}

/** The successor failed (no acceptance in time, spawn failed, pane died): remove it, free its lease, try the next account. */
export function failSuccessor(lane: LaneState, why: string, paneId: string | null, ctx: MachineContext, repick = true, lines: string | null = null): Step {
  const h = lane.handoff;
  const s = h?.successor ?? null;
  if (h === null || s === null) return { lane, effects: [] };
  const effects: Effect[] = [clearTimer(lane, 'accept', ctx.now)];
  if (paneId !== null) effects.push({ type: 'kill_pane', id: effectId(lane, s.generation, 'kill', s.account), paneId });
  effects.push(
    { type: 'release_lease', id: effectId(lane, s.generation, 'release', s.account), account: s.account },
    journal(lane, 'lease_released', 'observation', { account: s.account, why, for_generation: s.generation }, ctx.now),
  );
  const failures = [...(h.failures ?? []), { account: s.account, why, lines }];
  const handoff: Handoff = { ...h, tried: [...h.tried, s.account], successor: null, failures };
  const next: LaneState = { ...lane, handoff };
  if (!repick) return { lane: next, effects };
  const picked = startPick(next, handoff, ctx);
  return { lane: picked.lane, effects: [...effects, ...picked.effects] };
}

/** No account has headroom: wait for the earliest reset, else retry after waitRetryMs. */
export function waiting(lane: LaneState, h: Handoff, resetsAt: string | null, why: string, ctx: MachineContext): Step {
  const reset = resetsAt === null ? Number.NaN : Date.parse(resetsAt);
  const retryAt = Number.isFinite(reset) && reset > ctx.now ? reset : ctx.now + (ctx.waitRetryMs ?? WAIT_RETRY_MS);
  const next: LaneState = { ...lane, phase: 'waiting', phaseSince: ctx.now, handoff: { ...h, retryAt }, waitingForAccount: null };
  const data = { resetsAt, why, retryAt: new Date(retryAt).toISOString() };
  return { lane: next, effects: [journal(next, 'waiting_for_reset', 'observation', data, ctx.now), setTimer(next, 'reset', retryAt)] };
}

/** Successors failed on every account tried: one escalation, the lane held (blocked dependency) until a human acts. */
export function attention(lane: LaneState, what: string, ctx: MachineContext): Step {
  const next: LaneState = { ...lane, phase: 'attention', phaseSince: ctx.now, state: 'blocked', blocked: { class: 'dependency', what, source: 'engine' } };
  return { lane: next, effects: [clearTimer(next, 'accept', ctx.now), ...escalation(next, 'dependency', what, 'engine', ctx.now)] };
}
