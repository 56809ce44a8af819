/**
 * The handoff transitions of the lane machine (docs/engine.md): a `handoff` report, the packet
 * checked, an account leased, the successor spawned (or not) and accepted, a degraded packet written,
 * and the packet, accept and reset deadlines. `reduceLane` dispatches to them; pure.
 */
import { keepsSpentPane, onRetireTimer, retireLater } from './retire.js';
import { spokenDuration } from '../core/config/duration.js';
import { degrade, stop } from './degrade.js';
import { clearTimer, effectId, journal, setTimer, spawnEffect } from './effects.js';
import { isLive, rejectedDue } from './laneState.js';
import { quoteExit } from './lastWords.js';
import { notices, tail } from './notices.js';
import { andThen, type Ev, ignored } from './step.js';
import { attention, failSuccessor, freshHandoff, startPick, waiting } from './successor.js';
import type { Handoff, LaneState, MachineContext, Step, TimerName } from './types.js';
import { firstStartAgain, successorWaitsForAccount } from './accountWait.js';
import { promotionTimedOut } from './promotion.js';

/** Why a `handoff <path>` report changes nothing, or null when it starts (or restarts) the handoff. */
export function handoffRefusal(lane: LaneState, path: string): string | null {
  const inHand = lane.handoff?.packet ?? null;
  if (lane.phase === 'spawning' || lane.phase === 'waiting' || lane.phase === 'attention' || lane.phase === 'reported') {
    if (inHand === path) return `duplicate handoff for the packet in hand (${path})`;
    if (lane.phase !== 'reported') return `a handoff is already in flight (phase ${lane.phase}, packet ${inHand ?? 'none'})`;
  }
  return null;
}

/** A `handoff <path>` report: check the packet (or, at max_generations, stop the lane). */
export function onHandoff(lane: LaneState, path: string, ctx: MachineContext): Step {
  const reason = lane.phase === 'writing' && lane.handoff !== null ? lane.handoff.reason
    : lane.role === 'lead' ? 'lead_handover'
      : lane.capacityState === 'critical' ? 'capacity_critical' : lane.capacityState === 'low' ? 'capacity_low' : 'context_pressure';
  if (lane.generation >= ctx.maxGenerations) return stop(lane, path, reason, ctx);
  // A packet reported again after a rejection keeps the deadline of the first report.
  const again = lane.phase === 'rejected' || lane.phase === 'reported';
  const firstReportAt = (again ? lane.handoff?.firstReportAt : undefined) ?? ctx.now;
  const next: LaneState = { ...lane, phase: 'reported', phaseSince: ctx.now, handoff: { ...freshHandoff(lane, reason, false), packet: path, firstReportAt } };
  return {
    lane: next,
    effects: [
      clearTimer(next, 'packet', ctx.now),
      journal(next, 'handoff_reported', 'observation', { packet: path, reason }, ctx.now),
      { type: 'validate_packet', id: effectId(next, next.generation, 'validate', ctx.now), packet: path },
    ],
  };
}

/**
 * The reported packet was checked: pick an account, or tell the agent why it was rejected. A rejected
 * lane may report again until `timeouts.packet` has passed since its first report; then (at once, when
 * that time is past already) swarm writes the degraded packet.
 */
export function onPacketChecked(lane: LaneState, event: Ev<'packet_checked'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase !== 'reported' || h === null || h.packet !== event.packet) {
    return ignored(lane, event, `no check of ${event.packet} is awaited (phase ${lane.phase ?? 'none'})`, ctx.now);
  }
  if (event.reasons.length === 0) return startPick(lane, h, ctx);
  const next: LaneState = { ...lane, phase: 'rejected', phaseSince: ctx.now, handoff: { ...h, rejected: event.reasons } };
  const due = rejectedDue(next, ctx);
  const told: Step = {
    lane: next,
    effects: [
      journal(next, 'packet_rejected', 'observation', { packet: event.packet, reasons: event.reasons }, ctx.now),
      { type: 'notify', id: effectId(next, next.generation, 'rejected', ctx.now), text: notices.rejected(event.packet, event.reasons, due - ctx.now) },
    ],
  };
  return ctx.now < due ? { lane: next, effects: [...told.effects, setTimer(next, 'packet', due)] } : andThen(told, (l) => degradeRejected(l, ctx));
}

/** No valid packet in time after a rejection: the degraded packet, naming the rejected one. */
function degradeRejected(lane: LaneState, ctx: MachineContext): Step {
  const why = `no valid packet within ${spokenDuration(ctx.timeouts.packet)} of the first report`;
  return degrade(lane, lane.handoff?.reason ?? 'capacity_critical', ctx, { why });
}

/** An account for the successor (spawn it), or none (wait for a reset, or hold the lane). */
export function onLease(lane: LaneState, event: Ev<'lease'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase === 'spawning' && h !== null && h.successor === null && (h.promotion ?? null) === null) {
    if (event.account === null) {
      if (event.heldElsewhere === true) return successorWaitsForAccount(lane, h, event.why, ctx);
      if (h.tried.length === 0 && event.noneReady !== true) return waiting(lane, h, event.resetsAt, event.why, ctx);
      return attention(lane, noAccountLeft(h, event.why), ctx);
    }
    const successor = { generation: h.from.generation + 1, account: event.account, paneId: null, deadline: ctx.now + ctx.timeouts.accept, spawnedAt: null };
    const next: LaneState = { ...lane, handoff: { ...h, successor }, waitingForAccount: null };
    return {
      lane: next,
      effects: [
        journal(next, 'lease_acquired', 'observation', { account: event.account, why: event.why, for_generation: successor.generation }, ctx.now),
        spawnEffect(next, h, successor),
        setTimer(next, 'accept', successor.deadline),
      ],
    };
  }
  const stray = event.account !== null && event.account !== h?.successor?.account && event.account !== lane.account;
  const base = ignored(lane, event, `no account was awaited (phase ${lane.phase ?? 'none'})${stray ? ': released' : ''}`, ctx.now);
  if (!stray || event.account === null) return base;
  return { lane, effects: [...base.effects, { type: 'release_lease', id: effectId(lane, lane.generation, 'release-stray', event.account, ctx.now), account: event.account }] };
}

/**
 * No account is left for the successor: one text listing every account tried and why it failed,
 * the pick's refusals of the rest, and the last failed agent's own last lines.
 */
function noAccountLeft(h: Handoff, pickWhy: string): string {
  const packet = h.packet ?? 'the packet';
  const lines = [h.tried.length === 0
    ? `no account is ready for the successor of ${packet} (${pickWhy}): fix an account, then run swarm up again`
    : `no successor accepted ${packet} on ${h.tried.join(', ')}, and no other account is free (${pickWhy})`];
  if (h.exit !== undefined) lines.push(quoteExit(`the agent of g${h.from.generation}${h.from.account === null ? '' : ` on ${h.from.account}`}`, h.exit));
  const failures = h.failures ?? [];
  for (const f of failures) lines.push(`- ${f.account}: ${f.why}`);
  const last = [...failures].reverse().find((f) => f.lines !== null && f.lines.trim() !== '');
  if (last) lines.push(`last lines of ${last.account}'s pane:\n${tail(last.lines!, 1000)}`);
  return lines.join('\n');
}

/**
 * A successor shows a screen that stops it at its start (a profile not ready): end it and free its lease at
 * once, mark the account not ready, and pick the next account now, not after `timeouts.accept`.
 * Such a successor never counts toward the crash-loop rule.
 */
export function onSuccessorScreen(lane: LaneState, event: Ev<'successor_screen'>, ctx: MachineContext): Step {
  const s = lane.handoff?.successor ?? null;
  if (lane.phase !== 'spawning' || s === null || s.generation !== event.generation || s.account !== event.account || s.paneId !== event.paneId) {
    return ignored(lane, event, `no successor g${event.generation} on ${event.account} in pane ${event.paneId} is awaited`, ctx.now);
  }
  const text = event.text.trim();
  const why = `its successor showed a ${event.screen} screen${text === '' ? '' : `: "${tail(text, 300)}"`}`;
  const marked: Step = {
    lane,
    effects: [
      journal(lane, 'account_not_ready', 'observation', { account: s.account, screen: event.screen, text: tail(text, 300), for_generation: s.generation }, ctx.now),
      { type: 'mark_not_ready', id: effectId(lane, s.generation, 'not-ready', s.account), account: s.account, why },
    ],
  };
  return andThen(marked, (l) => failSuccessor(l, why, s.paneId, ctx, true, event.lines ?? text));
}

/** The successor's pane is up: adopt it, or kill a pane nobody waits for. */
export function onSpawned(lane: LaneState, event: Ev<'spawned'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  const s = h?.successor ?? null;
  const ours = h !== null && s !== null && s.generation === event.generation && s.account === event.account;
  if (ours && (s.paneId === event.paneId || lane.paneId === event.paneId)) return ignored(lane, event, 'duplicate spawn report', ctx.now);
  const adopt = ours && (lane.phase === 'spawning' || (lane.phase === 'accepted' && lane.generation === s.generation && lane.paneId === null));
  if (ours && adopt) {
    const successor = { ...s, paneId: event.paneId, spawnedAt: s.spawnedAt ?? ctx.now };
    const next: LaneState = { ...lane, handoff: { ...h, successor }, ...(lane.phase === 'accepted' ? { paneId: event.paneId } : {}) };
    const data = { account: event.account, paneId: event.paneId, for_generation: event.generation };
    return { lane: next, effects: [journal(next, 'successor_spawned', 'observation', data, ctx.now)] };
  }
  const kill = { type: 'kill_pane' as const, id: effectId(lane, event.generation, 'kill', event.account), paneId: event.paneId };
  // A pane of the awaited generation on another account (left by an attempt whose lease was released):
  // no agent may run on an account not leased to it, so it goes and the successor is spawned on its own.
  if (h !== null && s !== null && lane.phase === 'spawning' && s.paneId === null && s.generation === event.generation) {
    const why = `pane ${event.paneId} of g${event.generation} runs on ${event.account}, not on ${s.account} leased for it: killed, spawned again`;
    return { lane, effects: [...ignored(lane, event, why, ctx.now).effects, kill, spawnEffect(lane, h, s)] };
  }
  // A pane nobody waits for (its successor was given up before the pane was seen): remove it.
  return { lane, effects: [...ignored(lane, event, `pane ${event.paneId} is no awaited successor: killed`, ctx.now).effects, kill] };
}

/** The successor could not be spawned: try the next account. */
export function onSpawnFailed(lane: LaneState, event: Ev<'spawn_failed'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  const s = h?.successor ?? null;
  if (lane.phase !== 'spawning' || s === null || s.generation !== event.generation || s.account !== event.account || s.paneId !== null) {
    return ignored(lane, event, `no spawn of g${event.generation} on ${event.account} is awaited`, ctx.now);
  }
  return failSuccessor(lane, `spawn failed: ${event.error}`, null, ctx);
}

/** The successor accepted the packet: it becomes the lane; the spent pane and lease go. */
export function onAccepted(lane: LaneState, event: Ev<'accepted'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  const s = h?.successor ?? null;
  if (lane.phase === 'accepted' && h?.packet === event.packet && lane.generation === event.generation) {
    return ignored(lane, event, `duplicate acceptance of ${event.packet}`, ctx.now);
  }
  if (lane.phase !== 'spawning' || h === null || s === null || h.packet !== event.packet || s.generation !== event.generation) {
    return ignored(lane, event, `an acceptance of ${event.packet} by g${event.generation} is not the handoff in hand`, ctx.now);
  }
  const next: LaneState = {
    ...lane, generation: s.generation, account: s.account, paneId: s.paneId, state: 'working', phase: 'accepted',
    phaseSince: ctx.now, blocked: null, capacity: null, capacityState: 'unknown', remainingPct: null, contextPct: null,
    startedAt: s.spawnedAt ?? ctx.now, lastActivity: ctx.now, stallNudged: false, gate: null,
    // What this packet left unverified is this generation's to run at `done` (an earlier packet's is not).
    travelling: event.gates ?? [],
  };
  const { from } = h;
  const effects: Step['effects'] = [
    clearTimer(lane, 'accept', ctx.now),
    {
      type: 'record_acceptance', id: effectId(lane, s.generation, 'acceptance'), packet: event.packet,
      by: { lane: lane.name, account: s.account, generation: s.generation }, from: { lane: lane.name, account: from.account, generation: from.generation }, degraded: h.degraded,
    },
  ];
  // A spent lead's pane (and the account it holds) stays for timeouts.release (retire.ts), while its
  // agent lives: one whose exit is recorded (lost, or ended mid-handoff) has nothing left to say.
  const spentGone = lane.state === 'lost' || h.exit !== undefined || h.spentExited === true;
  // A lane's agent promoted to lead in place (promotion.ts): its pane and account go to the lead lane.
  const promoted = h.promoted !== undefined && !spentGone && from.paneId !== null ? h.promoted : null;
  if (h.promoted !== undefined && promoted === null) {
    effects.push({ type: 'promotion_declined', id: effectId(lane, from.generation, 'declined'), why: `${lane.name} g${from.generation}'s agent ended before its lane work was handed off` });
  }
  if (promoted !== null) {
    effects.push(
      { type: 'hand_over_pane', id: effectId(lane, from.generation, 'hand-over'), paneId: from.paneId!, account: from.account, generation: from.generation, epoch: promoted.epoch },
      journal(next, 'packet_accepted', 'observation', { packet: event.packet, account: s.account, from_generation: from.generation, promoted: promoted.as }, ctx.now),
      setTimer(next, 'stall', ctx.now + ctx.timeouts.stall),
    );
    return { lane: next, effects };
  }
  const keep = !spentGone && keepsSpentPane(lane, from.paneId, ctx);
  if (!keep && from.account !== null && from.account !== s.account) {
    effects.push({ type: 'release_lease', id: effectId(lane, from.generation, 'release', from.account), account: from.account });
  }
  if (!keep && from.paneId !== null) effects.push({ type: 'close_pane', id: effectId(lane, from.generation, 'close'), paneId: from.paneId });
  effects.push(journal(next, 'packet_accepted', 'observation', { packet: event.packet, account: s.account, from_generation: from.generation }, ctx.now));
  if (!keep && from.account !== null) effects.push(journal(next, 'lease_released', 'observation', { account: from.account }, ctx.now));
  if (!keep && from.paneId !== null) effects.push(journal(next, 'pane_closed', 'observation', { paneId: from.paneId }, ctx.now));
  if (lane.role === 'lead') {
    // The handover (`swarm lead handover`) or takeover (at its start) is journaled once already; this is
    // the successor lead taking office.
    effects.push(journal(next, 'lead_accepted', 'observation', { generation: s.generation, packet: event.packet, takeover: h.degraded }, ctx.now));
  }
  effects.push(setTimer(next, 'stall', ctx.now + ctx.timeouts.stall));
  if (!keep || from.paneId === null) return { lane: next, effects };
  const retired = retireLater(next, { generation: from.generation, paneId: from.paneId, account: from.account, releases: from.account !== null && from.account !== s.account }, ctx);
  return { lane: retired.lane, effects: [...effects, ...retired.effects] };
}

/** swarm wrote the degraded packet: pick an account for the successor. */
export function onDegradedWritten(lane: LaneState, event: Ev<'degraded_written'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase !== 'degraded' || h === null || h.packet !== null) {
    return ignored(lane, event, `no degraded packet is awaited (phase ${lane.phase ?? 'none'})`, ctx.now);
  }
  const next: LaneState = { ...lane, handoff: { ...h, packet: event.packet } };
  const reported = journal(next, 'handoff_reported', 'observation', { packet: event.packet, reason: h.reason, degraded: true }, ctx.now);
  return andThen({ lane: next, effects: [reported] }, (l) => startPick(l, { ...h, packet: event.packet }, ctx));
}

/** A handoff deadline (packet, accept, reset) came due: re-arm it if early, else act on it. */
/** An account came back to the pool (a lease released): a lane `waiting` for one picks again at once. */
export function onAccountFreed(lane: LaneState, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase !== 'waiting' || h === null) return { lane, effects: [] };
  return startPick(lane, h, ctx);
}

export function onHandoffTimer(lane: LaneState, timer: Exclude<TimerName, 'stall' | 'review' | 'resume'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  const { now } = ctx;
  switch (timer) {
    case 'packet': {
      if ((lane.phase !== 'writing' && lane.phase !== 'rejected') || !isLive(lane)) return { lane, effects: [] };
      const due = lane.phase === 'rejected' ? rejectedDue(lane, ctx) : (lane.phaseSince ?? now) + ctx.timeouts.packet;
      if (now < due) return { lane, effects: [setTimer(lane, 'packet', due)] };
      // An agent on a permission screen cannot write: wait for the developer, then give it the full time.
      if (lane.blocked?.source === 'screen') return { lane, effects: [setTimer(lane, 'packet', now + ctx.timeouts.packet)] };
      if (lane.phase === 'rejected') return degradeRejected(lane, ctx);
      return degrade(lane, h?.reason ?? 'capacity_critical', ctx, { why: `no packet within ${spokenDuration(ctx.timeouts.packet)}` });
    }
    case 'accept': {
      const promotion = promotionTimedOut(lane, ctx);
      if (promotion !== null) return promotion;
      const s = h?.successor ?? null;
      if (lane.phase !== 'spawning' || s === null) return { lane, effects: [] };
      if (now < s.deadline) return { lane, effects: [setTimer(lane, 'accept', s.deadline)] };
      return failSuccessor(lane, `no acceptance within ${spokenDuration(ctx.timeouts.accept)}`, s.paneId, ctx);
    }
    case 'retire':
      return onRetireTimer(lane, ctx);
    case 'reset': {
      if (h === null) return firstStartAgain(lane, ctx) ?? { lane, effects: [] };
      if (lane.phase !== 'waiting') return { lane, effects: [] };
      if (h.retryAt !== null && now < h.retryAt) return { lane, effects: [setTimer(lane, 'reset', h.retryAt)] };
      return startPick(lane, h, ctx);
    }
  }
}
