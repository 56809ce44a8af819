/**
 * Starting agents: the lead and the lanes that have no agent yet, successors, and — after a restart —
 * the leases and panes an earlier engine left. Every start adopts a pane that already carries its
 * identity (`@swarm_lane`, `@swarm_generation`), so a start repeated after a crash starts nothing twice.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { leaseFileName, leaseHolder, pick, type PickInput } from '../core/accounts/leases.js';
import { planPaths } from '../core/plan/paths.js';
import { recordLane } from '../core/lead/epochs.js';
import { unstarted } from '../machine/firstStart.js';
import { reviewedLane } from '../machine/review.js';
import { runOf } from '../core/swarm/runs.js';
import type { Account } from '../core/config/types.js';
import type { Effect, LaneEvent, LaneState } from '../machine/types.js';
import { resumePointer } from '../core/launch/agentPrompt.js';
import { planFilesFault, SwarmError } from '../errors.js';
import type { PaneHost, PaneInfo } from '../adapters/host.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import { acquireLease, adoptLease, holderFacts, leaseAgent, leasePath, planLeases, readLeases, releaseKey } from '../adapters/leaseFiles.js';
import { processNow, recordAgent } from '../adapters/agentRegistry.js';
import { agentPane, type AgentStart } from './agents.js';
import { briefFor, faultPoint, refreshDegraded } from './effects.js';
import { isoNow } from './clock.js';
import type { Engine } from './engine.js';
import { claimTakeover, leadSuccessorName } from './leadSuccession.js';
import { commandOf, runnablePool } from './runnable.js';
import { journalSkips, notReadyAccounts } from './readyAccounts.js';

/**
 * The plan's leases an earlier engine (now dead) held: those still serving a lane's current agent or
 * its successor in flight are adopted; the rest are released (never a lease held by nobody), unless
 * their agent still runs (SPEC 10.4: free only when neither runs). Views with no lease behind them go.
 */
export function reconcileLeases(engine: Engine): void {
  const { state } = engine;
  const store = engine.leases;
  const held = planLeases(store.dir, store.plan);
  for (const lease of held) {
    if (lease.pid === process.pid) continue;
    const holder = leaseHolder(lease, holderFacts); // once: a lease naming no agent costs a look through /proc
    if (holder === 'engine') continue;
    const lane = state.lanes[lease.lane];
    // A done lane's agent keeps its lease as in a run that was never killed (its pane stays open).
    // A promoted agent's lease still under its lane's name (the move to the lead not yet carried out) serves the lead.
    const lead = state.lanes[state.leadName];
    const promoted = lead?.promotedFrom ?? null;
    const servesLead = promoted !== null && lead!.account === lease.account && promoted.lane === lease.lane && promoted.generation === lease.generation;
    // A lane's reviewer in flight (SPEC 10.6) holds its lease under `<lane>.review` at its generation.
    const reviewed = reviewedLane(lease.lane);
    const review = reviewed === null ? null : state.lanes[reviewed]?.review ?? null;
    const reviewer = review?.reviewer ?? null;
    // Its account picked, the pick's result not yet saved: the pick again after the restart finds it.
    const picked = review !== null && reviewer === null && lease.generation === review.seq + 1;
    const servesReview = picked || (reviewer !== null && reviewer.seq === lease.generation && reviewer.account === lease.account);
    const serving = store.keys.get(lease.account) === lease.key && (servesLead || servesReview || (lane !== undefined &&
      ((lane.generation === lease.generation && lane.account === lease.account) ||
        (lane.handoff?.successor?.generation === lease.generation && lane.handoff.successor.account === lease.account))));
    if (serving) {
      adoptLease(store, lease);
    } else if (holder === null) {
      rmSync(leasePath(store.plan, lease.account), { force: true });
      releaseKey(store.dir, store.plan, lease.key ?? '');
      engine.journal({ type: 'observation', event: 'lease_recovered', lane: lease.lane, generation: lease.generation, account: lease.account, holder: lease.pid });
    }
  }
  const views = new Set(planLeases(store.dir, store.plan).map((l) => leaseFileName(l.account)));
  let names: string[] = [];
  try {
    names = readdirSync(planPaths(store.plan).leasesDir);
  } catch {
    // no views
  }
  for (const name of names) if (name.endsWith('.json') && !views.has(name)) rmSync(join(planPaths(store.plan).leasesDir, name), { force: true });
}

/**
 * The run is over: a lease of this engine whose agent is named and gone is released now (its pane died
 * in the moment the plan ended, before its exit reached the reducer). The leases of agents still
 * running stay theirs (a done lane's pane stays open), as `lane_released` of doneExit.ts would leave them.
 */
export function releaseGoneAgents(engine: Engine): void {
  const store = engine.leases;
  for (const lease of planLeases(store.dir, store.plan)) {
    if (lease.pid !== process.pid || lease.agent === undefined || lease.agent === null) continue;
    if (holderFacts.alive(lease.agent)) continue;
    rmSync(leasePath(store.plan, lease.account), { force: true });
    releaseKey(store.dir, store.plan, lease.key ?? '');
    engine.journal({ type: 'observation', event: 'lease_released', lane: lease.lane, generation: lease.generation, account: lease.account, why: 'the run ended and its agent is gone' });
  }
}

/** Start the lead, then each lane, that has no agent yet (first start, or a lane added at run time). */
export async function startMissing(engine: Engine, panes: Awaited<ReturnType<PaneHost['list']>>): Promise<void> {
  const { config } = engine;
  const wanted: { name: string; role: 'lead' | 'lane'; account: string | null; kind?: string | null }[] = [
    { name: config.lead.name, role: 'lead', account: config.lead.account },
    ...config.lanes.map((l) => ({ name: l.name, role: 'lane' as const, account: l.account })),
    ...engine.state.added.map((l) => ({ name: l.name, role: 'lane' as const, account: null, kind: l.kind })),
  ];
  // Every lane's state at once: a state saved with only some of them would look, to a restart, like a plan done.
  engine.apply({ type: 'lanes_created', lanes: wanted.map(({ name, role, account }) => ({ name, role, account })) });
  for (const want of wanted) {
    const lane = engine.state.lanes[want.name]!;
    if (!unstarted(lane)) continue; // started, or after a failed start: tried again
    const adopted = panes.find((p) => p.lane === want.name && p.generation === 1 && !p.dead);
    // A lane on another host that cannot be reached (SPEC 10.9) waits for it, as for an account held elsewhere.
    const down = adopted ? null : (engine.host.hostDown?.(want.name) ?? null);
    if (down !== null) {
      engine.dispatch(want.name, { type: 'account_held', generation: 1, why: down });
      continue;
    }
    const picked = adopted?.account ?? want.account ?? firstAccount(engine, want.name, want.kind ?? null);
    if (typeof picked === 'object' && picked?.heldElsewhere === true) {
      engine.dispatch(want.name, { type: 'account_held', generation: 1, why: picked.why });
      continue;
    }
    if (typeof picked !== 'string') {
      engine.journal({ type: 'observation', event: 'waiting_for_reset', lane: want.name, generation: 1, why: picked?.why ?? 'no account in the pool has headroom to start this lane' });
      continue;
    }
    const account = picked;
    if (!acquireLease(engine.leases, { account, lane: want.name, generation: 1 })) {
      heldElsewhere(engine, want.name, account);
      continue;
    }
    faultPoint(engine, `after:lease:${want.name}`); // crash tests: the lease taken, no pane yet
    const event = adopted
      ? ({ type: 'spawned', generation: 1, account, paneId: adopted.paneId } as const)
      : await spawn(engine, lane, 1, account, '');
    if (adopted) recordPane(engine, { lane: want.name, role: want.role, generation: 1, account }, adopted);
    if (event.type === 'spawned') {
      engine.dispatch(want.name, { type: 'started', generation: 1, account, paneId: event.paneId });
      if (want.role === 'lane') updateLeadRecord(config.plan, (current) => (current ? { ok: true, record: recordLane(current, want.name, isoNow(engine.clock)) } : { ok: false, code: 'no_record', message: 'no lead record' }));
    } else {
      // The machine releases the lease and blocks the lane with the reason (machine/firstStart.ts).
      engine.dispatch(want.name, event.type === 'spawn_failed' ? event : { type: 'spawn_failed', generation: 1, account, error: `unexpected ${event.type}` });
    }
  }
}

/** A first start whose account another swarm holds: the lane waits for it (SPEC 10.4), naming the holder. */
function heldElsewhere(engine: Engine, lane: string, account: string): void {
  const holder = readLeases(engine.leases).find((l) => l.account === account);
  const by = holder === undefined ? 'another holder' : holder.plan === engine.leases.plan ? `${holder.lane} g${holder.generation} of this plan` : `plan ${holder.plan}, ${holder.lane} g${holder.generation}`;
  engine.dispatch(lane, { type: 'account_held', generation: 1, why: `${account} is held by ${by}` });
}

/** The account of a lane declared without one: picked like a successor's, skipping those not ready. */
function firstAccount(engine: Engine, lane: string, kind: string | null): string | { why: string; heldElsewhere?: boolean } | null {
  const pool = runnablePool(engine, lane).filter((a) => !kind || a.kind === kind);
  const inUse = engine.accountsInUse();
  const declared = new Map(engine.config.lanes.flatMap((l) => (l.account === null ? [] : [[l.account, `declared for ${l.name}`] as const])));
  const input: PickInput = {
    pool,
    leases: readLeases(engine.leases),
    plan: engine.leases.plan,
    readings: new Map(Object.entries(engine.state.readings)),
    spent: new Map(Object.entries(engine.state.limited)),
    notReady: notReadyAccounts(engine, pool, engine.checkoutOf(lane)),
    leadAccount: engine.config.lead.account,
    exclude: [...inUse.keys(), ...declared.keys()],
    excludedBecause: new Map([...declared, ...inUse]),
    now: isoNow(engine.clock),
  };
  const result = pick(input);
  journalSkips(engine, lane, 1, input);
  if (!result.ok) return { why: result.why, ...(result.heldElsewhere ? { heldElsewhere: true } : {}) };
  return acquireLease(engine.leases, { account: result.account, lane, generation: 1 }) ? result.account : null;
}

/** The live pane that already carries an agent's identity (a start carried out before a crash), if any. */
async function livePane(engine: Engine, name: string, generation: number): Promise<PaneInfo | undefined> {
  return (await engine.host.list()).find((p) => p.lane === name && p.generation === generation && !p.dead);
}

/** What starting agent `name` of `generation` on `account` for `lane` takes (agents.ts agentPane); `more`: a successor's packet, or a resume. */
function startOf(engine: Engine, lane: LaneState, name: string, generation: number, account: Account, more: Pick<AgentStart, 'packet' | 'brief' | 'resume'>): AgentStart {
  return {
    config: engine.config, name, role: lane.role, generation, account, kind: engine.kinds(account.kind), epoch: engine.state.epoch,
    run: runOf(engine.state), checkout: engine.checkoutOf(lane.name), task: engine.taskOf(lane.name), command: commandOf(engine, lane.name), ...more,
  };
}

/** Start an agent (first generation or successor); adopt a pane that already carries its identity. */
export async function spawn(engine: Engine, lane: LaneState, generation: number, accountId: string, packet: string): Promise<LaneEvent> {
  const { config } = engine;
  const account = config.accounts.find((a) => a.id === accountId);
  if (!account) return { type: 'spawn_failed', generation, account: accountId, error: `account ${accountId} is not in the pool` };
  let name = lane.role === 'lead' && generation > 1 ? leadSuccessorName(engine) : lane.name;
  try {
    const existing = await livePane(engine, name, generation);
    // The pane's own account, not the one asked for: the machine refuses a pane on an account not leased to it.
    if (existing) {
      recordPane(engine, { lane: name, role: lane.role, generation, account: existing.account || accountId }, existing);
      return { type: 'spawned', generation, account: existing.account || accountId, paneId: existing.paneId };
    }
    if (lane.role === 'lead' && generation > 1 && lane.handoff?.degraded) name = claimTakeover(engine, name);
    if (packet) await refreshDegraded(engine, lane, packet); // a host lane's packet written while its host was down
    const spec = agentPane(startOf(engine, lane, name, generation, account, { packet: packet || null, brief: packet ? briefFor(engine, packet) : null }), engine.host.agentEnv?.(name) ?? engine.env);
    const info = await engine.host.spawn(spec);
    recordPane(engine, { lane: name, role: lane.role, generation, account: accountId }, info);
    return { type: 'spawned', generation, account: accountId, paneId: info.paneId };
  } catch (error) {
    if (planFilesFault(error)) throw error; // the plan's files refuse (the prompt file): tried again, no account burnt
    await hostLossTold(engine);
    return { type: 'spawn_failed', generation, account: accountId, error: error instanceof SwarmError || error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Start a lane's (or the lead's) own session again on its own account, in its generation (SPEC 10.8):
 * the kind's `launch.resume`, the pointer line its prompt. A pane already carrying that identity (the
 * intent carried out before a crash) is adopted, as for any start.
 */
export async function resumePane(engine: Engine, lane: LaneState, effect: Extract<Effect, { type: 'resume_session' }>): Promise<LaneEvent> {
  const { config } = engine;
  const { generation } = effect;
  const account = config.accounts.find((a) => a.id === effect.account);
  if (!account) return { type: 'resume_failed', generation, error: `account ${effect.account} is not in the pool` };
  const name = engine.agentName(lane);
  const leadsAt = lane.promotedFrom && lane.promotedFrom.generation === generation ? { epoch: lane.promotedFrom.epoch } : {};
  try {
    const existing = await livePane(engine, name, generation);
    if (existing) {
      recordPane(engine, { lane: name, role: lane.role, generation, account: effect.account, ...leadsAt }, existing);
      return { type: 'resume_spawned', generation, paneId: existing.paneId };
    }
    const resume = { sessionId: effect.sessionId, pointer: resumePointer({ swarm: config.name, name, generation }) };
    const spec = agentPane(startOf(engine, lane, name, generation, account, { packet: null, brief: null, resume }), engine.host.agentEnv?.(name) ?? engine.env);
    const info = await engine.host.spawn(spec);
    recordPane(engine, { lane: name, role: lane.role, generation, account: effect.account, ...leadsAt }, info);
    return { type: 'resume_spawned', generation, paneId: info.paneId };
  } catch (error) {
    if (planFilesFault(error)) throw error; // the plan's files refuse: tried again
    await hostLossTold(engine);
    return { type: 'resume_failed', generation, error: error instanceof Error ? error.message : String(error) };
  }
}

const LOSS_TOLD_MS = 5000;

/**
 * A spawn that failed because the tmux server went away: the host tells its loss a moment later
 * (it first asks tmux whether the session is still there). Wait for that while the host does not
 * answer, so the failure reaches the lane once the engine knows, and no account is blamed for it.
 */
async function hostLossTold(engine: Engine): Promise<void> {
  const until = Date.now() + LOSS_TOLD_MS; // real time: a wait on tmux, not an engine deadline
  while (engine.state.hostLost === undefined && Date.now() < until && !(await engine.host.list().then(() => true, () => false))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Record an agent (SPEC 10.3): its spool's records are its own, and its commands are by ancestry to
 * its pane process. A pane whose process is already gone (or a host that gives no pid) is recorded
 * by its spool alone: no command can be known as its by ancestry. A record the plan's files refuse
 * (a full disk) is kept and written at the next look at the spools (`recordLeft`): the pane is
 * started all the same, and its first commands wait for the record a moment, then are told to retry.
 */
export function recordPane(engine: Engine, agent: { lane: string; role: 'lead' | 'lane' | 'reviewer'; generation: number; account: string; epoch?: number }, pane: Pick<PaneInfo, 'pid' | 'process' | 'where'> | null): void {
  // A pane of another host (SPEC 10.9) comes with its process as that host knows it; this machine's is read here.
  const there = pane?.where;
  const process = there !== undefined ? (pane?.process ?? null) : pane?.pid == null ? null : processNow(pane.pid);
  const record = { ...agent, run: runOf(engine.state), pane: process };
  // The lease names its agent: it stays held while the agent runs, even once this engine is gone (SPEC 10.4).
  // Only a process of this machine can be looked at by a later engine: another host's agent leaves its lease the engine's.
  const laneName = engine.laneOfAgent(agent.lane) ?? agent.lane;
  if (record.pane !== null && there === undefined) leaseAgent(engine.leases, { account: agent.account, lane: laneName, generation: agent.generation }, { pid: record.pane.pid, start: record.pane.startTicks });
  const left = unrecorded(engine);
  left.delete(`${agent.lane}-g${agent.generation}`);
  try {
    recordAgent(engine.config.plan, record, there);
  } catch (error) {
    if (!planFilesFault(error)) throw error;
    left.set(`${agent.lane}-g${agent.generation}`, record);
  }
  // Its commands there find it by the copy of its record on its host.
  if (there !== undefined) void engine.host.publish?.(agent.lane).catch(() => undefined);
}

const left = new WeakMap<Engine, Map<string, Parameters<typeof recordAgent>[1]>>();
const unrecorded = (engine: Engine) => left.get(engine) ?? left.set(engine, new Map()).get(engine)!;

/** Write the agent records the plan's files refused before (a look at the spools calls it). */
export function recordLeft(engine: Engine): void {
  const waiting = unrecorded(engine);
  for (const [key, record] of waiting) {
    try {
      recordAgent(engine.config.plan, record);
      waiting.delete(key);
    } catch (error) {
      if (!planFilesFault(error)) throw error;
      return; // still refused: the next look tries again
    }
  }
}
