/**
 * A lane promoted to lead in place (SPEC 10.5; docs/lead-promotion.md): two ordinary transitions glued
 * at one point. Lane X hands off its lane work (a packet, a successor lane, every rule of a handoff);
 * at its successor's acceptance X's spent pane and account are not closed and released but handed to
 * the lead lane, whose next generation is X's agent, in X's pane. The swarm's reducer decides who is
 * promoted and carries the hand-over between the two machines (core/swarm/promotion.ts). Pure.
 */
import { spokenDuration } from '../core/config/duration.js';
import { clearTimer, effectId, journal, setTimer } from './effects.js';
import { keepsSpentPane, retireLater } from './retire.js';
import { handoffInFlight, isLive } from './laneState.js';
import { andThen, ignored, type Ev } from './step.js';
import { freshHandoff, startPick } from './successor.js';
import type { Effect, LaneState, MachineContext, Step } from './types.js';

/** What lane X's agent is told when it is chosen to lead (its mailbox). */
export function promotedNotice(as: string, epoch: number, ms: number): string {
  return `swarm: the lead is gone and you are promoted to lead the swarm in place, from this pane, as ${as} at epoch ${epoch}. ` +
    'First hand off your lane work like any handoff: write your packet with ' +
    '`swarm packet write --reason lead_handover --doing TEXT --next STEP` and report `handoff <packet path>` ' +
    `within ${spokenDuration(ms)}. Once your lane's successor has accepted it, swarm tells you here that you lead: ` +
    'stop working on the lane then, and lead.';
}

/** What the promoted agent is told once it leads (the lead's mailbox). */
export function leadingNotice(as: string, epoch: number, lane: string): string {
  return `swarm: you lead now, as ${as} at epoch ${epoch}; ${lane}'s work goes on in its successor's pane, not yours. ` +
    `Lead commands carry the epoch (\`--epoch ${epoch}\`); run \`swarm status\` and re-check every lane and every open ask, ` +
    'then orchestrate the plan to done and release it (`swarm lead release`).';
}

/** Whether lane X's agent may be promoted now: working, its own pane, no handoff, gate or done in flight. */
export function promotable(lane: LaneState): boolean {
  return lane.role === 'lane' && lane.state === 'working' && lane.paneId !== null && lane.gate === null &&
    !handoffInFlight(lane) && lane.phase !== 'writing' && lane.phase !== 'near' && (lane.retiring ?? null) === null;
}

/** Lane X: lead.json names it; it hands off its lane work now (the packet deadline is state). */
export function onPromote(lane: LaneState, event: Ev<'promote'>, ctx: MachineContext): Step {
  if (lane.handoff?.promoted !== undefined && lane.handoff.from.generation === lane.generation) {
    return ignored(lane, event, 'already promoted: its lane work is being handed off', ctx.now);
  }
  if (!promotable(lane)) {
    const why = `${lane.name} g${lane.generation} can no longer be promoted (state ${lane.state}, phase ${lane.phase ?? 'none'})`;
    return { lane, effects: [{ type: 'promotion_declined', id: effectId(lane, lane.generation, 'declined'), why }] };
  }
  const handoff = { ...freshHandoff(lane, 'lead_handover', false), promoted: { as: event.as, epoch: event.epoch } };
  const next: LaneState = { ...lane, phase: 'writing', phaseSince: ctx.now, handoff };
  return {
    lane: next,
    effects: [
      journal(next, 'lane_promoted', 'observation', { as: event.as, epoch: event.epoch }, ctx.now),
      { type: 'notify', id: effectId(next, next.generation, 'promoted'), text: promotedNotice(event.as, event.epoch, ctx.timeouts.packet) },
      setTimer(next, 'packet', ctx.now + ctx.timeouts.packet),
    ],
  };
}

/** How long the lead lane waits for a promotion: X writes its packet, then its successor accepts. */
export const promotionWaitMs = (ctx: MachineContext): number => ctx.timeouts.packet + 2 * ctx.timeouts.accept;

/** The lead lane: lane X's agent is its successor; no account is picked, no pane spawned. */
export function onPromoting(lead: LaneState, event: Ev<'promoting'>, ctx: MachineContext): Step {
  const h = lead.handoff;
  if (lead.phase !== 'spawning' || h === null || h.successor !== null || (h.promotion ?? null) !== null) {
    return ignored(lead, event, `no successor is being picked (phase ${lead.phase ?? 'none'})`, ctx.now);
  }
  const promotion = { lane: event.lane, generation: event.generation, as: event.as, deadline: ctx.now + promotionWaitMs(ctx) };
  const next: LaneState = { ...lead, handoff: { ...h, promotion } };
  return {
    lane: next,
    effects: [
      journal(next, 'lead_promotion', 'observation', { promoted: event.lane, promoted_generation: event.generation, as: event.as, until: new Date(promotion.deadline).toISOString() }, ctx.now),
      setTimer(next, 'accept', promotion.deadline),
    ],
  };
}

/** The lead lane: the promotion of `lane` will not happen: pick a successor as for any (that lane not again). */
export function onPromotionFailed(lead: LaneState, event: Ev<'promotion_failed'>, ctx: MachineContext): Step {
  const h = lead.handoff;
  const p = h?.promotion ?? null;
  if (h === null || p === null || p.lane !== event.lane || lead.phase !== 'spawning') {
    return ignored(lead, event, `no promotion of ${event.lane} is awaited`, ctx.now);
  }
  const handoff = { ...h, promotion: null, promotionsTried: [...(h.promotionsTried ?? []), p.lane] };
  const next: LaneState = { ...lead, handoff };
  const failed: Step = {
    lane: next,
    effects: [clearTimer(lead, 'accept', ctx.now), journal(next, 'lead_promotion_failed', 'observation', { promoted: p.lane, why: event.why }, ctx.now)],
  };
  return andThen(failed, (l) => startPick(l, handoff, ctx));
}

/** The lead lane's promotion deadline passed: the promotion failed (lane X's handoff goes on as its own). */
export function promotionTimedOut(lead: LaneState, ctx: MachineContext): Step | null {
  const p = lead.handoff?.promotion ?? null;
  if (p === null || lead.phase !== 'spawning') return null;
  if (ctx.now < p.deadline) return { lane: lead, effects: [setTimer(lead, 'accept', p.deadline)] };
  return onPromotionFailed(lead, { type: 'promotion_failed', lane: p.lane, why: `${p.lane} did not hand off its lane work within ${spokenDuration(promotionWaitMs(ctx))}` }, ctx);
}

/**
 * The lead lane adopts the promoted agent's pane: its next generation runs there, on that account; the
 * lost lead's account is released and its pane closed, as at any acceptance. A pane nobody awaits any
 * more (the promotion timed out meanwhile) is closed and its account released.
 */
export function onAdopt(lead: LaneState, event: Ev<'adopt'>, ctx: MachineContext): Step {
  const h = lead.handoff;
  const p = h?.promotion ?? null;
  if (h === null || p === null || p.lane !== event.lane || p.generation !== event.generation || lead.phase !== 'spawning' || !isLive(lead)) {
    const base = ignored(lead, event, `no promotion of ${event.lane} g${event.generation} is awaited: its pane is closed`, ctx.now);
    const effects: Effect[] = [...base.effects, { type: 'close_pane', id: effectId(lead, lead.generation, 'close-promoted', event.lane, event.generation), paneId: event.paneId }];
    if (event.account !== null) effects.push({ type: 'release_lease', id: effectId(lead, lead.generation, 'release-promoted', event.lane, event.generation, event.account), account: event.account });
    return { lane: lead, effects };
  }
  const generation = h.from.generation + 1;
  const record = journal(lead, 'lead_accepted', 'observation', { generation, packet: h.packet, takeover: h.degraded, promoted: event.lane, promoted_generation: event.generation }, ctx.now);
  const next: LaneState = {
    ...lead, generation, account: event.account, paneId: event.paneId, state: 'working', phase: 'accepted', phaseSince: ctx.now,
    blocked: null, capacity: null, capacityState: 'unknown', remainingPct: null, contextPct: null, startedAt: ctx.now, lastActivity: ctx.now,
    stallNudged: false, gate: null, travelling: [], handoff: { ...h, promotion: null },
    promotedFrom: { lane: event.lane, generation: event.generation, epoch: event.epoch },
  };
  const { from } = h;
  const effects: Step['effects'] = [
    clearTimer(lead, 'accept', ctx.now),
    { type: 'adopt_pane', id: effectId(next, generation, 'adopt', event.lane, event.generation), paneId: event.paneId, account: event.account, agent: p.as, generation, from: { lane: event.lane, generation: event.generation } },
    record,
    { type: 'notify', id: effectId(next, generation, 'leading'), text: leadingNotice(p.as, event.epoch, event.lane) },
    setTimer(next, 'stall', ctx.now + ctx.timeouts.stall),
  ];
  // The lead that was: a live one (a handover to the lane) keeps its pane for timeouts.release as at any
  // acceptance (retire.ts); a lost one's pane is closed and its account released now.
  const releases = from.account !== null && from.account !== event.account;
  const spentGone = lead.state === 'lost' || h.exit !== undefined || h.spentExited === true;
  if (!spentGone && from.paneId !== null && keepsSpentPane(lead, from.paneId, ctx)) {
    const retired = retireLater(next, { generation: from.generation, paneId: from.paneId, account: from.account, releases }, ctx);
    return { lane: retired.lane, effects: [...effects, ...retired.effects] };
  }
  if (releases) effects.push({ type: 'release_lease', id: effectId(lead, from.generation, 'release', from.account!), account: from.account! });
  if (from.paneId !== null && from.paneId !== event.paneId) effects.push({ type: 'close_pane', id: effectId(lead, from.generation, 'close'), paneId: from.paneId });
  if (releases) effects.push(journal(next, 'lease_released', 'observation', { account: from.account, spent_generation: from.generation }, ctx.now));
  return { lane: next, effects };
}
