/**
 * The lane machine after a restart (docs/engine.md): from the saved phase and the live panes, re-emit
 * only what is provably missing and re-arm the deadlines. `reduceLane` dispatches to it; pure.
 */
import { effectId, journal, pickEffect, setTimer, spawnEffect, writeDegraded } from './effects.js';
import { exitRecorded, handoffInFlight, isLive, rejectedDue, stallWatched } from './laneState.js';
import { andThen, type Ev } from './step.js';
import { failSuccessor } from './successor.js';
import { QUICK_EXIT_MS, type Effect, type LaneState, type MachineContext, type ResumedPane, type Step } from './types.js';
import { startGate } from './gate.js';
import { retireNow } from './retire.js';
import { retryFirstStart, startFailed } from './firstStart.js';
import { fallBack, startResume } from './sessionResume.js';
import { RESUME_READY_MS } from '../core/swarm/sessionResume.js';

/** How often a successor whose pane vanished while swarm was down is started again on its account. */
export const MAX_RESPAWNS = 3;

/** How the machine handles an agent's exit (`reduceLane`'s own, passed in so this file needs no machine import). */
export type OnExited = (lane: LaneState, event: Ev<'exited'>, ctx: MachineContext) => Step;

/**
 * After a restart: re-emit only what is provably missing, from the saved phase and the live panes
 * (found by their `@swarm_generation`), and re-arm the deadlines.
 */
export function onResume(lane: LaneState, event: Ev<'resume'>, ctx: MachineContext, onExited: OnExited): Step {
  const step = resumeLane(lane, event, ctx, onExited);
  const r = step.lane.retiring ?? null;
  if (r === null) return step;
  // A spent lead's pane kept open: its deadline again while it runs, else closed and released now.
  const kept = event.panes.find((p) => p.generation === r.generation && p.paneId === r.paneId);
  if (kept !== undefined && !kept.dead) return { lane: step.lane, effects: [...step.effects, setTimer(step.lane, 'retire', r.at)] };
  return andThen(step, (l) => retireNow(l, 'its pane was gone at the restart', ctx, kept === undefined));
}

function resumeLane(lane: LaneState, event: Ev<'resume'>, ctx: MachineContext, onExited: OnExited): Step {
  if (!isLive(lane)) {
    // A done lane whose agent left while swarm was down: its lease goes (onExited, as for a live exit).
    const left = lane.state === 'done' && lane.paneId !== null && !event.panes.some((p) => p.paneId === lane.paneId && !p.dead);
    return left ? onExited(lane, { type: 'exited', paneId: lane.paneId!, status: null }, ctx) : { lane, effects: [] };
  }
  if (startFailed(lane)) return retryFirstStart(lane, ctx);
  const pane = (generation: number) => event.panes.find((p) => p.generation === generation);
  if ((lane.resuming ?? null) !== null) return resumeResuming(lane, pane(lane.generation), event, ctx);
  const h = lane.handoff;
  let step: Step = { lane, effects: [] };
  const retiring = lane.retiring ?? null;
  if (lane.phase === 'reported' && h?.packet) {
    step.effects.push({ type: 'validate_packet', id: effectId(lane, lane.generation, 'validate', lane.phaseSince ?? ctx.now), packet: h.packet });
  } else if (lane.phase === 'degraded' && h !== null && h.packet === null) {
    step.effects.push(writeDegraded(lane, h.reason));
  } else if (lane.phase === 'writing') {
    step.effects.push(setTimer(lane, 'packet', (lane.phaseSince ?? ctx.now) + ctx.timeouts.packet));
  } else if (lane.phase === 'rejected') {
    step.effects.push(setTimer(lane, 'packet', rejectedDue(lane, ctx)));
  } else if (lane.phase === 'waiting' && h?.retryAt != null) {
    step.effects.push(setTimer(lane, 'reset', h.retryAt));
  } else if (lane.phase === 'spawning' && h !== null) {
    step = resumeSpawning(lane, pane, ctx);
  } else if (lane.phase === 'accepted' && h !== null && retiring?.generation !== h.from.generation && h.promoted === undefined) {
    const spent = pane(h.from.generation); // still open: close it (same id as the close at acceptance)
    if (spent !== undefined) step.effects.push({ type: 'close_pane', id: effectId(lane, h.from.generation, 'close'), paneId: spent.paneId });
  }
  // A gate in flight has no result yet: end its process if it outlived swarm, and run it again.
  if (lane.gate !== null) step = andThen(step, (l) => startGate(l, ctx, true));
  if (!isLive(step.lane)) return step;
  if (handoffInFlight(step.lane) && step.lane.phase !== 'rejected') return step;
  const mine = pane(step.lane.generation);
  // A lane killed before its start was recorded: its pane is adopted by the start (with its account and lease).
  const unstarted = step.lane.state === 'starting' && step.lane.paneId === null;
  if (mine !== undefined && !mine.dead && !unstarted && step.lane.paneId !== mine.paneId) step = { ...step, lane: { ...step.lane, paneId: mine.paneId } };
  const paneId = step.lane.paneId;
  if (paneId !== null && (mine === undefined || mine.dead) && !exitRecorded(step.lane)) {
    // Gone with its tmux server: its own session again on its own account, where it can be (SPEC 10.8).
    if (mine === undefined && event.hostGone === true && ctx.resumeSession !== undefined) {
      const choice = ctx.resumeSession;
      const resumable = (step.lane.phase === null || step.lane.phase === 'near') && step.lane.gate === null;
      if (choice.resume && resumable) return andThen(step, (l) => startResume(l, choice, paneId, ctx));
      const why = choice.resume ? `its handoff was in flight (${step.lane.phase ?? 'its gate running'})` : choice.why;
      step.effects.push(journal(step.lane, 'not_resumed', 'observation', { paneId, why }, ctx.now));
    }
    const told = mine === undefined ? { vanished: true } : { ...(mine.tail === undefined ? {} : { tail: mine.tail }), ...(mine.signal === undefined ? {} : { signal: mine.signal }) };
    return andThen(step, (l) => onExited(l, { type: 'exited', paneId, status: mine?.status ?? null, ...told }, ctx));
  }
  if (stallWatched(step.lane)) {
    step.effects.push(setTimer(step.lane, 'stall', step.lane.lastActivity + ctx.timeouts.stall * (step.lane.stallNudged ? 2 : 1)));
  }
  return step;
}

/**
 * A resume in flight when swarm went down: its pane found alive is the lane's (its deadline again), dead
 * is a failed resume, gone with the host again is resumed again (or not, as the swarm decides); not
 * made yet, its start (a pending intent) was carried out before this, so the deadline decides.
 */
function resumeResuming(lane: LaneState, found: ResumedPane | undefined, event: Ev<'resume'>, ctx: MachineContext): Step {
  const r = lane.resuming!;
  if (found !== undefined && found.dead) {
    const exit = { status: found.status ?? null, lines: (found.tail ?? '').split('\n').filter((line) => line.trim() !== '') };
    return fallBack(lane, `the resumed agent died while swarm was down (status ${found.status ?? 'unknown'})`, ctx, { exit });
  }
  if (found !== undefined) {
    // Its readiness could not be seen while swarm was down: it gets a whole window from now, not what was left of it.
    const resuming = { ...r, paneId: found.paneId, spawnedAt: r.spawnedAt ?? ctx.now, readyBy: Math.max(r.readyBy, ctx.now + RESUME_READY_MS) };
    const alive = Math.min(Math.max(resuming.spawnedAt + (ctx.quickExitMs ?? QUICK_EXIT_MS), ctx.now), resuming.readyBy);
    return { lane: { ...lane, paneId: found.paneId, resuming }, effects: [setTimer(lane, 'resume', alive)] };
  }
  if (r.paneId === null) return { lane, effects: [setTimer(lane, 'resume', r.readyBy)] };
  const choice = ctx.resumeSession;
  if (event.hostGone === true && choice !== undefined && choice.resume) return startResume({ ...lane, resuming: null }, choice, r.paneId, ctx);
  return fallBack(lane, choice !== undefined && !choice.resume ? `its pane went with its host again, and ${choice.why}` : 'its pane vanished while swarm was down', ctx);
}

/** Phase `spawning` after a restart: adopt the successor's live pane, fail a dead or vanished one, or spawn again. */
function resumeSpawning(lane: LaneState, pane: (g: number) => ResumedPane | undefined, ctx: MachineContext): Step {
  const h = lane.handoff;
  if (h === null) return { lane, effects: [] };
  const s = h.successor;
  // A promotion in place awaited: the promoted lane's handoff goes on as its own; the deadline again.
  if (s === null && (h.promotion ?? null) !== null) return { lane, effects: [setTimer(lane, 'accept', h.promotion!.deadline)] };
  if (s === null) return { lane, effects: [pickEffect(lane, h)] };
  const found = pane(s.generation);
  if (found !== undefined && found.dead) return failSuccessor(lane, 'the successor pane died while swarm was down', found.paneId, ctx, true, found.tail ?? null);
  if (found !== undefined) {
    if (s.paneId === found.paneId) return { lane, effects: [setTimer(lane, 'accept', s.deadline)] };
    const successor = { ...s, paneId: found.paneId, spawnedAt: s.spawnedAt ?? ctx.now };
    const next: LaneState = { ...lane, handoff: { ...h, successor } };
    const data = { account: s.account, paneId: found.paneId, for_generation: s.generation, adopted: true };
    return { lane: next, effects: [journal(next, 'successor_spawned', 'observation', data, ctx.now), setTimer(next, 'accept', s.deadline)] };
  }
  if (s.paneId !== null) {
    // Gone with no death while swarm was down (its tmux server went, or it was closed from tmux): the
    // account is not to blame. It is started again on the same account, still leased to it: once per
    // loss (a night may lose its tmux server more than once), at most MAX_RESPAWNS times.
    const respawns = s.respawns ?? (s.respawned === true ? 1 : 0);
    if (respawns >= MAX_RESPAWNS) return failSuccessor(lane, `the successor pane is gone (${respawns} times)`, null, ctx);
    const { respawned: _older, ...kept } = s;
    const successor = { ...kept, paneId: null, spawnedAt: null, respawns: respawns + 1, deadline: ctx.now + ctx.timeouts.accept };
    const next: LaneState = { ...lane, handoff: { ...h, successor } };
    // Each start its own effect id (the first keeps the id it always had).
    const tag = respawns === 0 ? ['respawn'] : ['respawn', respawns + 1];
    const respawn: Effect = { ...spawnEffect(next, h, successor), id: effectId(next, successor.generation, ...tag, successor.account) };
    const data = { account: s.account, paneId: s.paneId, for_generation: s.generation, why: 'its pane vanished while swarm was down', time: respawns + 1 };
    return { lane: next, effects: [journal(next, 'successor_respawned', 'observation', data, ctx.now), respawn, setTimer(next, 'accept', successor.deadline)] };
  }
  const successor = { ...s, deadline: ctx.now + ctx.timeouts.accept };
  const next: LaneState = { ...lane, handoff: { ...h, successor } };
  return { lane: next, effects: [spawnEffect(next, h, successor), setTimer(next, 'accept', successor.deadline)] };
}
