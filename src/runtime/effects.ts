/**
 * Carries out the lane machine's effects with the adapters, and turns their results back into
 * events (deadlines and account marks never get here: the reducer made them state). It decides nothing: every choice was made by the reducer. Each consequential effect is
 * idempotent by the lane and generation it serves, so running an intent twice after a crash does
 * the work once.
 */
import { basename } from 'node:path';
import { execa } from 'execa';
import type { Account } from '../core/config/config.js';
import type { Effect, LaneEvent, LaneState } from '../machine/types.js';
import { reviewerName } from '../machine/review.js';
import { degradedPacket, rejectedInPlan, serializePacket } from '../core/packet/packet.js';
import { validatePacket } from '../core/packet/check.js';
import { resumeBrief } from '../core/packet/brief.js';
import { pick, type PickInput } from '../core/accounts/leases.js';
import { planPaths } from '../core/plan/paths.js';
import type { Sender } from '../core/protocol/mailbox.js';
import { runOf } from '../core/swarm/runs.js';
import { writePaneLog } from '../adapters/paneLogs.js';
import { planContractOf } from '../adapters/planFile.js';
import { gitState, type GitState } from '../adapters/git.js';
import { checkoutState } from './checkoutState.js';
import { endGate, findGate, gateRun, startGate } from '../adapters/gate.js';
import { acquireLease, readLeases, releaseLease, type LeaseStore } from '../adapters/leaseFiles.js';
import { packetFileName, readPacketFile, recordAcceptance, rewritePacketFile, writePacketFile } from '../adapters/packetFile.js';
import { parsePacket } from '../core/packet/packet.js';
import { isoNow } from './clock.js';
import type { SwarmConfig } from '../core/config/config.js';
import type { LeadRecord } from '../core/lead/epochs.js';
import type { SwarmEvent } from '../core/swarm/events.js';
import type { Kinds } from '../kinds/index.js';
import type { PaneHost } from '../adapters/host.js';
import type { JournalInput } from '../adapters/journal.js';
import type { Clock } from './clock.js';
import type { EngineState } from './engineState.js';

/** What carrying out the lane machine's effects needs of the engine (not the engine: no import cycle). */
export interface EffectsEngine {
  readonly config: SwarmConfig;
  readonly host: PaneHost;
  readonly env: NodeJS.ProcessEnv;
  readonly kinds: Kinds;
  readonly state: EngineState;
  readonly leases: LeaseStore;
  /** Start the lanes that have no agent yet (a first start that waited for an account). */
  startAgain(): Promise<void>;
  readonly clock: Clock;
  now(): number;
  lane(name: string): LaneState | undefined;
  journal(input: JournalInput): unknown;
  deliver(to: string, from: Sender, text: string, about?: string): void;
  leadMailbox(): string;
  agentName(lane: LaneState): string;
  checkoutOf(name: string): string;
  taskOf(name: string): string;
  leadRecord(): LeadRecord | null;
  leadAccount(): string;
  accountsInUse(): Map<string, string>;
  dispatch(lane: string, event: LaneEvent): void;
  dispatch(event: SwarmEvent): void;
  spawnSuccessor(lane: LaneState, generation: number, account: string, packet: string): Promise<LaneEvent>;
  /** Start the lane's own session again (SPEC 10.8): `resume_spawned` or `resume_failed`. */
  resumeSession(lane: LaneState, effect: Extract<Effect, { type: 'resume_session' }>): Promise<LaneEvent>;
  /** The lead lane takes over a promoted agent's pane (runtime/promotion.ts). */
  adoptPane(effect: Extract<Effect, { type: 'adopt_pane' }>): Promise<void>;
  /** A lane's reviewers (runtime/reviewers.ts); null where none were installed. */
  readonly reviewers: {
    pick(lane: LaneState, effect: Extract<Effect, { type: 'pick_reviewer' }>): LaneEvent;
    spawn(lane: LaneState, effect: Extract<Effect, { type: 'spawn_reviewer' }>): Promise<LaneEvent>;
  } | null;
}
import { runnablePool } from './runnable.js';
import { handoffExclusions } from '../core/swarm/exclusions.js';
import { journalSkips, notReadyAccounts } from './readyAccounts.js';

/** Swarm's own messages (notices, escalations) carry its name in the mailbox header. */
const SWARM: Sender = { kind: 'swarm' };

export async function runEffect(engine: EffectsEngine, laneName: string, effect: Effect, intent?: string): Promise<void> {
  const lane = engine.lane(laneName);
  if (!lane) return;
  faultPoint(engine, `before:${effect.type}`);
  await carryOut(engine, laneName, lane, effect, intent);
}

/**
 * Crash-consistency tests only: SWARM_FAULT=before:<effect>|after:<effect> kills the engine with
 * SIGKILL at that point, as a power cut would, so a restart must finish the intent exactly once.
 */
export function faultPoint(engine: EffectsEngine, point: string): void {
  if (engine.env.SWARM_FAULT === point) process.kill(process.pid, 'SIGKILL');
}

async function carryOut(engine: EffectsEngine, laneName: string, lane: LaneState, effect: Effect, intent: string | undefined): Promise<void> {
  const plan = engine.config.plan;
  switch (effect.type) {
    case 'journal':
      engine.journal({ type: effect.kind, event: effect.event, lane: lane.name, generation: lane.generation, ...effect.data, ...(intent === undefined ? {} : { intent }) });
      faultPoint(engine, `after:journal:${effect.event}`); // the line written, its intent not yet marked done
      return;
    case 'notify':
      engine.deliver(engine.agentName(lane), SWARM, effect.text);
      return;
    case 'tell_lead':
      engine.deliver(engine.leadMailbox(), SWARM, effect.text);
      return;
    case 'validate_packet': {
      const reasons = await checkPacket(engine, lane, effect.packet);
      engine.dispatch(laneName, { type: 'packet_checked', packet: effect.packet, reasons });
      return;
    }
    case 'pick_account':
      engine.dispatch(laneName, pickAccount(engine, lane, effect.exclude, effect.preferOtherThan));
      return;
    case 'spawn': {
      const result = await engine.spawnSuccessor(lane, effect.generation, effect.account, effect.packet);
      faultPoint(engine, 'after:spawn');
      engine.dispatch(laneName, result);
      return;
    }
    case 'resume_session': {
      const result = await engine.resumeSession(lane, effect);
      faultPoint(engine, 'after:resume_session');
      engine.dispatch(laneName, result);
      return;
    }
    case 'kill_pane':
    case 'close_pane': {
      const generation = effect.type === 'close_pane'
        ? (effect.generation ?? lane.handoff?.from.generation ?? lane.generation - 1)
        : (lane.handoff?.successor?.generation ?? lane.generation + 1);
      await savePaneLog(engine, lane.name, generation, effect.paneId);
      await engine.host.kill(effect.paneId).catch(() => undefined);
      return;
    }
    case 'adopt_pane':
      await engine.adoptPane(effect);
      return;
    case 'pick_reviewer':
      engine.dispatch(laneName, engine.reviewers?.pick(lane, effect) ?? { type: 'reviewer_lease', round: effect.round, account: null, why: 'this swarm starts no reviewers' });
      return;
    case 'spawn_reviewer': {
      const result = await (engine.reviewers?.spawn(lane, effect) ?? Promise.resolve({ type: 'reviewer_spawn_failed' as const, seq: effect.seq, account: effect.account, error: 'this swarm starts no reviewers' }));
      faultPoint(engine, 'after:spawn_reviewer');
      engine.dispatch(laneName, result);
      return;
    }
    case 'close_reviewer': {
      const name = reviewerName(lane.name);
      const paneId = effect.paneId ?? (await engine.host.list().catch(() => [])).find((p) => p.lane === name && p.generation === effect.seq)?.paneId ?? null;
      if (paneId === null) return; // never started, or gone already
      await savePaneLog(engine, name, effect.seq, paneId);
      await engine.host.kill(paneId).catch(() => undefined);
      return;
    }
    case 'record_acceptance':
      recordAcceptance({ packet: effect.packet, accepted_at: new Date(engine.now()).toISOString(), by: effect.by, epoch: engine.state.epoch, from: effect.from, degraded: effect.degraded });
      return;
    case 'start_again':
      await engine.startAgain();
      return;
    case 'release_lease':
      releaseLease(engine.leases, effect.account);
      // Every lane hears of it; one `waiting` for an account picks again now (the reducer decides).
      engine.dispatch({ type: 'account_freed', account: effect.account });
      return;
    case 'write_degraded':
      engine.dispatch(laneName, { type: 'degraded_written', packet: await writeDegradedPacket(engine, lane, effect) });
      return;
    case 'escalate':
      void runNotifyCommand(engine, { event: 'escalation', lane: lane.name, generation: lane.generation, class: effect.class, what: effect.what });
      engine.deliver(engine.leadMailbox(), SWARM, `escalation: ${lane.name} blocked ${effect.class}: ${effect.what}`, lane.name);
      return;
    case 'run_gate': {
      // Runs a killed swarm left running are ended first, only while still that very process: the
      // earlier run this one replaces, and this run itself when its intent is carried out again.
      const run = (id: string) => gateRun(plan, id);
      const runs = [...(effect.ends ? [{ id: effect.ends.id, process: effect.ends.process ?? findGate(run(effect.ends.id)) }] : []), { id: effect.id, process: findGate(run(effect.id)) }];
      for (const earlier of runs) {
        if (earlier.id === effect.id && earlier.process === null) continue;
        const found = earlier.process === null ? 'gone' : await endGate(earlier.process);
        engine.journal({ type: 'observation', event: 'gate_ended', lane: lane.name, generation: lane.generation, run: earlier.id, pid: earlier.process?.pid ?? null, found });
      }
      const checkout = engine.checkoutOf(lane.name);
      const there = engine.host.gateThere?.(lane.name, checkout, effect.command, run(effect.id)) ?? null;
      const gate = startGate(effect.command, checkout, process.env, run(effect.id), undefined, there);
      faultPoint(engine, 'after:run_gate'); // the gate started, its process not yet recorded
      if (gate.process) engine.dispatch(laneName, { type: 'gate_process', id: effect.id, ...gate.process });
      void gate.result.then((result) => engine.dispatch(laneName, { type: 'gate', id: effect.id, ...result }));
      return;
    }
    default:
      return; // set_timer, clear_timer, mark_limited, mark_not_ready, hand_over_pane, promotion_declined: the step's own (core/swarm/reduce.ts)
  }
}

/** The packet against its lane's checkout: on its host, for a lane on another one (SPEC 10.9). */
async function checkPacket(engine: EffectsEngine, lane: LaneState, packet: string): Promise<string[]> {
  const plan = engine.config.plan;
  const { facts, text } = readPacketFile(plan, packet);
  const checkout = engine.checkoutOf(lane.name);
  const at = await checkoutState(engine, lane, { waitForHost: true });
  // Its host went between the report and the check: the packet cannot be checked, so it is not taken.
  if (at.kind === 'down' || at.kind === 'unreadable') return [`where: the checkout ${checkout} could not be read on its host (${at.why})`];
  const git = at.kind === 'there' ? at.git : gitState(checkout, plan);
  return validatePacket(text, facts, {
    plan: basename(plan),
    lane: engine.agentName(lane),
    contract: planContractOf(plan),
    branch: git.branch,
    head: git.head,
    uncommitted: git.uncommitted,
  }, process.env);
}

/** Pick and lease an account for the lane's next generation; an existing lease for it is reused. */
function pickAccount(engine: EffectsEngine, lane: LaneState, exclude: string[], spentAccount: string | null): LaneEvent {
  // A lane on another host that cannot be reached (SPEC 10.9): its successor waits for the host, asking
  // again as for an account held elsewhere, and no account is tried and blamed for the host's absence.
  const down = engine.host.hostDown?.(lane.name) ?? null;
  if (down !== null) return { type: 'lease', account: null, resetsAt: null, why: down, heldElsewhere: true };
  const store = engine.leases;
  const generation = (lane.handoff?.from.generation ?? lane.generation) + 1;
  const leases = readLeases(store).filter((l) => l.plan === store.plan);
  const mine = leases.find((l) => l.lane === lane.name && l.generation === generation && !exclude.includes(l.account));
  if (mine) return { type: 'lease', account: mine.account, resetsAt: null, why: 'already leased for this generation' };
  const pool: Account[] = runnablePool(engine, lane.name);
  const vendor = engine.config.accounts.find((a) => a.id === spentAccount)?.vendor ?? null;
  const limited = new Map(Object.entries(engine.state.limited));
  const notReady = notReadyAccounts(engine, pool, engine.checkoutOf(lane.name));
  for (let attempt = 0; attempt < pool.length; attempt += 1) {
    const inUse = engine.accountsInUse();
    const input: PickInput = {
      pool,
      leases: readLeases(store),
      plan: store.plan,
      readings: new Map(Object.entries(engine.state.readings)),
      spent: limited,
      notReady,
      leadAccount: engine.leadAccount(),
      preferOtherThan: vendor,
      exclude: [...exclude, ...inUse.keys()],
      // The lane's own reasons (the account it leaves, those tried) before who else uses an account.
      excludedBecause: new Map([...inUse, ...handoffExclusions(lane)]),
      now: isoNow(engine.clock),
    };
    const result = pick(input);
    if (attempt === 0) journalSkips(engine, lane.name, generation, input);
    if (!result.ok) {
      // Nothing a reset or a freed lease would change: every account but the lead's and those tried is not ready.
      const noneReady = result.resetsAt === null && notReady.size > 0 && pool.every((a) => a.id === input.leadAccount || exclude.includes(a.id) || notReady.has(a.id));
      return { type: 'lease', account: null, resetsAt: result.resetsAt, why: result.why, noneReady, ...(result.heldElsewhere ? { heldElsewhere: true } : {}) };
    }
    if (acquireLease(store, { account: result.account, lane: lane.name, generation })) {
      return { type: 'lease', account: result.account, resetsAt: null, why: result.why };
    }
  }
  return { type: 'lease', account: null, resetsAt: null, why: 'every eligible account was leased by another holder' };
}

async function writeDegradedPacket(engine: EffectsEngine, lane: LaneState, effect: Extract<Effect, { type: 'write_degraded' }>): Promise<string> {
  const plan = engine.config.plan;
  const checkout = engine.checkoutOf(lane.name);
  // A lane on another host (SPEC 10.9): its checkout's state read there, while the host answers. A host
  // that is down is not waited for, nor is a checkout its host could not read read here (the path is
  // the host's): the packet names the checkout alone, and its state is read there before its successor
  // starts (refreshDegraded).
  const at = await checkoutState(engine, lane, { waitForHost: false });
  const git = at.kind === 'there' ? at.git : at.kind === 'here' ? gitState(checkout, plan) : UNREAD;
  const lead = engine.leadRecord();
  const packet = degradedPacket({
    plan: basename(plan),
    contract: planContractOf(plan),
    task: engine.taskOf(lane.name),
    reason: effect.reason,
    where: { repo: git.repo, checkout, branch: git.branch, head: git.head, pushed: git.pushed, uncommitted: git.uncommitted },
    author: { lane: engine.agentName(lane), account: lane.account ?? 'unknown', generation: effect.generation },
    // A lead's packet names its author as the lead (the lead packet's rule, core/packet/check.ts), at the
    // epoch it led: lead.json may have moved on meanwhile (a handover written as it died).
    lead: lane.role === 'lead' ? engine.agentName(lane) : lead?.lead ?? null,
    epoch: lane.role === 'lead' ? engine.state.epoch : lead?.epoch ?? null,
    ...(effect.rejected === undefined ? {} : { rejected: rejectedInPlan(effect.rejected, plan) }),
  });
  const name = packetFileName(lane.name, effect.generation, new Date(engine.now())).replace(/\.yaml$/, '-degraded.yaml');
  return writePacketFile(plan, name, serializePacket(packet));
}

/** A checkout whose state could not be read (its host down, or its host could not read it). */
const UNREAD: GitState = { repo: null, branch: null, head: null, pushed: null, uncommitted: [] };

/**
 * A degraded packet written while its lane's host was down names no branch or head (they could not be
 * read there): now that the host answers, before the successor starts there, they are read there and
 * the packet (the engine's own, not yet accepted) is written again with them, so its successor's
 * `swarm accept` finds the checkout as the packet says. Any other packet is left as it is.
 */
export async function refreshDegraded(engine: EffectsEngine, lane: LaneState, packetPath: string): Promise<void> {
  if (!packetPath.endsWith('-degraded.yaml') || engine.host.gitState === undefined) return;
  const plan = engine.config.plan;
  const parsed = parsePacket(readPacketFile(plan, packetPath).text);
  if (!parsed.ok || parsed.packet.where.branch !== null || parsed.packet.where.head !== null) return;
  const at = await checkoutState(engine, lane, { waitForHost: true });
  if (at.kind !== 'there' || at.git.repo === null) return;
  const { git } = at;
  const where = { ...parsed.packet.where, repo: git.repo, branch: git.branch, head: git.head, pushed: git.pushed, uncommitted: git.uncommitted };
  rewritePacketFile(packetPath, serializePacket({ ...parsed.packet, where }));
}

/** The brief a successor's prompt carries (the packet read back as the successor will see it). */
export function briefFor(engine: EffectsEngine, packetPath: string): string | null {
  const plan = engine.config.plan;
  const { text } = readPacketFile(plan, packetPath);
  const parsed = parsePacket(text);
  if (!parsed.ok) return null;
  const contract = planContractOf(plan);
  return resumeBrief(parsed.packet, { name: basename(plan), planFile: planPaths(plan).planFile, contract });
}

/** Keep a closing pane's scrollback for `swarm logs <lane> --generation N`. */
async function savePaneLog(engine: EffectsEngine, lane: string, generation: number, paneId: string): Promise<void> {
  try {
    const text = await engine.host.capture(paneId, 5000);
    writePaneLog(engine.config.plan, runOf(engine.state), lane, generation, text);
  } catch {
    // the pane is gone already: nothing to keep
  }
}

/** `notify_command` with the event as JSON on stdin; its failure is journaled, never fatal. */
export async function runNotifyCommand(engine: EffectsEngine, event: Record<string, unknown>): Promise<void> {
  const command = engine.config.notifyCommand;
  if (!command) return;
  const input = JSON.stringify({ ts: isoNow(engine.clock), swarm: engine.config.name, ...event });
  const result = await execa('sh', ['-c', command], { input, reject: false, timeout: 60_000, all: true, cwd: engine.config.dir });
  if (result.exitCode !== 0) {
    engine.journal({ type: 'observation', event: 'notify_command_failed', lane: null, exit: result.exitCode ?? null, output: (result.all ?? '').slice(-500) });
  }
}
