/**
 * An agent's exit, as the lane machine decides it: its last words journaled, then a degraded packet
 * and a successor, a crash loop held, or a successor that died before accepting replaced. Pure.
 */
import { spokenDuration } from '../core/config/duration.js';
import { block } from './block.js';
import { retireNow } from './retire.js';
import { degrade } from './degrade.js';
import { doneAgentLeft } from './doneExit.js';
import { clearTimer, journal } from './effects.js';
import { exitRecorded, handoffInFlight, isLive } from './laneState.js';
import { exitOf } from './lastWords.js';
import { tail } from './notices.js';
import { andThen, ignored, type Ev } from './step.js';
import { failSuccessor } from './successor.js';
import { QUICK_EXIT_MS, type AgentExit, type LaneState, type MachineContext, type Step } from './types.js';

/**
 * The signals someone sends (hang-up, interrupt, quit, kill, terminate): an agent ended by one was
 * stopped from outside, which says nothing of its command or its account, so such an end does not
 * count towards a crash loop (a crash of its own, SIGSEGV or SIGABRT, does).
 */
const SENT = new Set([1, 2, 3, 9, 15]);
const sentSignal = (event: Ev<'exited'>): boolean => event.signal !== undefined && SENT.has(event.signal);

export function onExited(lane: LaneState, event: Ev<'exited'>, ctx: MachineContext): Step {
  // The stale lead, kept open after its successor accepted, ended its turn: its pane goes now.
  if (lane.retiring?.paneId === event.paneId) return retireNow(lane, 'its agent ended', ctx);
  if (!isLive(lane)) return doneAgentLeft(lane, event, ctx);
  const h = lane.handoff;
  const s = h?.successor ?? null;
  if (lane.phase === 'spawning' && h !== null && s !== null && s.paneId === event.paneId) return successorExited(lane, event, ctx);
  if (event.paneId !== lane.paneId) return ignored(lane, event, `pane ${event.paneId} is not the lane's current pane`, ctx.now);
  if (exitRecorded(lane)) return ignored(lane, event, 'the exit of this agent is already recorded', ctx.now);
  const exit = exitOf(event);
  const data = { paneId: event.paneId, status: event.status, ...(event.signal === undefined ? {} : { signal: event.signal }) };
  const exited = (extra: Record<string, unknown> = {}) =>
    journal(lane, 'agent_exited', 'observation', { ...data, last_lines: exit.lines, ...extra }, ctx.now);
  if (lane.gate !== null) return { lane: { ...lane, state: 'lost' }, effects: [exited()] };
  if (handoffInFlight(lane) && lane.phase !== 'rejected') {
    return { lane: h === null ? lane : { ...lane, handoff: { ...h, spentExited: true } }, effects: [exited({ expected: true })] };
  }
  // A pane found gone on a restart went with its tmux server (or was closed), an agent killed from
  // outside was stopped: neither is an exit of the agent's own.
  const quick = ctx.now - lane.startedAt < (ctx.quickExitMs ?? QUICK_EXIT_MS);
  const quickExits = event.vanished === true || sentSignal(event) ? lane.quickExits : quick ? lane.quickExits + 1 : 0;
  const told: Step = { lane, effects: [exited()] };
  if (quickExits >= 2) return andThen(told, (l) => crashLoop({ ...l, quickExits }, exit, ctx));
  return andThen(told, (l) => degrade({ ...l, quickExits, state: 'lost', blocked: null }, 'lane_lost', ctx, data, exit));
}

/** The second exit in a row within quickExitMs of a start: blocked dependency, no successor. */
function crashLoop(lane: LaneState, exit: AgentExit, ctx: MachineContext): Step {
  const what = `the agent exited within ${spokenDuration(ctx.quickExitMs ?? QUICK_EXIT_MS)} of its start for the second time in a row ` +
    `(exit status ${exit.status ?? 'unknown'}): fix the command or the account's setup, then run swarm up again` +
    (exit.lines.length === 0 ? '' : `\nlast lines of the pane:\n${tail(exit.lines.join('\n'), 1500)}`);
  const timers = [clearTimer(lane, 'packet', ctx.now), clearTimer(lane, 'stall', ctx.now)];
  const held = lane.phase === 'spawning' ? { ...lane, phase: 'attention' as const, phaseSince: ctx.now } : lane;
  return andThen({ lane: held, effects: timers }, (l) => block(l, { class: 'dependency', what, source: 'engine' }, ctx));
}

/** A successor's pane died before it accepted: try the next account (or, in a crash loop, hold the lane). */
function successorExited(lane: LaneState, event: Ev<'exited'>, ctx: MachineContext): Step {
  const s = lane.handoff?.successor ?? null;
  const spawnedAt = s?.spawnedAt ?? null;
  const quick = spawnedAt !== null && ctx.now - spawnedAt < (ctx.quickExitMs ?? QUICK_EXIT_MS);
  const quickExits = sentSignal(event) ? lane.quickExits : quick ? lane.quickExits + 1 : 0;
  const exit = exitOf(event);
  const data = { paneId: event.paneId, status: event.status, ...(event.signal === undefined ? {} : { signal: event.signal }), last_lines: exit.lines, successor: true, ...(s === null ? {} : { for_generation: s.generation, account: s.account }) };
  const told: Step = { lane, effects: [journal(lane, 'agent_exited', 'observation', data, ctx.now)] };
  const why = `the successor exited before accepting (status ${event.status ?? 'unknown'})`;
  const lines = exit.lines.length === 0 ? null : exit.lines.join('\n');
  const failed = andThen(told, (l) => failSuccessor({ ...l, quickExits }, why, event.paneId, ctx, quickExits < 2, lines));
  return quickExits < 2 ? failed : andThen(failed, (l) => crashLoop(l, exit, ctx));
}
