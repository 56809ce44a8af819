/**
 * The lane machine's vocabulary (docs/engine.md): lane state, events in, effects out, and the small
 * helpers every transition shares (effect ids, journal entries, notices). Pure.
 */
import type { CapacityState, EscalationClass, Report } from '../core/protocol.js';
import type { PacketReason } from '../core/packet.js';
import type { Decision } from '../core/thresholds.js';

export type LaneStatus = 'starting' | 'working' | 'blocked' | 'done' | 'lost' | 'stopped';
export type Phase =
  | 'near' | 'writing' | 'reported' | 'spawning' | 'accepted' | 'rejected' | 'waiting' | 'degraded' | 'attention' | 'stopped';
export type ScreenClass = 'usage_limit' | 'overflow' | 'permission' | 'bypass' | 'login' | 'consent' | 'payment';
export type TimerName = 'accept' | 'packet' | 'stall' | 'reset';
export type BlockClass = EscalationClass | 'bypass';
/** The screens that stop a successor at its start: its account is not ready. */
export type StartScreen = 'login' | 'consent' | 'payment' | 'bypass' | 'offline';
export const START_SCREENS: readonly StartScreen[] = ['login', 'consent', 'payment', 'bypass', 'offline'];

/**
 * Why a lane is blocked. `source` says what can unblock it: a screen going away, a new report, the
 * agent's own signal that its turn went on (a Claude Code hook), or a human.
 */
export interface Blocked { class: BlockClass; what: string; source: 'report' | 'screen' | 'signal' | 'engine' }

/** What an agent's structured signal (hook, status line, rollout) means to its lane. */
export type SignalClass = 'usage_limit' | 'overflow' | 'payment' | 'login' | 'permission' | 'handoff_now' | 'turn_end';

export interface Successor {
  generation: number; account: string; paneId: string | null;
  /** Epoch ms by which it must accept. */
  deadline: number;
  /** When its pane was seen (spawned or adopted); null until then. For the crash-loop rule. */
  spawnedAt: number | null;
}

export interface Handoff {
  /** Absolute path; the identity of the handoff (null until reported/degraded). */
  packet: string | null;
  reason: PacketReason;
  degraded: boolean;
  from: { generation: number; account: string | null; paneId: string | null };
  successor: Successor | null;
  /** Accounts tried for this handoff (successors that failed to accept). */
  tried: string[];
  /** Reasons of the last rejection. */
  rejected: string[];
  /** pick_account effects emitted so far: the pick's effect id, stable across a restart. */
  picks: number;
  /** While `waiting`: when to pick again (epoch ms). */
  retryAt: number | null;
  /** mark_limited already emitted for the spent account. */
  accountLimited: boolean;
  /** Why each tried successor failed, and its pane's last lines when known (issue 9 §5); absent in older states. */
  failures?: Failure[];
}

export interface Failure { account: string; why: string; lines: string | null }

export interface LaneState {
  name: string; role: 'lane' | 'lead';
  generation: number; account: string | null; paneId: string | null;
  state: LaneStatus; phase: Phase | null; phaseSince: number | null;
  blocked: Blocked | null;
  /** Last capacity line verbatim. */
  capacity: string | null;
  capacityState: CapacityState; remainingPct: number | null; contextPct: number | null;
  /** Last report text (first line). */
  last: string | null;
  startedAt: number; lastActivity: number;
  /** Consecutive exits within quickExitMs of start. */
  quickExits: number;
  /** The generation that already got the near notice. */
  nearGeneration: number | null;
  stallNudged: boolean;
  gatePending: boolean;
  handoff: Handoff | null;
}

export interface MachineContext {
  now: number;
  maxGenerations: number;
  timeouts: { accept: number; packet: number; stall: number };
  /** The lane's gate. */
  doneWhen: string | null;
  /** Default 15000. */
  quickExitMs?: number;
  /** Default 15 min, when no reset time is known. */
  waitRetryMs?: number;
}

export type LaneEvent =
  | { type: 'started'; generation: number; account: string; paneId: string }
  | { type: 'report'; generation: number; report: Report }
  | { type: 'verdict'; generation: number; decision: Decision; state: CapacityState; remainingPct: number | null; contextPct: number | null }
  | { type: 'output' }
  | { type: 'screen'; screen: ScreenClass | null; text?: string }
  /** An agent's own signal (hooks, status line, rollout); `resetsAt`: when a usage-limited account is free again. */
  | { type: 'signal'; generation: number; signal: SignalClass; what: string; resetsAt: string | null }
  /** `tail`: the pane's last lines, quoted in a crash-loop escalation. */
  | { type: 'exited'; paneId: string; status: number | null; tail?: string }
  | { type: 'packet_checked'; packet: string; reasons: string[] }
  /** `noneReady`: no account is free and every one the pick refused, besides the lead's and those tried, is not ready. */
  | { type: 'lease'; account: string | null; resetsAt: string | null; why: string; noneReady?: boolean }
  /** A successor's pane shows a screen that stops it before it accepts (login, consent, payment, bypass, offline). */
  /** `text`: the matched screen lines; `lines`: the pane's last lines (quoted when no account is left). */
  | { type: 'successor_screen'; generation: number; account: string; paneId: string; screen: StartScreen; text: string; lines?: string }
  | { type: 'spawned'; generation: number; account: string; paneId: string }
  | { type: 'spawn_failed'; generation: number; account: string; error: string }
  | { type: 'accepted'; generation: number; packet: string }
  | { type: 'degraded_written'; packet: string }
  | { type: 'gate'; passed: boolean; output: string }
  | { type: 'timer'; timer: TimerName }
  /** A lease was released somewhere in the swarm: a `waiting` lane picks again now, not at its retry time. */
  | { type: 'account_freed'; account: string }
  | { type: 'resume'; panes: { generation: number; paneId: string; dead: boolean }[] };

export type JournalKind = 'delegation' | 'observation' | 'intervention';

/** Every effect has a stable `id` (`lane-a/g2/spawn/work3`) so the executor runs it exactly once. */
export type Effect =
  | { type: 'journal'; id: string; event: string; kind: JournalKind; data: Record<string, unknown> }
  | { type: 'notify'; id: string; text: string }
  | { type: 'tell_lead'; id: string; text: string }
  | { type: 'validate_packet'; id: string; packet: string }
  | { type: 'pick_account'; id: string; exclude: string[]; preferOtherThan: string | null }
  | { type: 'spawn'; id: string; generation: number; account: string; packet: string }
  | { type: 'kill_pane'; id: string; paneId: string }
  | { type: 'close_pane'; id: string; paneId: string }
  | { type: 'release_lease'; id: string; account: string }
  | { type: 'mark_limited'; id: string; account: string; resetsAt: string | null }
  | { type: 'mark_not_ready'; id: string; account: string; why: string }
  | { type: 'write_degraded'; id: string; reason: PacketReason; generation: number }
  | { type: 'escalate'; id: string; class: BlockClass; what: string }
  | { type: 'run_gate'; id: string; command: string }
  | { type: 'set_timer'; id: string; timer: TimerName; at: number }
  | { type: 'clear_timer'; id: string; timer: TimerName };

export interface Step { lane: LaneState; effects: Effect[] }

export const QUICK_EXIT_MS = 15_000;
export const WAIT_RETRY_MS = 15 * 60_000;
export const MAX_GENERATIONS_HINT = 'the window or thresholds are probably set too low';

/** A fresh lane before its first agent started: generation 1, no pane, no handoff. */
export function initialLane(input: { name: string; role: 'lane' | 'lead'; account: string | null; now: number }): LaneState {
  return {
    name: input.name, role: input.role, generation: 1, account: input.account, paneId: null,
    state: 'starting', phase: null, phaseSince: null, blocked: null,
    capacity: null, capacityState: 'unknown', remainingPct: null, contextPct: null, last: null,
    startedAt: input.now, lastActivity: input.now, quickExits: 0, nearGeneration: null,
    stallNudged: false, gatePending: false, handoff: null,
  };
}

const IN_FLIGHT: ReadonlySet<Phase> = new Set<Phase>(['reported', 'spawning', 'waiting', 'degraded', 'rejected', 'attention']);

/** The phases from which a handoff is in flight (hysteresis: capacity no longer matters). */
export function handoffInFlight(lane: LaneState): boolean {
  return lane.phase !== null && IN_FLIGHT.has(lane.phase);
}

/** An effect id: `<lane>/g<generation>/<parts…>`. */
export function effectId(lane: LaneState, generation: number, ...parts: (string | number)[]): string {
  return [lane.name, `g${generation}`, ...parts].join('/');
}

/** A journal effect; `tag` makes its id unique (defaults to the event time). */
export function journal(
  lane: LaneState, event: string, kind: JournalKind, data: Record<string, unknown>, tag: string | number,
): Effect {
  return { type: 'journal', id: effectId(lane, lane.generation, event, tag), event, kind, data };
}

/** The event changed nothing: the same lane, and one journal entry saying why. */
export function ignored(lane: LaneState, event: LaneEvent, why: string, now: number): Step {
  return { lane, effects: [journal(lane, 'ignored', 'observation', { event: event.type, why }, `${event.type}@${now}`)] };
}

export function setTimer(lane: LaneState, timer: TimerName, at: number): Effect {
  return { type: 'set_timer', id: effectId(lane, lane.generation, 'timer', timer, at), timer, at };
}

export function clearTimer(lane: LaneState, timer: TimerName, now: number): Effect {
  return { type: 'clear_timer', id: effectId(lane, lane.generation, 'timer', timer, `clear@${now}`), timer };
}

/** `12 min`, `45 s`, `500 ms`: a duration as a person reads it. */
export function minutes(ms: number): string {
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

export const notices = {
  near: (lane: Pick<LaneState, 'capacityState' | 'remainingPct' | 'contextPct'>): string =>
    `swarm: you are running low (capacity ${lane.capacityState}${lane.remainingPct === null ? '' : ` ${lane.remainingPct}%`}` +
    `${lane.contextPct === null ? '' : `, context ${lane.contextPct}%`}). Finish your current step, then hand off: ` +
    'write your packet with `swarm packet write` and report `handoff <packet path>`.',
  write: (ms: number): string =>
    'swarm: hand off now. Write your packet with `swarm packet write --reason R --doing TEXT --next STEP` ' +
    `and report \`handoff <packet path>\` within ${minutes(ms)}, or swarm writes a degraded packet for you.`,
  rejected: (packet: string, reasons: string[]): string =>
    `swarm: your packet ${packet} was rejected:\n${reasons.map((r) => `- ${r}`).join('\n')}\n` +
    'Fix it and report `handoff <packet path>` again.',
  nudge: (ms: number): string =>
    `swarm: no output and no report for ${minutes(ms)}. If you are stuck, report \`blocked <class> <what you need>\`; ` +
    'otherwise carry on and report at your next work boundary.',
  gateFailed: (command: string, output: string): string =>
    `swarm: your \`done\` gate \`${command}\` failed, so the lane is still working. Its output (last part):\n${tail(output, 2000)}`,
};

/** The last `max` characters of a text, marked as cut when cut. */
export function tail(text: string, max: number): string {
  const trimmed = text.trimEnd();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(trimmed.length - max + 1)}`;
}

/** One escalation: the journal entry and the effect that runs notify_command and tells the lead. */
export function escalation(lane: LaneState, cls: BlockClass, what: string, source: Blocked['source'], now: number): Effect[] {
  return [
    journal(lane, 'escalation', 'intervention', { class: cls, what, source }, now),
    { type: 'escalate', id: effectId(lane, lane.generation, 'escalate', cls, now), class: cls, what },
  ];
}

// ---- Handoff steps shared by several transitions ----

export function freshHandoff(lane: LaneState, reason: PacketReason, degraded: boolean): Handoff {
  return {
    packet: null, reason, degraded, from: { generation: lane.generation, account: lane.account, paneId: lane.paneId },
    successor: null, tried: [], rejected: [], picks: 0, retryAt: null, accountLimited: false,
  };
}

/** The pick of the handoff's latest attempt: never the spent account nor one tried, another vendor preferred. */
export function pickEffect(lane: LaneState, h: Handoff): Effect {
  const exclude = [...new Set([...(h.from.account === null ? [] : [h.from.account]), ...h.tried])];
  return { type: 'pick_account', id: effectId(lane, h.from.generation + 1, 'pick', h.picks), exclude, preferOtherThan: h.from.account };
}

export function spawnEffect(lane: LaneState, h: Handoff, s: Successor): Effect {
  return { type: 'spawn', id: effectId(lane, s.generation, 'spawn', s.account), generation: s.generation, account: s.account, packet: h.packet ?? '' };
}

export function writeDegraded(lane: LaneState, reason: PacketReason): Effect {
  return { type: 'write_degraded', id: effectId(lane, lane.generation, 'degraded', lane.phaseSince ?? 0), reason, generation: lane.generation };
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
  const next: LaneState = { ...lane, phase: 'waiting', phaseSince: ctx.now, handoff: { ...h, retryAt } };
  const data = { resetsAt, why, retryAt: new Date(retryAt).toISOString() };
  return { lane: next, effects: [journal(next, 'waiting_for_reset', 'observation', data, ctx.now), setTimer(next, 'reset', retryAt)] };
}

/** Successors failed on every account tried: one escalation, the lane held (blocked dependency) until a human acts. */
export function attention(lane: LaneState, what: string, ctx: MachineContext): Step {
  const next: LaneState = { ...lane, phase: 'attention', phaseSince: ctx.now, state: 'blocked', blocked: { class: 'dependency', what, source: 'engine' } };
  return { lane: next, effects: [clearTimer(next, 'accept', ctx.now), ...escalation(next, 'dependency', what, 'engine', ctx.now)] };
}

/** swarm writes the fallback packet (or, at max_generations, stops the lane). */
export function degrade(lane: LaneState, reason: PacketReason, ctx: MachineContext, data: Record<string, unknown> = {}): Step {
  if (lane.generation >= ctx.maxGenerations) return stop(lane, null, reason, ctx);
  const next: LaneState = { ...lane, phase: 'degraded', phaseSince: ctx.now, handoff: freshHandoff(lane, reason, true) };
  const event = lane.role === 'lead' ? 'lead_takeover' : 'degraded_handoff';
  return {
    lane: next,
    effects: [
      clearTimer(next, 'packet', ctx.now),
      journal(next, event, 'observation', { ...data, reason, from_generation: lane.generation }, ctx.now),
      writeDegraded(next, reason),
    ],
  };
}

/** A handoff from generation max_generations: there is no further generation. */
export function stop(lane: LaneState, packet: string | null, reason: PacketReason, ctx: MachineContext): Step {
  const handoff: Handoff = { ...freshHandoff(lane, reason, packet === null), packet };
  const next: LaneState = { ...lane, state: 'stopped', phase: 'stopped', phaseSince: ctx.now, handoff };
  const what = `${lane.name} handed off from generation ${lane.generation}, its max_generations (${ctx.maxGenerations}): ` +
    `there is no further generation; ${MAX_GENERATIONS_HINT}`;
  return {
    lane: next,
    effects: [
      clearTimer(next, 'packet', ctx.now),
      clearTimer(next, 'stall', ctx.now),
      journal(next, 'max_generations', 'observation', { packet, reason, max: ctx.maxGenerations }, ctx.now),
      ...escalation(next, 'decision', what, 'engine', ctx.now),
    ],
  };
}
