/**
 * The lane (and lead) handoff state machine of docs/engine.md as one pure, total reducer:
 * `reduceLane(lane, event, ctx) → { lane, effects }`. Effects are plain data for the engine to run;
 * their results come back as events. Time comes in as `ctx.now`. This file holds the dispatcher and
 * the lane's own events (start, reports, capacity, screens, exits, the gate, stalls); the handoff
 * transitions are in handoff.ts (their shared steps in successor.ts and degrade.ts), the restart in
 * resume.ts, the gate in gate.ts.
 */
import { countsForSender, DECIDE_AND_RECORD } from '../core/protocol/protocol.js';
import type { CapacityLine } from '../core/protocol/protocol.js';
import type { Decision } from '../core/capacity/thresholds.js';
import { spokenDuration } from '../core/config/duration.js';
import { degrade } from './degrade.js';
import { clearTimer, effectId, journal, setTimer } from './effects.js';
import { handoffInFlight, isLive, stallWatched } from './laneState.js';
import { notices, tail } from './notices.js';
import { andThen, ignored, type Ev } from './step.js';
import { failSuccessor, freshHandoff } from './successor.js';
import { type Effect, type LaneEvent, type LaneState, type MachineContext, type Step } from './types.js';
import {
  handoffRefusal, onAccountFreed, onAccepted, onDegradedWritten, onHandoff, onHandoffTimer, onLease, onPacketChecked, onSpawned, onSpawnFailed,
  onSuccessorScreen,
} from './handoff.js';
import { onGate, onGateProcess, startGate } from './gate.js';
import { onFirstStartFailed } from './firstStart.js';
import { onResume } from './resume.js';
import { READY_AND_ON, whileResuming } from './sessionResume.js';
import { block, onAnswered } from './block.js';
import { onExited } from './exits.js';
import { onWorkOver } from './doneExit.js';
import { onAccountHeld } from './accountWait.js';
import { onAdopt, onPromote, onPromoting, onPromotionFailed } from './promotion.js';
import { KEEP_REPORTS } from '../core/capacity/forecast.js';
import { onReviewerLease, onReviewerSpawned, onReviewTimer, onReviewVerdict, resumeReview, reviewAgain, reviewerFailed, reviewerScreen } from './review.js';

export { handoffInFlight, initialLane } from './laneState.js';
export { MAX_GENERATIONS_HINT, QUICK_EXIT_MS, WAIT_RETRY_MS } from './types.js';
export type {
  AgentExit, Blocked, BlockClass, Effect, Failure, Handoff, JournalKind, LaneEvent, LaneState, LaneStatus, MachineContext, Phase, ScreenClass, SignalClass,
  StartScreen, Step, Successor, TimerName,
} from './types.js';

/** Decide one event for one lane: the next state and the effects to carry out. Total and pure. */
export function reduceLane(lane: LaneState, event: LaneEvent, ctx: MachineContext): Step {
  if (lane.state === 'stopped') return { lane, effects: [] }; // terminal until a human acts
  // A resumed session not yet ready (SPEC 10.8): what says it is ready, or failed, is the resume's first.
  const resumed = whileResuming(lane, event, ctx);
  if (resumed !== null) return READY_AND_ON.has(event.type) ? andThen(resumed, (l) => reduceLane(l, event, ctx)) : resumed;
  switch (event.type) {
    case 'started': return onStarted(lane, event, ctx);
    case 'report': return onReport(lane, event, ctx);
    case 'verdict': return onVerdict(lane, event, ctx);
    case 'output': return isLive(lane) ? activity(lane, ctx) : { lane, effects: [] };
    case 'screen': return onScreen(lane, event, ctx);
    case 'signal': return onSignal(lane, event, ctx);
    case 'exited': return onExited(lane, event, ctx);
    case 'packet_checked': return onPacketChecked(lane, event, ctx);
    case 'lease': return onLease(lane, event, ctx);
    case 'successor_screen': return onSuccessorScreen(lane, event, ctx);
    case 'spawned': return onSpawned(lane, event, ctx);
    case 'spawn_failed': return onFirstStartFailed(lane, event, ctx) ?? onSpawnFailed(lane, event, ctx);
    case 'accepted': return onAccepted(lane, event, ctx);
    case 'degraded_written': return onDegradedWritten(lane, event, ctx);
    case 'gate': return onGate(lane, event, ctx);
    case 'gate_process': return onGateProcess(lane, event, ctx);
    case 'timer': return onTimer(lane, event, ctx);
    case 'account_freed': return onAccountFreed(lane, ctx);
    case 'account_held': return onAccountHeld(lane, event, ctx);
    case 'resume': return onResume(lane, event, ctx, onExited);
    case 'work_over': return onWorkOver(lane, ctx);
    case 'promote': return onPromote(lane, event, ctx);
    case 'promoting': return onPromoting(lane, event, ctx);
    case 'promotion_failed': return onPromotionFailed(lane, event, ctx);
    case 'adopt': return onAdopt(lane, event, ctx);
    case 'answered': return reviewAgain(lane, ctx) ?? onAnswered(lane, ctx);
    case 'forecast_near': return onForecastNear(lane, event, ctx);
    case 'reviewer_lease': return onReviewerLease(lane, event, ctx);
    case 'reviewer_spawned': return onReviewerSpawned(lane, event, ctx);
    case 'reviewer_spawn_failed': return reviewerFailed(lane, event.seq, `its pane could not be made on ${event.account}: ${event.error}`, ctx, event);
    case 'review_verdict': return onReviewVerdict(lane, event, ctx);
    case 'review_resume': return resumeReview(lane, event, ctx);
    case 'reviewer_exited': return reviewerFailed(lane, event.seq, exitedWhy(event), ctx, event);
    case 'reviewer_screen': return reviewerScreen(lane, event, ctx);
    case 'session_told': return { lane, effects: [] };
    case 'resume_failed': return ignored(lane, event, 'no resume is in flight', ctx.now);
    case 'resume_spawned': {
      // A resume's pane made after the resume was given up: nobody's agent, ended at once.
      const kill: Effect = { type: 'close_pane', id: effectId(lane, event.generation, 'resume', 'orphan', event.paneId), paneId: event.paneId, generation: event.generation };
      return { lane, effects: [journal(lane, 'ignored', 'observation', { event: event.type, why: 'no resume is in flight: its pane is closed' }, ctx.now), kill] };
    }
  }
}

function onTimer(lane: LaneState, event: Ev<'timer'>, ctx: MachineContext): Step {
  switch (event.timer) {
    case 'stall': return onStall(lane, ctx);
    case 'review': return onReviewTimer(lane, ctx);
    case 'resume': return { lane, effects: [] }; // no resume in flight (machine/sessionResume.ts has the one that is)
    default: return onHandoffTimer(lane, event.timer, ctx);
  }
}

/** A reviewer's exit before its verdict, in words. */
function exitedWhy(event: Ev<'reviewer_exited'>): string {
  const last = event.tail === undefined || event.tail.trim() === '' ? '' : `; its last lines: ${tail(event.tail.trim(), 300)}`;
  return `it exited (status ${event.status ?? 'unknown'}) before saying approved or changes${last}`;
}

/** The agent is alive (output or a report): reset the stall clock; a stalled or starting lane works. */
function activity(lane: LaneState, ctx: MachineContext): Step {
  let next: LaneState = { ...lane, lastActivity: ctx.now, stallNudged: false };
  const effects = [setTimer(next, 'stall', ctx.now + ctx.timeouts.stall)];
  if (next.state === 'starting') next = { ...next, state: 'working' };
  if (next.state === 'blocked' && next.blocked?.source === 'engine' && next.blocked.class === 'stalled') {
    effects.push(journal(next, 'unblocked', 'observation', { class: 'stalled' }, ctx.now));
    next = { ...next, state: 'working', blocked: null };
  }
  return { lane: next, effects };
}

function onStarted(lane: LaneState, event: Ev<'started'>, ctx: MachineContext): Step {
  if (lane.state === 'done') return ignored(lane, event, 'the lane is done', ctx.now);
  if (event.generation < lane.generation) {
    return ignored(lane, event, `generation ${event.generation} is retired (the lane is at g${lane.generation})`, ctx.now);
  }
  if (event.generation === lane.generation && event.paneId === lane.paneId) return ignored(lane, event, 'duplicate start', ctx.now);
  const waited = lane.phase === 'waiting' && lane.handoff === null;
  const next: LaneState = {
    ...lane, generation: event.generation, account: event.account, paneId: event.paneId, state: 'starting',
    blocked: null, startedAt: ctx.now, lastActivity: ctx.now, stallNudged: false, gate: null,
    ...(waited ? { phase: null, phaseSince: null } : {}), waitingForAccount: null,
  };
  return {
    lane: next,
    effects: [
      journal(next, 'lane_started', 'delegation', { account: event.account, paneId: event.paneId }, ctx.now),
      setTimer(next, 'stall', ctx.now + ctx.timeouts.stall),
    ],
  };
}

/**
 * A successor that reports `blocked` before it accepted could not take the lane on (its `swarm accept`
 * refused the packet, say): it fails now, in its own words, rather than at the accept deadline, and the
 * next account is tried; the escalation that may follow quotes why.
 */
function successorRefused(lane: LaneState, event: Ev<'report'>, ctx: MachineContext): Step | null {
  const s = lane.handoff?.successor ?? null;
  const e = event.report.event;
  if (lane.phase !== 'spawning' || s === null || s.generation !== event.generation || e.kind !== 'blocked') return null;
  const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
  const told = journal(lane, 'successor_blocked', 'observation', { account: s.account, for_generation: s.generation, what: clip(e.what, 600) }, ctx.now);
  return andThen({ lane, effects: [told] }, (l) => failSuccessor(l, `the successor reported blocked before accepting: ${clip(e.what, 300)}`, s.paneId, ctx, true, event.report.text));
}

function onReport(lane: LaneState, event: Ev<'report'>, ctx: MachineContext): Step {
  const { report } = event;
  if (lane.state === 'done') return ignored(lane, event, 'the lane is done', ctx.now);
  if (event.generation !== lane.generation) {
    const refused = successorRefused(lane, event, ctx);
    if (refused !== null) return refused;
    const which = event.generation < lane.generation ? `retired generation ${event.generation}` : `generation ${event.generation}, not yet accepted`;
    return ignored(lane, event, `a report from ${which} (the lane is at g${lane.generation})`, ctx.now);
  }
  const e = report.event;
  const refusal = e.kind === 'handoff' ? handoffRefusal(lane, e.path)
    : e.kind === 'done' && lane.gate !== null ? 'duplicate done: the gate is already running'
      : e.kind === 'done' && lane.review ? `duplicate done: review round ${lane.review.round} is running`
      : e.kind === 'done' && handoffInFlight(lane) ? `done during a handoff (phase ${lane.phase}): the successor reports`
        : null;
  if (refusal !== null) return ignored(lane, event, refusal, ctx.now);
  // A line naming another account than the lane's is no reading of its own (SPEC 10.3): the report counts without it.
  const line = report.capacity.raw !== '' && countsForSender(report.capacity.account, lane.account) ? report.capacity : null;
  const seen = activity(withCapacity({ ...lane, reportTimes: [...(lane.reportTimes ?? []), ctx.now].slice(-KEEP_REPORTS) }, line, report.text), ctx);
  if (e.kind === 'handoff') return andThen(seen, (l) => onHandoff(l, e.path, ctx));
  if (e.kind === 'done') return andThen(seen, (l) => onDone(l, ctx));
  const answered = andThen(seen, (l) => {
    if (e.kind !== 'blocked') return unblockReport(l, ctx);
    if (e.class === null) return { lane: l, effects: [{ type: 'notify', id: effectId(l, l.generation, 'decide', ctx.now), text: DECIDE_AND_RECORD }] };
    return block(l, { class: e.class, what: e.what, source: 'report' }, ctx);
  });
  return line === null ? answered : andThen(answered, (l) => capacityStep(l, decisionOf(line), ctx));
}

/** Any other report from a lane blocked by its own report (or its agent's signal): it moved on. */
function unblockReport(lane: LaneState, ctx: MachineContext): Step {
  if (lane.state !== 'blocked' || (lane.blocked?.source !== 'report' && lane.blocked?.source !== 'signal')) return { lane, effects: [] };
  const next: LaneState = { ...lane, state: 'working', blocked: null };
  return { lane: next, effects: [journal(next, 'unblocked', 'observation', { class: lane.blocked.class, source: 'report' }, ctx.now)] };
}

/** Record a report's capacity line (none: the last reading stays) and its first line. */
function withCapacity(lane: LaneState, line: CapacityLine | null, text: string): LaneState {
  const last = text.split('\n')[0] ?? '';
  if (line === null) return { ...lane, last };
  return { ...lane, last, capacity: line.raw, capacityState: line.state, remainingPct: line.pct, contextPct: line.contextPct };
}

const decisionOf = (line: CapacityLine): Decision =>
  line.state === 'critical' ? 'handoff_now' : line.state === 'low' ? 'handoff_soon' : 'continue';


function onDone(lane: LaneState, ctx: MachineContext): Step {
  // A lane that finishes while told to hand off needs no handoff (nor, promoted to lead, a successor: the promotion is off).
  const promoted = lane.phase === 'writing' && lane.handoff?.promoted !== undefined;
  const declined: Effect[] = promoted ? [{ type: 'promotion_declined', id: effectId(lane, lane.generation, 'declined'), why: `${lane.name} reported done instead of handing off its lane work` }] : [];
  const settled: Step = lane.phase === 'near' || lane.phase === 'writing'
    ? { lane: { ...lane, phase: null, phaseSince: ctx.now, handoff: null }, effects: [clearTimer(lane, 'packet', ctx.now), ...declined] }
    : { lane, effects: [] };
  return andThen(settled, (l) => startGate(l, ctx));
}

/**
 * The forecast says the account crosses critical before the lane's next likely work boundary (SPEC
 * 10.7): the near notice now, once per generation, as a `handoff_soon` verdict would give it.
 */
function onForecastNear(lane: LaneState, event: Ev<'forecast_near'>, ctx: MachineContext): Step {
  if (!isLive(lane) || lane.gate !== null || handoffInFlight(lane) || lane.phase === 'writing' || lane.nearGeneration === lane.generation) return { lane, effects: [] };
  const step = capacityStep(lane, 'handoff_soon', ctx);
  const why = journal(step.lane, 'forecast_near', 'observation', { critical_in_min: event.criticalInMin, median_report_interval_s: Math.round(event.medianMs / 1000) }, ctx.now);
  return { lane: step.lane, effects: [why, ...step.effects] };
}

/** A capacity decision: `near` once per generation, `writing` once per handoff; nothing once in flight. */
function capacityStep(lane: LaneState, decision: Decision, ctx: MachineContext): Step {
  if (!isLive(lane) || lane.gate !== null || handoffInFlight(lane) || lane.phase === 'writing') return { lane, effects: [] };
  const verdict = journal(lane, 'capacity_verdict', 'observation',
    { decision, state: lane.capacityState, remainingPct: lane.remainingPct, contextPct: lane.contextPct }, ctx.now);
  if (decision === 'handoff_now') {
    const reason = lane.role === 'lead' ? 'lead_handover' : lane.capacityState === 'critical' ? 'capacity_critical' : 'context_pressure';
    const next: LaneState = { ...lane, phase: 'writing', phaseSince: ctx.now, handoff: freshHandoff(lane, reason, false) };
    return {
      lane: next,
      effects: [
        { type: 'notify', id: effectId(next, next.generation, 'write', ctx.now), text: notices.write(ctx.timeouts.packet, lane.role) },
        setTimer(next, 'packet', ctx.now + ctx.timeouts.packet),
        verdict,
      ],
    };
  }
  if (decision === 'handoff_soon' && lane.nearGeneration !== lane.generation) {
    const next: LaneState = { ...lane, phase: 'near', phaseSince: ctx.now, nearGeneration: lane.generation };
    return { lane: next, effects: [{ type: 'notify', id: effectId(next, next.generation, 'near'), text: notices.near(lane) }, verdict] };
  }
  return { lane, effects: [] };
}

function onVerdict(lane: LaneState, event: Ev<'verdict'>, ctx: MachineContext): Step {
  if (!isLive(lane)) return { lane, effects: [] }; // a done lane ignores capacity
  if (event.generation !== lane.generation) {
    return ignored(lane, event, `a verdict for generation ${event.generation} (the lane is at g${lane.generation})`, ctx.now);
  }
  const next: LaneState = { ...lane, capacityState: event.state, remainingPct: event.remainingPct, contextPct: event.contextPct };
  return capacityStep(next, event.decision, ctx);
}

function onScreen(lane: LaneState, event: Ev<'screen'>, ctx: MachineContext): Step {
  if (!isLive(lane)) return { lane, effects: [] };
  const screen = event.screen;
  if (screen === null) {
    if (lane.state !== 'blocked' || lane.blocked?.source !== 'screen') return { lane, effects: [] };
    const next: LaneState = { ...lane, state: 'working', blocked: null };
    return { lane: next, effects: [journal(next, 'unblocked', 'observation', { class: lane.blocked.class, source: 'screen' }, ctx.now)] };
  }
  if (screen === 'usage_limit' || screen === 'overflow') return hardLimit(lane, screen, null, ctx);
  const seen = event.text === undefined || event.text.trim() === '' ? '' : `: "${tail(event.text.trim(), 300)}"`;
  const what = `a ${screen} screen in the pane${seen}. swarm sends it no keys: answer it in the pane (swarm attach)`;
  return block(lane, { class: screen, what, source: 'screen' }, ctx);
}

/**
 * An agent's own signal: a hard limit (the account limited until `resetsAt`), a screen swarm never
 * answers (one escalation however many signals and screens say so; it lasts until the agent's turn
 * goes on or it reports), a missed handoff line (auto-compaction: hand off now), or a turn's end.
 */
function onSignal(lane: LaneState, event: Ev<'signal'>, ctx: MachineContext): Step {
  if (!isLive(lane)) return { lane, effects: [] };
  if (event.generation !== lane.generation) {
    return ignored(lane, event, `a ${event.signal} signal from generation ${event.generation} (the lane is at g${lane.generation})`, ctx.now);
  }
  const s = event.signal;
  if (s === 'usage_limit' || s === 'overflow') return hardLimit(lane, s, event.resetsAt, ctx);
  if (s === 'handoff_now') return andThen(activity(lane, ctx), (l) => capacityStep(l, 'handoff_now', ctx));
  if (s === 'turn_end') {
    const seen = activity(lane, ctx);
    if (seen.lane.state !== 'blocked' || seen.lane.blocked?.source !== 'signal') return seen;
    const next: LaneState = { ...seen.lane, state: 'working', blocked: null };
    return { lane: next, effects: [...seen.effects, journal(next, 'unblocked', 'observation', { class: seen.lane.blocked.class, source: 'signal' }, ctx.now)] };
  }
  const what = `${s === 'permission' ? 'a permission prompt' : `a ${s} error`} (the agent's own signal): ${event.what}. ` +
    'swarm sends it no keys: answer it in the pane (swarm attach)';
  return block(lane, { class: s, what, source: 'signal' }, ctx);
}

/** A usage-limit or overflow screen or signal: a hard limit, succeeded with a degraded packet unless one was reported. */
function hardLimit(lane: LaneState, screen: 'usage_limit' | 'overflow', resetsAt: string | null, ctx: MachineContext): Step {
  const account = lane.account;
  const mark = screen === 'usage_limit' && account !== null;
  const marked = (l: LaneState): Step => {
    if (!mark || l.handoff === null || l.handoff.accountLimited) return { lane: l, effects: [] };
    return {
      lane: { ...l, handoff: { ...l.handoff, accountLimited: true } },
      effects: [{ type: 'mark_limited', id: effectId(l, lane.generation, 'limited', account), account, resetsAt }],
    };
  };
  if (handoffInFlight(lane)) return marked(lane);
  return andThen(degrade(lane, screen === 'usage_limit' ? 'usage_limit' : 'context_pressure', ctx), marked);
}

/** The stall timer came due: re-arm it if early, else nudge the agent once, then block the lane as stalled. */
function onStall(lane: LaneState, ctx: MachineContext): Step {
  const { now } = ctx;
  if (!stallWatched(lane)) return { lane, effects: [] };
  const due = lane.lastActivity + ctx.timeouts.stall * (lane.stallNudged ? 2 : 1);
  if (now < due) return { lane, effects: [setTimer(lane, 'stall', due)] };
  if (lane.stallNudged) {
    return block(lane, { class: 'stalled', what: `no output and no report for ${spokenDuration(now - lane.lastActivity)}, and none after a nudge`, source: 'engine' }, ctx);
  }
  const next: LaneState = { ...lane, stallNudged: true };
  return {
    lane: next,
    effects: [
      { type: 'notify', id: effectId(next, next.generation, 'nudge', lane.lastActivity), text: notices.nudge(ctx.timeouts.stall) },
      journal(next, 'stall_nudge', 'observation', { since: lane.lastActivity }, now),
      // A stall period to answer the nudge, however late it came (a clock that jumped, a machine that slept).
      setTimer(next, 'stall', Math.max(lane.lastActivity + 2 * ctx.timeouts.stall, now + ctx.timeouts.stall)),
    ],
  };
}
