/**
 * The one reducer of the whole swarm: `(state, event, ctx) → { state, effects }`.
 * It composes the lane machine (machine/lane.ts) and the swarm's own reducers beside it (asks,
 * leadSuccession, planEnd, laneAdd, accounts and readings, sessions, hostLost, promotion, order),
 * applies every deadline to the state in the same step (core/swarm/deadlines.ts), and returns the
 * intents left to carry out: a lane's effects tagged with the lane, the swarm's own with lane null. A
 * sub-reducer's effect that is really another event (succession's `lead_lane`, asks' `take_over`, a
 * lane's `mark_limited`, a lease freed for every lane) is reduced in the same call, never bounced
 * through the runtime. After a step that moved a lane, the plan's end is looked at once: waiting lanes
 * whose lanes are done start, a lead successor that accepted takes office, and planEnd hears
 * `settled`. Pure: time and the lead record come in `ctx`.
 */
import type { SwarmConfig } from '../config/config.js';
import type { LeadRecord } from '../lead/epochs.js';
import { progress, type Progress } from './progress.js';
import { TORN_AFTER_MS } from '../protocol/inbox.js';
import { reduceLane } from '../../machine/lane.js';
import { DEFAULT_MAX_REVIEWS } from '../../machine/review.js';
import { forecast, nearBeforeNextBoundary } from '../capacity/forecast.js';
import { isLive, withLane } from '../../machine/laneState.js';
import type { LaneEvent, LaneState, MachineContext } from '../../machine/types.js';
import { reduceAccounts, type AccountEvent } from './accounts.js';
import { reduceAsks, type AskEvent } from './asks.js';
import { applyTimers, clearTimer } from './deadlines.js';
import type { SwarmEffect, SwarmEvent } from './events.js';
import { reduceHostLost } from './hostLost.js';
import { reduceLaneAdd } from './laneAdd.js';
import { reduceSuccession, type Succession, type SuccessionEvent } from './leadSuccession.js';
import { reducePlanEnd, type PlanEnd, type PlanEndEvent } from './planEnd.js';
import { startWaiting } from './order.js';
import { leadPromotion, promotionToClaimAgain } from './promotion.js';
import { attribute } from './readings.js';
import { reduceSession } from './sessions.js';
import { resumeChoice, toldSession, type ResumeChoice } from './sessionResume.js';
import { replacesLaunch } from '../launch/launch.js';
import type { PendingEffect, SwarmState } from './state.js';
import type { Ledger } from '../ledger/ledger.js';
import { endsTold, reduceTurn, reduceUsage, type LedgerStep } from '../ledger/reduce.js';
import { trackLanes } from '../ledger/track.js';

export interface SwarmContext {
  now: number;
  config: Pick<SwarmConfig, 'thresholds' | 'timeouts' | 'lanes' | 'lead' | 'maxLanes'> & Partial<Pick<SwarmConfig, 'maxReviews'>>;
  /** `--until-done`: a plan no lane can move stops short. */
  untilDone: boolean;
  /** `lead.json` as read for this step (null: none, or unreadable). */
  leadRecord: LeadRecord | null;
  /** The run has settled (its `finish` was carried out): the plan's end is decided no more. */
  finished: boolean;
  /** Account id → the other ids on the same profile folder (SPEC 10.4: one account); absent: none. */
  sameAccount?: Readonly<Record<string, readonly string[]>>;
  /** Account id → its vendor, for the ledger (SPEC 10.7); absent: none known. */
  vendors?: Readonly<Record<string, string>>;
  /** Account id → whether its kind can resume a session (panes/<kind>.yaml `launch.resume`, SPEC 10.8); absent: none can. */
  resumeKinds?: Readonly<Record<string, boolean>>;
}

export interface SwarmStep {
  state: SwarmState;
  effects: PendingEffect[];
}

/** The step being built: the state so far, the intents so far, and whether a lane's machine ran. */
interface Build {
  state: SwarmState;
  effects: PendingEffect[];
  laneMoved: boolean;
}

export function reduceSwarm(state: SwarmState, event: SwarmEvent, ctx: SwarmContext): SwarmStep {
  const b: Build = { state, effects: [], laneMoved: false };
  apply(b, event, ctx);
  if (b.laneMoved || event.type === 'settle') settle(state, b, ctx);
  return { state: b.state, effects: b.effects };
}

const swarm = (b: Build, effect: SwarmEffect): void => {
  b.effects.push({ lane: null, effect });
};

function apply(b: Build, event: SwarmEvent, ctx: SwarmContext): void {
  const s = b.state;
  switch (event.type) {
    case 'lane':
      return lane(b, event.lane, event.event, ctx);
    case 'lanes_created': {
      let { lanes, order } = s;
      for (const want of event.lanes.filter((l) => !s.lanes[l.name])) ({ lanes, order } = withLane(lanes, order, { ...want, now: ctx.now }));
      // A lane `after:` others (SPEC 10.6) waits, with no account and no pane, until they are done (`startWaiting`).
      for (const want of event.lanes.filter((l) => !s.lanes[l.name])) {
        const after = ctx.config.lanes.find((l) => l.name === want.name)?.after ?? [];
        const pending = after.filter((dep) => lanes[dep]?.state !== 'done');
        if (pending.length > 0) lanes = { ...lanes, [want.name]: { ...lanes[want.name]!, state: 'waiting', waitingFor: pending } };
      }
      if (lanes !== s.lanes) b.state = { ...s, lanes, order };
      return;
    }
    case 'timer': {
      if (!s.timers.some((t) => t.lane === event.lane && t.timer === event.timer && t.at === event.at)) return; // cleared or moved since
      b.state = { ...s, timers: clearTimer(s.timers, event.lane, event.timer) };
      return lane(b, event.lane, { type: 'timer', timer: event.timer }, ctx);
    }
    case 'ask':
      return asks(b, event.event, ctx);
    case 'lead_handover':
      succession(b, { type: 'handover', to: event.to, packet: event.packet, newEpoch: event.newEpoch }, ctx);
      return;
    case 'lead_takeover':
      succession(b, { type: 'takeover', from: event.from, newEpoch: event.newEpoch }, ctx);
      return;
    case 'lead_claimed':
      if (s.runEpoch === undefined) b.state = { ...s, runEpoch: event.epoch };
      succession(b, { type: 'claimed', epoch: event.epoch, lead: event.lead, account: event.account }, ctx);
      return;
    case 'lead_epoch_raised':
      succession(b, { type: 'epoch_raised', epoch: event.epoch }, ctx);
      return;
    case 'lead_successor_named':
      succession(b, { type: 'successor_named', name: event.name, epoch: event.epoch }, ctx);
      return;
    case 'lead_successor_starting':
      succession(b, { type: 'successor_starting' }, ctx);
      return;
    case 'plan':
      return planEvent(b, event.event, ctx);
    case 'lane_add':
      return laneAdd(b, event.record, ctx);
    case 'account':
      return account(b, event.event, ctx);
    case 'reading':
      return reading(b, event, ctx);
    case 'account_freed':
      for (const name of s.order) lane(b, name, { type: 'account_freed', account: event.account }, ctx);
      return;
    case 'session': {
      const current = s.lanes[event.lane];
      if (!current) return;
      const step = reduceSession(s.sessions, event, { currentGeneration: current.generation });
      if (step.sessions !== s.sessions && step.sessions) b.state = { ...s, sessions: step.sessions };
      // A resumed agent telling its session is ready (SPEC 10.8).
      if ((current.resuming ?? null) !== null && event.sessionId !== null && event.generation === current.generation) {
        lane(b, event.lane, { type: 'session_told', generation: event.generation, sessionId: event.sessionId }, ctx);
      }
      return;
    }
    case 'usage': {
      // How far each usage file was read, with what it held: a look lost to a crash reads them again, to the same fold.
      const usageRead = { ...s.usageRead };
      for (const read of event.reads) usageRead[read.spool] = read.offset;
      b.state = { ...s, usageRead };
      return ledgerStep(b, reduceUsage(b.state.ledger, event.seen, (a) => vendorOf(ctx, a)));
    }
    case 'turn':
      return ledgerStep(b, reduceTurn(s.ledger, event, (a) => vendorOf(ctx, a)));
    case 'host_lost': {
      const step = reduceHostLost(s.hostLost, { reason: event.reason }, { now: new Date(ctx.now).toISOString() });
      if (step.hostLost !== s.hostLost && step.hostLost) b.state = { ...s, hostLost: step.hostLost };
      for (const effect of step.effects) {
        if (effect.type === 'journal') swarm(b, { type: 'journal', kind: effect.kind, event: effect.event, lane: null, data: effect.data });
        else if (effect.type === 'finish') swarm(b, effect);
      }
      return;
    }
    case 'inbox_read':
      return inboxRead(b, event, ctx);
    case 'inbox_due':
      return swarm(b, { type: 'read_inbox' });
    case 'settle':
      return;
  }
}

const NO_LEDGER: Ledger = {};

const vendorOf = (ctx: SwarmContext, account: string | null): string | null => (account === null ? null : (ctx.vendors?.[account] ?? null));

/** The ledger's step (core/ledger/reduce.ts): its ledger, and its `generation_spent` lines journaled in order. */
function ledgerStep(b: Build, step: LedgerStep): void {
  if (step.ledger !== undefined && step.ledger !== b.state.ledger) b.state = { ...b.state, ledger: step.ledger };
  for (const { agent, view } of step.spent) swarm(b, { type: 'journal', kind: 'observation', event: 'generation_spent', lane: agent, data: { ...view } });
}

/**
 * The spools read so far; a last line without its newline gets its deadline when first seen (the same
 * line keeps it), and every torn write skipped is journaled with its spool and byte offset.
 */
function inboxRead(b: Build, event: Extract<SwarmEvent, { type: 'inbox_read' }>, ctx: SwarmContext): void {
  for (const read of event.reads) {
    const s = b.state;
    const was = s.spools?.[read.spool];
    const tail = read.tail === null ? null : was?.tail?.offset === read.tail ? was.tail : { offset: read.tail, due: ctx.now + TORN_AFTER_MS };
    if (read.offset !== was?.offset || tail !== (was?.tail ?? null)) b.state = { ...s, spools: { ...s.spools, [read.spool]: { offset: read.offset, tail } } };
    for (const torn of read.torn) {
      swarm(b, { type: 'journal', kind: 'observation', event: 'inbox_torn', lane: null, data: { spool: read.spool, offset: torn.offset, bytes: torn.bytes } });
    }
  }
}

function machineContext(ctx: SwarmContext, name: string): MachineContext {
  const t = ctx.config.timeouts;
  return {
    now: ctx.now,
    maxGenerations: ctx.config.thresholds.maxGenerations,
    timeouts: { accept: t.accept, packet: t.packet, stall: t.stall, release: t.release },
    doneWhen: ctx.config.lanes.find((l) => l.name === name)?.doneWhen ?? null,
    review: ctx.config.lanes.find((l) => l.name === name)?.review ? { maxReviews: ctx.config.maxReviews ?? DEFAULT_MAX_REVIEWS } : null,
  };
}

/** One lane's event: its machine decides; its deadlines and account marks are state at once. */
function lane(b: Build, name: string, event: LaneEvent, ctx: SwarmContext): void {
  const s = b.state;
  const found = s.lanes[name];
  // Once the tmux server is gone, what befalls a lane (every spawn fails, panes vanish) is the host's
  // loss, not the lane's: the state saved with host_lost is what the next `swarm up` resumes from.
  if (!found || s.hostLost !== undefined) return;
  // No account left for a successor lead: a lane of the succession is promoted instead (SPEC 10.5).
  if (event.type === 'lease' && event.account === null && found.name === s.leadName && leadPromotes(b, found, true, ctx)) return;
  const current = leadWorkOver(s, found, event, ctx) ? { ...found, state: 'done' as const } : found;
  const mctx = machineContext(ctx, name);
  if (event.type === 'resume' && event.hostGone === true) mctx.resumeSession = resumeChoiceOf(s, current, ctx);
  const { lane: next, effects } = reduceLane(current, event, mctx);
  const { timers, rest } = applyTimers(s.timers, name, effects);
  let facts = { limited: s.limited, notReady: s.notReady ?? {}, readings: s.readings, samples: s.samples ?? {} };
  const follow: LaneEvent[] = [];
  let pick = false;
  for (const effect of rest) {
    const same = effect.type === 'mark_limited' || effect.type === 'mark_not_ready' ? ctx.sameAccount?.[effect.account] : undefined;
    if (effect.type === 'mark_limited') facts = reduceAccounts(facts, { type: 'limited', account: effect.account, resetsAt: effect.resetsAt }, same);
    else if (effect.type === 'mark_not_ready') facts = reduceAccounts(facts, { type: 'not_ready', account: effect.account, why: effect.why }, same);
    // A promoted lane's pane goes to the lead lane; a promotion that will not happen, back to it (machine/promotion.ts).
    else if (effect.type === 'hand_over_pane') follow.push({ type: 'adopt', lane: name, generation: effect.generation, paneId: effect.paneId, account: effect.account, epoch: effect.epoch });
    else if (effect.type === 'promotion_declined') follow.push({ type: 'promotion_failed', lane: name, why: effect.why });
    else if (effect.type === 'pick_account' && name === s.leadName) {
      pick = true;
      b.effects.push({ lane: name, effect });
    } else b.effects.push({ lane: name, effect });
  }
  b.state = { ...s, lanes: { ...s.lanes, [name]: next }, timers, ...facts };
  b.laneMoved = true;
  // The lead lane picks a successor: a lane of the succession may be promoted in place instead of an account picked.
  if (pick && leadPromotes(b, next, false, ctx)) b.effects = b.effects.filter((e) => !(e.lane === name && e.effect.type === 'pick_account'));
  // A promotion the lead lane gave up (declined, timed out): the name it was to lead by is named no more.
  if (name === s.leadName && (found.handoff?.promotion ?? null) !== null && (next.handoff?.promotion ?? null) === null && next.generation === found.generation) {
    succession(b, { type: 'promotion_ended' }, ctx);
  }
  for (const e of follow) lane(b, b.state.leadName, e, ctx);
  // After a restart: a promotion awaited whose lane was never told is claimed and told again (core/swarm/promotion.ts).
  const again = name === s.leadName && event.type === 'resume' ? promotionToClaimAgain(b.state.lanes, next) : null;
  if (again !== null) swarm(b, { type: 'promote_lane', ...again });
}

/** Whether a lane whose agent went with its tmux server resumes its own session (core/swarm/sessionResume.ts decides). */
function resumeChoiceOf(s: SwarmState, lane: LaneState, ctx: SwarmContext): ResumeChoice {
  const command = lane.name === s.leadName
    ? ctx.config.lead.command
    : (ctx.config.lanes.find((l) => l.name === lane.name)?.command ?? s.added.find((l) => l.name === lane.name)?.command ?? null);
  return resumeChoice({
    kindResumes: lane.account !== null && ctx.resumeKinds?.[lane.account] === true && !replacesLaunch(command),
    sessionId: toldSession(s.sessions, s.ledger, lane.name, lane.generation),
    account: lane.account,
    limited: s.limited,
    notReady: s.notReady ?? {},
    resumes: lane.resumes?.generation === lane.generation ? lane.resumes.count : 0,
    now: ctx.now,
  });
}

/**
 * Promote a lane in place if the succession says so (core/swarm/promotion.ts decides): the lead lane
 * awaits it, lead.json is claimed for it (`promote_lane`, I/O), and the lead's messages go to the name
 * it will lead by. False: no lane is to be promoted (a successor lead is started as for any).
 */
function leadPromotes(b: Build, lead: LaneState, lanesOnly: boolean, ctx: SwarmContext): boolean {
  const leadName = b.state.leadName;
  const p = leadPromotion(b.state, lead, ctx.config.lead.succession, lanesOnly);
  if (p === null) return false;
  lane(b, leadName, { type: 'promoting', ...p }, ctx);
  succession(b, { type: 'successor_named', name: p.as, epoch: b.state.epoch }, ctx);
  swarm(b, { type: 'promote_lane', ...p });
  return true;
}

/**
 * Once the plan is done, or released by the lead with every lane done, the lead's work is over: its
 * agent found gone (an exit, or a restart that finds its pane vanished) needs no successor, only its
 * lease back, as a done lane's. A lead handing over at that moment keeps its handoff (its successor's
 * pane holds that lease).
 */
function leadWorkOver(s: SwarmState, lead: LaneState, event: LaneEvent, ctx: SwarmContext): boolean {
  if (lead.name !== s.leadName || !isLive(lead) || lead.handoff !== null) return false;
  if (event.type !== 'exited' && event.type !== 'resume') return false;
  return s.planDone || (progressOf(s).kind === 'all_done' && ctx.leadRecord?.released === true);
}

function account(b: Build, event: AccountEvent, ctx: SwarmContext): void {
  const s = b.state;
  const facts = reduceAccounts({ limited: s.limited, notReady: s.notReady ?? {}, readings: s.readings, samples: s.samples ?? {} }, event, ctx.sameAccount?.[event.account]);
  b.state = { ...s, ...facts };
}

/** An agent's reading counts for its own account alone (another named: journaled, and its verdict dropped). */
function reading(b: Build, event: Extract<SwarmEvent, { type: 'reading' }>, ctx: SwarmContext): void {
  const sender = event.lane === null ? undefined : b.state.lanes[event.lane];
  const whose = attribute(sender, event.generation, event.named);
  if (!whose.counts) {
    const data = { generation: event.generation, named_account: whose.named, sender_account: whose.own, source: event.source };
    return swarm(b, { type: 'journal', kind: 'observation', event: 'capacity_ignored', lane: event.lane ?? event.from, data });
  }
  if (whose.account !== null) account(b, { type: 'reading', account: whose.account, reading: event.reading, at: ctx.now }, ctx);
  if (event.lane !== null && event.verdict !== null) lane(b, event.lane, event.verdict, ctx);
  if (whose.account !== null) forecastNear(b, whose.account, ctx);
}

/** Each live lane on the account that will cross critical before its next likely work boundary is told now (SPEC 10.7). */
function forecastNear(b: Build, account: string, ctx: SwarmContext): void {
  const f = forecast(b.state.samples?.[account] ?? [], ctx.config.thresholds.capacityCritical);
  if (f.criticalInMin === null) return;
  for (const name of b.state.order) {
    const l = b.state.lanes[name];
    if (l === undefined || l.account !== account || !isLive(l) || l.nearGeneration === l.generation) continue;
    const near = nearBeforeNextBoundary(f, l.reportTimes ?? []);
    if (near !== null) lane(b, name, { type: 'forecast_near', criticalInMin: f.criticalInMin, medianMs: near.median }, ctx);
  }
}

function asks(b: Build, event: AskEvent, ctx: SwarmContext): void {
  const s = b.state;
  const lead = event.type === 'ask_due' ? s.lanes[s.leadName] : undefined; // only a deadline takes the lead over
  const step = reduceAsks({ asks: s.asks, askTimeouts: s.askTimeouts }, event, {
    now: ctx.now, askMs: ctx.config.timeouts.ask, leadAgent: s.leadAgent, leadName: s.leadName,
    lead: lead ? { paneId: lead.paneId, generation: lead.generation } : null,
  });
  b.state = { ...s, asks: step.state.asks, askTimeouts: step.state.askTimeouts };
  for (const effect of step.effects) {
    if (effect.type === 'journal') {
      swarm(b, { type: 'journal', kind: effect.kind, event: effect.event, lane: effect.lane, data: effect.data });
    } else {
      // Taken over as if its pane had died: the pane is killed, and the lead lane hears `exited` now.
      swarm(b, { type: 'kill', paneId: effect.paneId });
      lane(b, s.leadName, { type: 'exited', paneId: effect.paneId, status: null, tail: 'unreachable: asks to the lead timed out' }, ctx);
    }
  }
}

function succession(b: Build, event: SuccessionEvent, ctx: SwarmContext, leadGeneration?: number): void {
  const s = b.state;
  const leadLane = s.lanes[s.leadName];
  const current: Succession = { leadAgent: s.leadAgent, leadNext: s.leadNext, epoch: s.epoch, leadGeneration: leadGeneration ?? leadLane?.generation ?? 1 };
  const step = reduceSuccession(current, event, {
    leadLaneGeneration: leadLane?.generation ?? null,
    lanes: s.order,
    leadName: ctx.config.lead.name,
    succession: ctx.config.lead.succession,
    releaseMs: ctx.config.timeouts.release,
  });
  const { leadAgent, leadNext, epoch } = step.state;
  if (leadAgent !== s.leadAgent || leadNext !== s.leadNext || epoch !== s.epoch) b.state = { ...s, leadAgent, leadNext, epoch };
  for (const effect of step.effects) {
    switch (effect.type) {
      case 'lead_lane':
        lane(b, s.leadName, effect.event, ctx);
        break;
      case 'tell_lanes':
        swarm(b, effect);
        break;
      case 'poke':
        swarm(b, effect);
        break;
      case 'tell_stale_lead': {
        // The spent lead's pane, kept open, is that agent's: the pointer to its mailbox goes there.
        const lead = b.state.lanes[s.leadName];
        if (lead?.retiring && lead.retiring.agent === undefined) {
          b.state = { ...b.state, lanes: { ...b.state.lanes, [s.leadName]: { ...lead, retiring: { ...lead.retiring, agent: effect.agent } } } };
        }
        swarm(b, effect);
        break;
      }
      case 'journal_claim':
        swarm(b, { type: 'journal', kind: 'observation', event: 'lead_claimed', lane: effect.lead, data: { epoch: effect.epoch, account: effect.account } });
        break;
    }
  }
}

function laneAdd(b: Build, record: Extract<SwarmEvent, { type: 'lane_add' }>['record'], ctx: SwarmContext): void {
  const s = b.state;
  const step = reduceLaneAdd(s.added, record, { lanes: ctx.config.lanes, leadName: ctx.config.lead.name, maxLanes: ctx.config.maxLanes, epoch: s.epoch });
  if (step.added !== s.added) b.state = { ...s, added: step.added };
  for (const effect of step.effects) {
    if (effect.type === 'journal') {
      swarm(b, { type: 'journal', kind: effect.kind, event: effect.event, lane: effect.lane, data: effect.data });
    } else {
      planEnd(b, { type: 'lane_added' }, ctx);
      swarm(b, { type: 'start_added' });
    }
  }
}

/** The lanes' progress (the lead's excluded). */
function progressOf(s: SwarmState): Progress {
  return progress(s.order.filter((n) => n !== s.leadName).map((n) => s.lanes[n]).filter((l): l is LaneState => l !== undefined));
}

function planEvent(b: Build, event: 'lead_released' | 'release_due' | 'record_released' | 'resume', ctx: SwarmContext): void {
  const p = progressOf(b.state);
  switch (event) {
    case 'lead_released':
      return planEnd(b, { type: 'lead_released', progress: p }, ctx);
    case 'release_due':
      return planEnd(b, { type: 'release_due', progress: p }, ctx);
    case 'record_released':
      // The plan is done: a lane (the lead) whose agent is gone with no successor coming gets its lease back first.
      for (const name of b.state.order) lane(b, name, { type: 'work_over' }, ctx);
      return planEnd(b, { type: 'record_released' }, ctx);
    case 'resume':
      return planEnd(b, { type: 'resume', progress: p, released: p.kind === 'all_done' && ctx.leadRecord?.released === true }, ctx);
  }
}

function planEnd(b: Build, event: PlanEndEvent, ctx: SwarmContext): void {
  if (ctx.finished) return;
  const s = b.state;
  const current: PlanEnd = { allDoneTold: s.allDoneTold, releaseAt: s.releaseAt ?? null, planDone: s.planDone };
  const step = reducePlanEnd(current, event, { now: ctx.now, releaseMs: ctx.config.timeouts.release });
  if (step.state.allDoneTold !== current.allDoneTold || step.state.releaseAt !== current.releaseAt || step.state.planDone !== current.planDone) {
    b.state = { ...s, ...step.state };
  }
  for (const effect of step.effects) {
    switch (effect.type) {
      case 'journal':
        // The run's ends are in its journal before its plan_done (a report of the run stops there).
        if (effect.event === 'plan_done') ledgerStep(b, endsTold({ ledger: b.state.ledger, spent: [] }));
        swarm(b, { type: 'journal', kind: effect.kind, event: effect.event, lane: null, data: effect.data });
        break;
      case 'arm_release':
      case 'disarm_release':
        break; // the deadline is `releaseAt`, armed from the state (core/swarm/deadlines.ts)
      default:
        swarm(b, effect);
    }
  }
}

/**
 * After a step that moved a lane (and at the run's start): a lead successor that accepted (the lead
 * lane's generation moved on) takes office, then the plan's end hears `settled`.
 */
function settle(before: SwarmState, b: Build, ctx: SwarmContext): void {
  // The ledger's starts and ends (core/ledger/track.ts). An end is journaled at the next look at the
  // agents' usage (the `usage` event), so its line has the last figures they told, once.
  const kept = b.state.ledger ?? NO_LEDGER;
  const tracked = trackLanes(kept, before.lanes, b.state.lanes, { now: ctx.now, readings: b.state.readings, vendorOf: (a) => vendorOf(ctx, a) });
  if (tracked.ledger !== kept) b.state = { ...b.state, ledger: tracked.ledger };
  // Waiting lanes (SPEC 10.6 `after:`) whose lanes are all done start (core/swarm/order.ts).
  const waited = startWaiting(b.state, ctx.config.lanes, ctx.now);
  b.state = waited.state;
  for (const effect of waited.effects) swarm(b, effect);
  const was = before.lanes[before.leadName];
  const lead = b.state.lanes[b.state.leadName];
  if (was && lead && lead.generation !== was.generation) {
    const recordEpoch = lead.generation === 1 ? null : (ctx.leadRecord?.epoch ?? null);
    succession(b, { type: 'step', generation: lead.generation, recordEpoch }, ctx, was.generation);
    if (lead.generation > 1) planEnd(b, { type: 'lead_changed' }, ctx);
  }
  const p = progressOf(b.state);
  const released = p.kind === 'all_done' && !b.state.allDoneTold && ctx.leadRecord?.released === true;
  planEnd(b, { type: 'settled', progress: p, released, untilDone: ctx.untilDone }, ctx);
}
