/**
 * A lane's own session started again after its tmux server went (SPEC 10.8). The swarm's reducer
 * decides whether a lane resumes (core/swarm/sessionResume.ts); this carries it out: the resume's
 * pane, its readiness, and its fallback to the degraded packet and a successor. Pure.
 *
 * The resumed agent keeps its generation and its account. It is ready at the first sign of its own:
 * a report, a signal (a hook, a turn end), its session told again (Claude Code's SessionStart), or —
 * for a kind that tells nothing at its start — its pane having printed and lived QUICK_EXIT_MS. It
 * falls back when its pane cannot be made, it exits before it is ready, it shows a screen that stops
 * an agent at its start (its account is then not ready), or it is not ready RESUME_READY_MS after the
 * resume began.
 */
import { RESUME_READY_MS, type ResumeChoice } from '../core/swarm/sessionResume.js';
import { degrade } from './degrade.js';
import { clearTimer, effectId, journal, setTimer } from './effects.js';
import { exitOf } from './lastWords.js';
import { stallWatched } from './laneState.js';
import { andThen, ignored, type Ev } from './step.js';
import { QUICK_EXIT_MS, START_SCREENS, type AgentExit, type LaneEvent, type LaneState, type MachineContext, type Resuming, type Step } from './types.js';

/** The lane's pane went with its host: its own session is started again on its own account. */
export function startResume(lane: LaneState, choice: Extract<ResumeChoice, { resume: true }>, gonePane: string | null, ctx: MachineContext): Step {
  const count = (lane.resumes?.generation === lane.generation ? lane.resumes.count : 0) + 1;
  const resuming: Resuming = { sessionId: choice.sessionId, account: choice.account, since: ctx.now, paneId: null, spawnedAt: null, readyBy: ctx.now + RESUME_READY_MS };
  const next: LaneState = { ...lane, paneId: null, resuming, resumes: { generation: lane.generation, count } };
  return {
    lane: next,
    effects: [
      { type: 'resume_session', id: effectId(next, next.generation, 'resume', count), generation: next.generation, account: choice.account, sessionId: choice.sessionId },
      setTimer(next, 'resume', resuming.readyBy),
      ...(gonePane === null ? [] : [journal(next, 'agent_exited', 'observation', { paneId: gonePane, status: null, vanished: true, last_lines: [], resumed: true }, ctx.now)]),
    ],
  };
}

/**
 * An event while a resume is in flight: the resume's own, and those that say it is ready or it failed;
 * null for an event that means nothing to the resume (the machine handles it as ever).
 */
export function whileResuming(lane: LaneState, event: LaneEvent, ctx: MachineContext): Step | null {
  const r = lane.resuming ?? null;
  if (r === null) return null;
  switch (event.type) {
    case 'resume_spawned':
      return event.generation === lane.generation ? spawned(lane, r, event, ctx) : ignored(lane, event, `generation ${event.generation} is not the lane's g${lane.generation}`, ctx.now);
    case 'resume_failed':
      return event.generation === lane.generation ? fallBack(lane, `its pane could not be made: ${event.error}`, ctx) : ignored(lane, event, `generation ${event.generation} is not the lane's g${lane.generation}`, ctx.now);
    case 'exited': {
      if (r.paneId === null || event.paneId !== r.paneId) return null;
      const quick = r.spawnedAt !== null && ctx.now - r.spawnedAt < (ctx.quickExitMs ?? QUICK_EXIT_MS);
      const exit = exitOf(event);
      const data = { paneId: event.paneId, status: event.status, last_lines: exit.lines, resumed: true, ...(event.signal === undefined ? {} : { signal: event.signal }) };
      const told: Step = { lane, effects: [journal(lane, 'agent_exited', 'observation', data, ctx.now)] };
      const why = `the resumed agent exited (status ${event.status ?? 'unknown'}) ${quick ? 'within' : 'more than'} ${Math.round((ctx.quickExitMs ?? QUICK_EXIT_MS) / 1000)} s of its start, before it was ready`;
      return andThen(told, (l) => fallBack(l, why, ctx, { exit }));
    }
    case 'screen': {
      const start = event.screen !== null && (START_SCREENS as readonly string[]).includes(event.screen) ? event.screen : null;
      if (start === null || r.paneId === null) return null;
      const text = event.text === undefined || event.text.trim() === '' ? '' : `: "${event.text.trim().slice(0, 300)}"`;
      return fallBack(lane, `the resumed agent shows a ${start} screen${text}`, ctx, { notReady: `a ${start} screen when its session was resumed` });
    }
    case 'report':
    case 'signal':
      return event.generation === lane.generation && r.paneId !== null ? ready(lane, ctx) : null;
    case 'session_told':
      return event.generation === lane.generation && r.paneId !== null ? ready(lane, ctx) : { lane, effects: [] };
    case 'timer':
      return event.timer === 'resume' ? onResumeTimer(lane, r, ctx) : null;
    default:
      return null;
  }
}

/** The events that say a resumed agent is ready and then go on to the machine as ever. */
export const READY_AND_ON: ReadonlySet<LaneEvent['type']> = new Set(['report', 'signal']);

function spawned(lane: LaneState, r: Resuming, event: Ev<'resume_spawned'>, ctx: MachineContext): Step {
  if (r.paneId === event.paneId) return { lane, effects: [] };
  const resuming: Resuming = { ...r, paneId: event.paneId, spawnedAt: ctx.now };
  const next: LaneState = { ...lane, paneId: event.paneId, resuming, lastActivity: ctx.now, stallNudged: false };
  const alive = Math.min(ctx.now + (ctx.quickExitMs ?? QUICK_EXIT_MS), r.readyBy);
  const data = { session_id: r.sessionId, account: r.account, paneId: event.paneId, generation: lane.generation, time: lane.resumes?.count ?? 1 };
  return {
    lane: next,
    effects: [
      journal(next, 'session_resumed', 'observation', data, ctx.now),
      setTimer(next, 'resume', alive),
      ...(stallWatched(next) ? [setTimer(next, 'stall', ctx.now + ctx.timeouts.stall)] : []),
    ],
  };
}

/** The resume's deadline: ready once its pane printed and lived QUICK_EXIT_MS; not ready by `readyBy`, replaced. */
function onResumeTimer(lane: LaneState, r: Resuming, ctx: MachineContext): Step {
  const quick = ctx.quickExitMs ?? QUICK_EXIT_MS;
  if (r.spawnedAt !== null && ctx.now >= r.spawnedAt + quick && lane.lastActivity > r.spawnedAt) return ready(lane, ctx);
  if (ctx.now >= r.readyBy) {
    const what = r.paneId === null ? 'its pane was never made' : lane.lastActivity > (r.spawnedAt ?? r.since) ? 'it told nothing' : 'its pane printed nothing';
    return fallBack(lane, `the resumed agent was not ready within ${Math.round(RESUME_READY_MS / 1000)} s (${what})`, ctx);
  }
  const at = r.spawnedAt !== null && ctx.now < r.spawnedAt + quick ? r.spawnedAt + quick : r.readyBy;
  return { lane, effects: [setTimer(lane, 'resume', at)] };
}

/** The resumed agent is ready: the lane goes on with it. */
function ready(lane: LaneState, ctx: MachineContext): Step {
  return { lane: { ...lane, resuming: null }, effects: [clearTimer(lane, 'resume', ctx.now)] };
}

/**
 * The resume failed: journaled with why, its pane (if any) ended, its account marked not ready when a
 * start screen said so, then the degraded packet and a successor as for any agent lost.
 */
export function fallBack(lane: LaneState, why: string, ctx: MachineContext, opts: { exit?: AgentExit; notReady?: string } = {}): Step {
  const r = lane.resuming ?? null;
  if (r === null) return { lane, effects: [] };
  const live = r.paneId !== null && opts.exit === undefined;
  const effects = [
    clearTimer(lane, 'resume', ctx.now),
    journal(lane, 'resume_failed', 'observation', { session_id: r.sessionId, account: r.account, why }, ctx.now),
    ...(live ? [{ type: 'close_pane' as const, id: effectId(lane, lane.generation, 'resume', 'close', lane.resumes?.count ?? 1), paneId: r.paneId!, generation: lane.generation }] : []),
    ...(opts.notReady === undefined ? [] : [{ type: 'mark_not_ready' as const, id: effectId(lane, lane.generation, 'resume', 'not-ready', r.account), account: r.account, why: opts.notReady }]),
  ];
  const next: LaneState = { ...lane, resuming: null, state: 'lost', blocked: null };
  const data = { paneId: r.paneId, status: opts.exit?.status ?? null, resume_failed: why };
  return andThen({ lane: next, effects }, (l) => degrade(l, 'lane_lost', ctx, data, opts.exit ?? null));
}
