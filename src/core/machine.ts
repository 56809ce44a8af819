/**
 * The lane (and lead) handoff state machine of docs/engine.md as one pure, total reducer:
 * `reduceLane(lane, event, ctx) → { lane, effects }`. Effects are plain data for the engine to run;
 * their results come back as events. Time comes in as `ctx.now`.
 */
import { DECIDE_AND_RECORD } from './protocol.js';
import type { CapacityLine } from './protocol.js';
import type { Decision } from './thresholds.js';
import {
  attention, clearTimer, degrade, effectId, escalation, failSuccessor, freshHandoff, handoffInFlight, ignored, journal,
  minutes, notices, pickEffect, QUICK_EXIT_MS, setTimer, spawnEffect, startPick, stop, tail, waiting, writeDegraded,
  type Blocked, type LaneEvent, type LaneState, type MachineContext, type Step,
} from './machineTypes.js';

export { handoffInFlight, initialLane, MAX_GENERATIONS_HINT, QUICK_EXIT_MS, WAIT_RETRY_MS } from './machineTypes.js';
export type {
  Blocked, BlockClass, Effect, Handoff, JournalKind, LaneEvent, LaneState, LaneStatus, MachineContext, Phase, ScreenClass, Step,
  Successor, TimerName,
} from './machineTypes.js';

type Ev<T extends LaneEvent['type']> = Extract<LaneEvent, { type: T }>;

/** Decide one event for one lane: the next state and the effects to carry out. Total and pure. */
export function reduceLane(lane: LaneState, event: LaneEvent, ctx: MachineContext): Step {
  if (lane.state === 'stopped') return { lane, effects: [] }; // terminal until a human acts
  switch (event.type) {
    case 'started': return onStarted(lane, event, ctx);
    case 'report': return onReport(lane, event, ctx);
    case 'verdict': return onVerdict(lane, event, ctx);
    case 'output': return isLive(lane) ? activity(lane, ctx) : { lane, effects: [] };
    case 'screen': return onScreen(lane, event, ctx);
    case 'exited': return onExited(lane, event, ctx);
    case 'packet_checked': return onPacketChecked(lane, event, ctx);
    case 'lease': return onLease(lane, event, ctx);
    case 'spawned': return onSpawned(lane, event, ctx);
    case 'spawn_failed': return onSpawnFailed(lane, event, ctx);
    case 'accepted': return onAccepted(lane, event, ctx);
    case 'degraded_written': return onDegradedWritten(lane, event, ctx);
    case 'gate': return onGate(lane, event, ctx);
    case 'timer': return onTimer(lane, event, ctx);
    case 'resume': return onResume(lane, event, ctx);
  }
}

const isLive = (lane: LaneState): boolean => lane.state !== 'done' && lane.state !== 'stopped';

/** Run `next` on the lane of `first` and join the effects. */
function then(first: Step, next: (lane: LaneState) => Step): Step {
  const second = next(first.lane);
  return { lane: second.lane, effects: [...first.effects, ...second.effects] };
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

/** Block the lane and escalate once (a repeat of the same block changes nothing). */
function block(lane: LaneState, blocked: Blocked, ctx: MachineContext): Step {
  const same = lane.state === 'blocked' && lane.blocked?.class === blocked.class && lane.blocked.source === blocked.source;
  if (same && (blocked.source !== 'report' || lane.blocked?.what === blocked.what)) return { lane, effects: [] };
  const next: LaneState = { ...lane, state: 'blocked', blocked };
  return { lane: next, effects: escalation(next, blocked.class, blocked.what, blocked.source, ctx.now) };
}

function onStarted(lane: LaneState, event: Ev<'started'>, ctx: MachineContext): Step {
  if (lane.state === 'done') return ignored(lane, event, 'the lane is done', ctx.now);
  if (event.generation < lane.generation) {
    return ignored(lane, event, `generation ${event.generation} is retired (the lane is at g${lane.generation})`, ctx.now);
  }
  if (event.generation === lane.generation && event.paneId === lane.paneId) return ignored(lane, event, 'duplicate start', ctx.now);
  const next: LaneState = {
    ...lane, generation: event.generation, account: event.account, paneId: event.paneId, state: 'starting',
    blocked: null, startedAt: ctx.now, lastActivity: ctx.now, stallNudged: false, gatePending: false,
  };
  return {
    lane: next,
    effects: [
      journal(next, 'lane_started', 'delegation', { account: event.account, paneId: event.paneId }, ctx.now),
      setTimer(next, 'stall', ctx.now + ctx.timeouts.stall),
    ],
  };
}

/** Why a `handoff <path>` report changes nothing, or null when it starts (or restarts) the handoff. */
function handoffRefusal(lane: LaneState, path: string): string | null {
  const inHand = lane.handoff?.packet ?? null;
  if (lane.phase === 'spawning' || lane.phase === 'waiting' || lane.phase === 'attention' || lane.phase === 'reported') {
    if (inHand === path) return `duplicate handoff for the packet in hand (${path})`;
    if (lane.phase !== 'reported') return `a handoff is already in flight (phase ${lane.phase}, packet ${inHand ?? 'none'})`;
  }
  return null;
}

function onReport(lane: LaneState, event: Ev<'report'>, ctx: MachineContext): Step {
  const { report } = event;
  if (lane.state === 'done') return ignored(lane, event, 'the lane is done', ctx.now);
  if (event.generation !== lane.generation) {
    const which = event.generation < lane.generation ? `retired generation ${event.generation}` : `generation ${event.generation}, not yet accepted`;
    return ignored(lane, event, `a report from ${which} (the lane is at g${lane.generation})`, ctx.now);
  }
  const e = report.event;
  const refusal = e.kind === 'handoff' ? handoffRefusal(lane, e.path)
    : e.kind === 'done' && lane.gatePending ? 'duplicate done: the gate is already running'
      : e.kind === 'done' && handoffInFlight(lane) ? `done during a handoff (phase ${lane.phase}): the successor reports`
        : null;
  if (refusal !== null) return ignored(lane, event, refusal, ctx.now);
  const seen = activity(withCapacity(lane, report.capacity, report.text), ctx);
  if (e.kind === 'handoff') return then(seen, (l) => onHandoff(l, e.path, ctx));
  if (e.kind === 'done') return then(seen, (l) => onDone(l, ctx));
  const answered = then(seen, (l) => {
    if (e.kind !== 'blocked') return unblockReport(l, ctx);
    if (e.class === null) return { lane: l, effects: [{ type: 'notify', id: effectId(l, l.generation, 'decide', ctx.now), text: DECIDE_AND_RECORD }] };
    return block(l, { class: e.class, what: e.what, source: 'report' }, ctx);
  });
  return then(answered, (l) => capacityStep(l, decisionOf(report.capacity), ctx));
}

/** Any other report from a lane blocked by its own report: it moved on. */
function unblockReport(lane: LaneState, ctx: MachineContext): Step {
  if (lane.state !== 'blocked' || lane.blocked?.source !== 'report') return { lane, effects: [] };
  const next: LaneState = { ...lane, state: 'working', blocked: null };
  return { lane: next, effects: [journal(next, 'unblocked', 'observation', { class: lane.blocked.class, source: 'report' }, ctx.now)] };
}

/** Record a report's capacity line (a missing line keeps the last reading) and its first line. */
function withCapacity(lane: LaneState, line: CapacityLine, text: string): LaneState {
  const last = text.split('\n')[0] ?? '';
  if (line.raw === '') return { ...lane, last };
  return { ...lane, last, capacity: line.raw, capacityState: line.state, remainingPct: line.pct, contextPct: line.contextPct };
}

const decisionOf = (line: CapacityLine): Decision =>
  line.state === 'critical' ? 'handoff_now' : line.state === 'low' ? 'handoff_soon' : 'continue';

function onHandoff(lane: LaneState, path: string, ctx: MachineContext): Step {
  const reason = lane.phase === 'writing' && lane.handoff !== null ? lane.handoff.reason
    : lane.role === 'lead' ? 'lead_handover'
      : lane.capacityState === 'critical' ? 'capacity_critical' : lane.capacityState === 'low' ? 'capacity_low' : 'context_pressure';
  if (lane.generation >= ctx.maxGenerations) return stop(lane, path, reason, ctx);
  const next: LaneState = { ...lane, phase: 'reported', phaseSince: ctx.now, handoff: { ...freshHandoff(lane, reason, false), packet: path } };
  return {
    lane: next,
    effects: [
      clearTimer(next, 'packet', ctx.now),
      journal(next, 'handoff_reported', 'observation', { packet: path, reason }, ctx.now),
      { type: 'validate_packet', id: effectId(next, next.generation, 'validate', ctx.now), packet: path },
    ],
  };
}

function onDone(lane: LaneState, ctx: MachineContext): Step {
  // A lane that finishes while told to hand off needs no handoff.
  const settled: Step = lane.phase === 'near' || lane.phase === 'writing'
    ? { lane: { ...lane, phase: null, phaseSince: ctx.now, handoff: null }, effects: [clearTimer(lane, 'packet', ctx.now)] }
    : { lane, effects: [] };
  if (ctx.doneWhen === null) return then(settled, (l) => finishDone(l, ctx));
  const command = ctx.doneWhen;
  return then(settled, (l) => ({
    lane: { ...l, gatePending: true },
    effects: [{ type: 'run_gate', id: effectId(l, l.generation, 'gate', ctx.now), command }],
  }));
}

function finishDone(lane: LaneState, ctx: MachineContext): Step {
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

/** A capacity decision: `near` once per generation, `writing` once per handoff; nothing once in flight. */
function capacityStep(lane: LaneState, decision: Decision, ctx: MachineContext): Step {
  if (!isLive(lane) || lane.gatePending || handoffInFlight(lane) || lane.phase === 'writing') return { lane, effects: [] };
  const verdict = journal(lane, 'capacity_verdict', 'observation',
    { decision, state: lane.capacityState, remainingPct: lane.remainingPct, contextPct: lane.contextPct }, ctx.now);
  if (decision === 'handoff_now') {
    const reason = lane.role === 'lead' ? 'lead_handover' : lane.capacityState === 'critical' ? 'capacity_critical' : 'context_pressure';
    const next: LaneState = { ...lane, phase: 'writing', phaseSince: ctx.now, handoff: freshHandoff(lane, reason, false) };
    return {
      lane: next,
      effects: [
        { type: 'notify', id: effectId(next, next.generation, 'write', ctx.now), text: notices.write(ctx.timeouts.packet) },
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
  if (screen === 'usage_limit' || screen === 'overflow') return hardLimit(lane, screen, ctx);
  const seen = event.text === undefined || event.text.trim() === '' ? '' : `: "${tail(event.text.trim(), 300)}"`;
  const what = `a ${screen} screen in the pane${seen}. swarm sends it no keys: answer it in the pane (swarm attach)`;
  return block(lane, { class: screen, what, source: 'screen' }, ctx);
}

/** A usage-limit or overflow screen: a hard limit, succeeded with a degraded packet unless one was reported. */
function hardLimit(lane: LaneState, screen: 'usage_limit' | 'overflow', ctx: MachineContext): Step {
  const account = lane.account;
  const mark = screen === 'usage_limit' && account !== null;
  const marked = (l: LaneState): Step => {
    if (!mark || l.handoff === null || l.handoff.accountLimited) return { lane: l, effects: [] };
    return {
      lane: { ...l, handoff: { ...l.handoff, accountLimited: true } },
      effects: [{ type: 'mark_limited', id: effectId(l, lane.generation, 'limited', account), account, resetsAt: null }],
    };
  };
  if (handoffInFlight(lane)) return marked(lane);
  return then(degrade(lane, screen === 'usage_limit' ? 'usage_limit' : 'context_pressure', ctx), marked);
}

function onExited(lane: LaneState, event: Ev<'exited'>, ctx: MachineContext): Step {
  if (!isLive(lane)) return { lane, effects: [] }; // a done lane's agent may leave
  const h = lane.handoff;
  const s = h?.successor ?? null;
  if (lane.phase === 'spawning' && h !== null && s !== null && s.paneId === event.paneId) return successorExited(lane, event, ctx);
  if (event.paneId !== lane.paneId) return ignored(lane, event, `pane ${event.paneId} is not the lane's current pane`, ctx.now);
  if (exitRecorded(lane)) return ignored(lane, event, 'the exit of this agent is already recorded', ctx.now);
  const data = { paneId: event.paneId, status: event.status };
  if (lane.gatePending) return { lane: { ...lane, state: 'lost' }, effects: [journal(lane, 'agent_exited', 'observation', data, ctx.now)] };
  if (handoffInFlight(lane) && lane.phase !== 'rejected') {
    return { lane, effects: [journal(lane, 'agent_exited', 'observation', { ...data, expected: true }, ctx.now)] };
  }
  const quick = ctx.now - lane.startedAt < (ctx.quickExitMs ?? QUICK_EXIT_MS);
  const quickExits = quick ? lane.quickExits + 1 : 0;
  if (quickExits >= 2) return crashLoop({ ...lane, quickExits }, event, ctx);
  return degrade({ ...lane, quickExits, state: 'lost', blocked: null }, 'lane_lost', ctx, data);
}

/** The current agent's exit was already handled (lost, or held after a crash loop). */
const exitRecorded = (lane: LaneState): boolean =>
  lane.state === 'lost' || (lane.blocked?.source === 'engine' && lane.blocked.class === 'dependency');

/** The second exit in a row within quickExitMs of a start: blocked dependency, no successor. */
function crashLoop(lane: LaneState, event: Ev<'exited'>, ctx: MachineContext): Step {
  const lines = event.tail === undefined || event.tail.trim() === '' ? '' : `\nlast lines of the pane:\n${tail(event.tail, 1000)}`;
  const what = `the agent exited within ${minutes(ctx.quickExitMs ?? QUICK_EXIT_MS)} of its start for the second time in a row ` +
    `(exit status ${event.status ?? 'unknown'}): fix the command or the account's setup, then run swarm up again${lines}`;
  const timers = [clearTimer(lane, 'packet', ctx.now), clearTimer(lane, 'stall', ctx.now)];
  const held = lane.phase === 'spawning' ? { ...lane, phase: 'attention' as const, phaseSince: ctx.now } : lane;
  return then({ lane: held, effects: timers }, (l) => block(l, { class: 'dependency', what, source: 'engine' }, ctx));
}

/** A successor's pane died before it accepted: try the next account (or, in a crash loop, hold the lane). */
function successorExited(lane: LaneState, event: Ev<'exited'>, ctx: MachineContext): Step {
  const spawnedAt = lane.handoff?.successor?.spawnedAt ?? null;
  const quick = spawnedAt !== null && ctx.now - spawnedAt < (ctx.quickExitMs ?? QUICK_EXIT_MS);
  const quickExits = quick ? lane.quickExits + 1 : 0;
  const why = `the successor exited before accepting (status ${event.status ?? 'unknown'})`;
  const failed = failSuccessor({ ...lane, quickExits }, why, event.paneId, ctx, quickExits < 2);
  return quickExits < 2 ? failed : then(failed, (l) => crashLoop(l, event, ctx));
}

function onPacketChecked(lane: LaneState, event: Ev<'packet_checked'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase !== 'reported' || h === null || h.packet !== event.packet) {
    return ignored(lane, event, `no check of ${event.packet} is awaited (phase ${lane.phase ?? 'none'})`, ctx.now);
  }
  if (event.reasons.length === 0) return startPick(lane, h, ctx);
  const next: LaneState = { ...lane, phase: 'rejected', phaseSince: ctx.now, handoff: { ...h, rejected: event.reasons } };
  return {
    lane: next,
    effects: [
      journal(next, 'packet_rejected', 'observation', { packet: event.packet, reasons: event.reasons }, ctx.now),
      { type: 'notify', id: effectId(next, next.generation, 'rejected', ctx.now), text: notices.rejected(event.packet, event.reasons) },
    ],
  };
}

function onLease(lane: LaneState, event: Ev<'lease'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase === 'spawning' && h !== null && h.successor === null) {
    if (event.account === null) {
      if (h.tried.length === 0) return waiting(lane, h, event.resetsAt, event.why, ctx);
      const what = `no successor accepted ${h.packet ?? 'the packet'} in time on ${h.tried.join(', ')}, and no other account is free (${event.why})`;
      return attention(lane, what, ctx);
    }
    const successor = { generation: h.from.generation + 1, account: event.account, paneId: null, deadline: ctx.now + ctx.timeouts.accept, spawnedAt: null };
    const next: LaneState = { ...lane, handoff: { ...h, successor } };
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

function onSpawned(lane: LaneState, event: Ev<'spawned'>, ctx: MachineContext): Step {
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
  // A pane nobody waits for (its successor was given up before the pane was seen): remove it.
  const kill = { type: 'kill_pane' as const, id: effectId(lane, event.generation, 'kill', event.account), paneId: event.paneId };
  return { lane, effects: [...ignored(lane, event, `pane ${event.paneId} is no awaited successor: killed`, ctx.now).effects, kill] };
}

function onSpawnFailed(lane: LaneState, event: Ev<'spawn_failed'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  const s = h?.successor ?? null;
  if (lane.phase !== 'spawning' || s === null || s.generation !== event.generation || s.account !== event.account || s.paneId !== null) {
    return ignored(lane, event, `no spawn of g${event.generation} on ${event.account} is awaited`, ctx.now);
  }
  return failSuccessor(lane, `spawn failed: ${event.error}`, null, ctx);
}

function onAccepted(lane: LaneState, event: Ev<'accepted'>, ctx: MachineContext): Step {
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
    startedAt: s.spawnedAt ?? ctx.now, lastActivity: ctx.now, stallNudged: false, gatePending: false,
  };
  const { from } = h;
  const effects: Step['effects'] = [clearTimer(lane, 'accept', ctx.now)];
  if (from.account !== null && from.account !== s.account) {
    effects.push({ type: 'release_lease', id: effectId(lane, from.generation, 'release', from.account), account: from.account });
  }
  if (from.paneId !== null) effects.push({ type: 'close_pane', id: effectId(lane, from.generation, 'close'), paneId: from.paneId });
  effects.push(journal(next, 'packet_accepted', 'observation', { packet: event.packet, account: s.account, from_generation: from.generation }, ctx.now));
  if (from.account !== null) effects.push(journal(next, 'lease_released', 'observation', { account: from.account }, ctx.now));
  if (from.paneId !== null) effects.push(journal(next, 'pane_closed', 'observation', { paneId: from.paneId }, ctx.now));
  if (lane.role === 'lead') {
    effects.push(journal(next, h.degraded ? 'lead_takeover' : 'lead_handover', 'observation', { generation: s.generation, packet: event.packet }, ctx.now));
  }
  effects.push(setTimer(next, 'stall', ctx.now + ctx.timeouts.stall));
  return { lane: next, effects };
}

function onDegradedWritten(lane: LaneState, event: Ev<'degraded_written'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (lane.phase !== 'degraded' || h === null || h.packet !== null) {
    return ignored(lane, event, `no degraded packet is awaited (phase ${lane.phase ?? 'none'})`, ctx.now);
  }
  const next: LaneState = { ...lane, handoff: { ...h, packet: event.packet } };
  const reported = journal(next, 'handoff_reported', 'observation', { packet: event.packet, reason: h.reason, degraded: true }, ctx.now);
  return then({ lane: next, effects: [reported] }, (l) => startPick(l, { ...h, packet: event.packet }, ctx));
}

function onGate(lane: LaneState, event: Ev<'gate'>, ctx: MachineContext): Step {
  if (!lane.gatePending || !isLive(lane)) return ignored(lane, event, 'no gate is running', ctx.now);
  if (event.passed) return finishDone(lane, ctx);
  const command = ctx.doneWhen ?? 'done_when';
  const next: LaneState = { ...lane, gatePending: false };
  const result = journal(next, 'lane_result', 'delegation', { result: 'gate_failed', gate: command, passed: false, output: tail(event.output, 500) }, ctx.now);
  if (lane.state === 'lost') return then({ lane: next, effects: [result] }, (l) => degrade(l, 'lane_lost', ctx));
  const notify = { type: 'notify' as const, id: effectId(next, next.generation, 'gate-failed', ctx.now), text: notices.gateFailed(command, event.output) };
  return { lane: next, effects: [result, notify] };
}

/** Stall: working (or starting), no gate running, and the agent expected to act (not mid-handoff). */
function stallWatched(lane: LaneState): boolean {
  return (lane.state === 'working' || lane.state === 'starting') && !lane.gatePending && (!handoffInFlight(lane) || lane.phase === 'rejected');
}

function onTimer(lane: LaneState, event: Ev<'timer'>, ctx: MachineContext): Step {
  const h = lane.handoff;
  const { now } = ctx;
  switch (event.timer) {
    case 'packet': {
      if (lane.phase !== 'writing' || !isLive(lane)) return { lane, effects: [] };
      const due = (lane.phaseSince ?? now) + ctx.timeouts.packet;
      if (now < due) return { lane, effects: [setTimer(lane, 'packet', due)] };
      // An agent on a permission screen cannot write: wait for the developer, then give it the full time.
      if (lane.blocked?.source === 'screen') return { lane, effects: [setTimer(lane, 'packet', now + ctx.timeouts.packet)] };
      return degrade(lane, h?.reason ?? 'capacity_critical', ctx, { why: `no packet within ${minutes(ctx.timeouts.packet)}` });
    }
    case 'accept': {
      const s = h?.successor ?? null;
      if (lane.phase !== 'spawning' || s === null) return { lane, effects: [] };
      if (now < s.deadline) return { lane, effects: [setTimer(lane, 'accept', s.deadline)] };
      return failSuccessor(lane, `no acceptance within ${minutes(ctx.timeouts.accept)}`, s.paneId, ctx);
    }
    case 'reset': {
      if (lane.phase !== 'waiting' || h === null) return { lane, effects: [] };
      if (h.retryAt !== null && now < h.retryAt) return { lane, effects: [setTimer(lane, 'reset', h.retryAt)] };
      return startPick(lane, h, ctx);
    }
    case 'stall': {
      if (!stallWatched(lane)) return { lane, effects: [] };
      const due = lane.lastActivity + ctx.timeouts.stall * (lane.stallNudged ? 2 : 1);
      if (now < due) return { lane, effects: [setTimer(lane, 'stall', due)] };
      if (lane.stallNudged) {
        return block(lane, { class: 'stalled', what: `no output and no report for ${minutes(now - lane.lastActivity)}, and none after a nudge`, source: 'engine' }, ctx);
      }
      const next: LaneState = { ...lane, stallNudged: true };
      return {
        lane: next,
        effects: [
          { type: 'notify', id: effectId(next, next.generation, 'nudge', lane.lastActivity), text: notices.nudge(ctx.timeouts.stall) },
          journal(next, 'stall_nudge', 'observation', { since: lane.lastActivity }, now),
          setTimer(next, 'stall', lane.lastActivity + 2 * ctx.timeouts.stall),
        ],
      };
    }
  }
}

/**
 * After a restart: re-emit only what is provably missing, from the saved phase and the live panes
 * (found by their `@swarm_generation`), and re-arm the deadlines.
 */
function onResume(lane: LaneState, event: Ev<'resume'>, ctx: MachineContext): Step {
  if (!isLive(lane)) return { lane, effects: [] };
  const pane = (generation: number) => event.panes.find((p) => p.generation === generation);
  const h = lane.handoff;
  let step: Step = { lane, effects: [] };
  if (lane.phase === 'reported' && h?.packet) {
    step.effects.push({ type: 'validate_packet', id: effectId(lane, lane.generation, 'validate', lane.phaseSince ?? ctx.now), packet: h.packet });
  } else if (lane.phase === 'degraded' && h !== null && h.packet === null) {
    step.effects.push(writeDegraded(lane, h.reason));
  } else if (lane.phase === 'writing') {
    step.effects.push(setTimer(lane, 'packet', (lane.phaseSince ?? ctx.now) + ctx.timeouts.packet));
  } else if (lane.phase === 'waiting' && h?.retryAt != null) {
    step.effects.push(setTimer(lane, 'reset', h.retryAt));
  } else if (lane.phase === 'spawning' && h !== null) {
    step = resumeSpawning(lane, pane, ctx);
  } else if (lane.phase === 'accepted' && h !== null) {
    const spent = pane(h.from.generation); // still open: close it (same id as the close at acceptance)
    if (spent !== undefined) step.effects.push({ type: 'close_pane', id: effectId(lane, h.from.generation, 'close'), paneId: spent.paneId });
  }
  if (handoffInFlight(step.lane) && step.lane.phase !== 'rejected') return step;
  const mine = pane(step.lane.generation);
  if (mine !== undefined && !mine.dead && step.lane.paneId !== mine.paneId) step = { ...step, lane: { ...step.lane, paneId: mine.paneId } };
  const paneId = step.lane.paneId;
  if (paneId !== null && (mine === undefined || mine.dead) && !exitRecorded(step.lane)) return then(step, (l) => onExited(l, { type: 'exited', paneId, status: null }, ctx));
  if (stallWatched(step.lane)) {
    step.effects.push(setTimer(step.lane, 'stall', step.lane.lastActivity + ctx.timeouts.stall * (step.lane.stallNudged ? 2 : 1)));
  }
  return step;
}

function resumeSpawning(lane: LaneState, pane: (g: number) => { paneId: string; dead: boolean } | undefined, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (h === null) return { lane, effects: [] };
  const s = h.successor;
  if (s === null) return { lane, effects: [pickEffect(lane, h)] };
  const found = pane(s.generation);
  if (found !== undefined && found.dead) return failSuccessor(lane, 'the successor pane died while swarm was down', found.paneId, ctx);
  if (found !== undefined) {
    if (s.paneId === found.paneId) return { lane, effects: [setTimer(lane, 'accept', s.deadline)] };
    const successor = { ...s, paneId: found.paneId, spawnedAt: s.spawnedAt ?? ctx.now };
    const next: LaneState = { ...lane, handoff: { ...h, successor } };
    const data = { account: s.account, paneId: found.paneId, for_generation: s.generation, adopted: true };
    return { lane: next, effects: [journal(next, 'successor_spawned', 'observation', data, ctx.now), setTimer(next, 'accept', s.deadline)] };
  }
  if (s.paneId !== null) return failSuccessor(lane, 'the successor pane is gone', null, ctx);
  const successor = { ...s, deadline: ctx.now + ctx.timeouts.accept };
  const next: LaneState = { ...lane, handoff: { ...h, successor } };
  return { lane: next, effects: [spawnEffect(next, h, successor), setTimer(next, 'accept', successor.deadline)] };
}
