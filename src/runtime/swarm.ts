/**
 * A swarm's life: take the plan's lock, claim the lead (or re-adopt a live swarm), start the lead
 * and the lanes, feed the inbox and the panes to the engine, and settle when the plan is done or
 * can no longer move.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import type { SwarmConfig } from '../core/config.js';
import { claim, recordLane, release } from '../core/epochs.js';
import { isStale, pick } from '../core/leases.js';
import { planPaths } from '../core/paths.js';
import { progress } from '../core/progress.js';
import { MismatchError, SwarmError } from '../errors.js';
import { ensureDir } from '../adapters/files.js';
import { readInbox } from '../adapters/inbox.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import { acquireLease, adoptLease, readLeases, releaseLease } from '../adapters/leaseFiles.js';
import { pidAlive } from '../adapters/lock.js';
import { hostname } from 'node:os';
import { tryLock } from '../adapters/lock.js';
import { writeSettings } from '../adapters/settings.js';
import { createSwarmStore, pushEvent } from '../ui/store.js';
import { followJournal, journalSize } from '../adapters/journal.js';
import { agentPane } from './agents.js';
import { briefFor, runNotifyCommand } from './effects.js';
import { Engine } from './engine.js';
import { loadState, type EngineState } from './engineState.js';
import { hostFor, sessionName } from './hostFor.js';
import { route } from './inboxRouter.js';
import { PaneWatch } from './watch.js';
import type { LaneEvent, LaneState } from '../core/machineTypes.js';
import type { PaneHost } from '../adapters/host.js';
import { bumpEpoch, leadAfterStep, leadSuccession, takeoverName } from './leadSuccession.js';

export interface Outcome {
  code: 0 | 1;
  why: string;
}

export interface RunningSwarm {
  engine: Engine;
  finished: Promise<Outcome>;
  /** Stop watching; panes keep running (tmux). */
  detach(): Promise<void>;
}

export interface SwarmOptions {
  env: NodeJS.ProcessEnv;
  untilDone: boolean;
  timeoutMs: number | null;
  host?: PaneHost;
}

export async function startSwarm(config: SwarmConfig, options: SwarmOptions): Promise<RunningSwarm> {
  const paths = planPaths(config.plan);
  ensureDir(paths.swarmDir, 0o755);
  const lock = tryLock(paths.lock, `swarm up ${config.name}`);
  if (!lock.ok) {
    const h = lock.holder;
    throw new MismatchError(`plan ${basename(config.plan)} is already run by ${h ? `pid ${h.pid} on ${h.host} (since ${h.since})` : 'another swarm up'}`, [], {
      hint: 'attach to it with `swarm attach`, or stop it with `swarm down`',
    });
  }
  try {
    const host = options.host ?? (await hostFor(config, options.env));
    const state = freshOrSaved(config, host);
    const store = createSwarmStore({
      name: config.name,
      plan: config.plan,
      session: sessionName(config),
      backend: host.kind,
      startedAt: Date.now(),
      lead: { name: state.leadAgent, epoch: state.epoch, account: config.lead.account, state: 'starting' },
      lanes: [],
    });
    const engine = new Engine({ config, host, store, state, env: options.env });
    return await run(engine, options, () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

function freshOrSaved(config: SwarmConfig, host: PaneHost): EngineState {
  const saved = loadState(planPaths(config.plan).state);
  if (saved && !saved.planDone) return saved;
  return {
    version: 1,
    name: config.name,
    session: sessionName(config),
    backend: host.kind,
    inboxOffset: saved?.inboxOffset ?? 0,
    lanes: {},
    order: [],
    leadName: config.lead.name,
    leadAgent: config.lead.name,
    epoch: 0,
    limited: {},
    readings: {},
    timers: [],
    pending: [],
    unread: {},
    allDoneTold: false,
    planDone: false,
    added: [],
    leadNext: null,
    leadGeneration: 1,
    asks: [],
    askTimeouts: 0,
  };
}

async function run(engine: Engine, options: SwarmOptions, unlock: () => void): Promise<RunningSwarm> {
  const { config, state } = engine;
  const paths = planPaths(config.plan);
  writeSettings(config.plan, {
    capacity: { low: config.thresholds.capacityLow, critical: config.thresholds.capacityCritical },
    contextPressure: config.thresholds.contextPressure,
    window: config.thresholds.window,
    headroom: config.thresholds.headroom,
  });

  let settle: (outcome: Outcome) => void = () => undefined;
  const finished = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  const watchPanes = new PaneWatch(engine);
  let inboxWatcher: FSWatcher | null = null;
  let timeout: NodeJS.Timeout | null = null;
  let releaseTimer: NodeJS.Timeout | null = null;
  let done = false;

  // The store's events are the journal itself, whoever wrote the line (the engine, `swarm lead`, a
  // fenced `swarm notify`): the dashboard and the headless log show the same record as `swarm journal`.
  const journalFollower = followJournal(config.plan, journalSize(config.plan), (entry) => pushEvent(engine.store, entry));

  const finish = (outcome: Outcome) => {
    if (done) return;
    done = true;
    journalFollower.drain();
    settle(outcome);
  };

  engine.spawner = (lane, generation, account, packet) => spawn(engine, lane, generation, account, packet);
  leadSuccession(engine);

  const finishPlan = async (by: string) => {
    if (state.planDone) return;
    const record = engine.leadRecord();
    if (record && !record.released && record.lead) {
      updateLeadRecord(config.plan, (current) => release(current, { caller: record.lead!, epoch: record.epoch, now: new Date().toISOString() }));
      engine.journal({ type: 'observation', event: 'lead_released', lane: record.lead, by: 'swarm', why: by });
    }
    state.planDone = true;
    engine.save();
    engine.journal({ type: 'delegation', event: 'plan_done', lane: null });
    await runNotifyCommand(engine, { event: 'plan_done', plan: config.plan });
    finish({ code: 0, why: 'plan done' });
  };
  engine.onPlanReleased = () => {
    if (progress(laneStates(engine)).kind === 'all_done') void engine.enqueue(() => finishPlan('the lead released the plan'));
  };

  engine.onLaneAdded = (record) => {
    if (state.lanes[record.name] || state.added.some((l) => l.name === record.name)) return;
    state.added.push({ name: record.name, task: record.task, checkout: record.checkout, kind: record.lane_kind, command: record.command ?? null });
    state.allDoneTold = false;
    engine.journal({ type: 'delegation', event: 'lane_added', lane: record.name, by: record.from, task: record.task });
    void engine.enqueue(async () => startMissing(engine, await engine.host.list()));
  };

  engine.onSettled = () => {
    leadAfterStep(engine);
    if (done) return;
    const p = progress(laneStates(engine));
    if (p.kind === 'all_done' && !state.allDoneTold) {
      state.allDoneTold = true;
      engine.deliver(engine.leadMailbox(), 'swarm', 'Every lane is done. Release the plan: `swarm lead release`.');
      engine.journal({ type: 'observation', event: 'all_lanes_done', lane: null });
      releaseTimer = setTimeout(() => void engine.enqueue(() => finishPlan('timeouts.release passed')), config.timeouts.release);
      if (engine.leadRecord()?.released) void engine.enqueue(() => finishPlan('the lead released the plan'));
    } else if (p.kind === 'stuck' && options.untilDone) {
      engine.journal({ type: 'observation', event: 'stopped_short', lane: null, why: p.why });
      finish({ code: 1, why: p.why });
    }
  };

  await engine.host.start();
  const unsubscribe = engine.host.onEvent((event) => watchPanes.handle(event));

  // Re-adopt: leases of a dead engine, then intents, then tell each lane what the panes look like now.
  reconcileLeases(engine);
  const panes = await engine.host.list();
  await engine.enqueue(() => engine.drainPending());
  for (const name of state.order) {
    const mine = panes.filter((p) => p.lane === engine.agentName(state.lanes[name]!) || p.lane === name);
    engine.dispatch(name, { type: 'resume', panes: mine.map((p) => ({ generation: p.generation, paneId: p.paneId, dead: p.dead })) });
  }
  if (state.order.length > 0) engine.journal({ type: 'observation', event: 'readopted', lane: null, panes: panes.length });
  engine.deadlines.arm();

  // Claim before any lane starts, then start whatever has no agent yet.
  if (state.epoch === 0) claimLead(engine);
  await engine.enqueue(() => startMissing(engine, panes));
  await engine.idle();

  const drainInbox = () =>
    void engine.enqueue(() => {
      const chunk = readInbox(config.plan, state.inboxOffset);
      for (const record of chunk.records) route(engine, record);
      if (chunk.consumed > 0) {
        state.inboxOffset = chunk.offset;
        engine.save();
      }
    });
  inboxWatcher = watch(paths.swarmDir, (_event, name) => {
    if (name === null || name === 'inbox.jsonl') drainInbox();
  });
  drainInbox();
  engine.publish();
  if (options.timeoutMs !== null) timeout = setTimeout(() => finish({ code: 1, why: `--timeout passed (${options.timeoutMs} ms)` }), options.timeoutMs);
  engine.onSettled();

  engine.asks.arm();
  const detach = async () => {
    journalFollower.drain();
    journalFollower.close();
    engine.closed = true;
    engine.asks.stop();
    if (timeout) clearTimeout(timeout);
    if (releaseTimer) clearTimeout(releaseTimer);
    inboxWatcher?.close();
    watchPanes.stop();
    engine.deadlines.stop();
    unsubscribe();
    await engine.idle().catch(() => undefined);
    engine.save();
    await engine.host.detach();
    unlock();
  };
  return { engine, finished, detach };
}

/**
 * Leases whose holder (an earlier engine) is dead: those still serving a lane's current agent or its
 * successor in flight are adopted; the rest are released (never a lease held by nobody).
 */
function reconcileLeases(engine: Engine): void {
  const { config, state } = engine;
  for (const lease of readLeases(config.plan)) {
    if (lease.pid === process.pid || !isStale(lease, { host: hostname(), pidAlive })) continue;
    const lane = state.lanes[lease.lane];
    const serving = lane !== undefined && lane.state !== 'done' &&
      ((lane.generation === lease.generation && lane.account === lease.account) ||
        (lane.handoff?.successor?.generation === lease.generation && lane.handoff.successor.account === lease.account));
    if (serving) {
      adoptLease(config.plan, lease);
    } else {
      releaseLease(config.plan, lease.account);
      engine.journal({ type: 'observation', event: 'lease_recovered', lane: lease.lane, generation: lease.generation, account: lease.account, holder: lease.pid });
    }
  }
}

function laneStates(engine: Engine): LaneState[] {
  return engine.state.order.filter((n) => n !== engine.state.leadName).map((n) => engine.state.lanes[n]!);
}

function claimLead(engine: Engine): void {
  const { config, state } = engine;
  const now = new Date().toISOString();
  const outcome = updateLeadRecord(config.plan, (current) => {
    // A released record from an earlier run is claimed anew (epoch + 1).
    return claim(current, { plan: basename(config.plan), lead: config.lead.name, account: config.lead.account, succession: config.lead.succession, now });
  });
  if (!outcome.ok) throw new MismatchError(`cannot claim the lead of plan ${basename(config.plan)}: ${outcome.message}`, [outcome.message]);
  state.epoch = outcome.record.epoch;
  engine.journal({ type: 'observation', event: 'lead_claimed', lane: config.lead.name, epoch: state.epoch, account: config.lead.account });
}

/** Start the lead, then each lane, that has no agent yet (first start, or a lane added at run time). */
async function startMissing(engine: Engine, panes: Awaited<ReturnType<PaneHost['list']>>): Promise<void> {
  const { config, state } = engine;
  const wanted: { name: string; role: 'lead' | 'lane'; account: string | null; kind?: string | null }[] = [
    { name: config.lead.name, role: 'lead', account: config.lead.account },
    ...config.lanes.map((l) => ({ name: l.name, role: 'lane' as const, account: l.account })),
    ...state.added.map((l) => ({ name: l.name, role: 'lane' as const, account: null, kind: l.kind })),
  ];
  for (const want of wanted) {
    const lane = state.lanes[want.name] ?? engine.addLane(want.name, want.role, want.account);
    if (lane.paneId !== null || lane.generation !== 1 || lane.state !== 'starting') continue;
    const adopted = panes.find((p) => p.lane === want.name && p.generation === 1 && !p.dead);
    const account = adopted?.account ?? want.account ?? firstAccount(engine, want.name, want.kind ?? null);
    if (!account) {
      engine.journal({ type: 'observation', event: 'waiting_for_reset', lane: want.name, generation: 1, why: 'no account in the pool has headroom to start this lane' });
      continue;
    }
    acquireLease(config.plan, { account, lane: want.name, generation: 1 });
    const event = adopted
      ? ({ type: 'spawned', generation: 1, account, paneId: adopted.paneId } as const)
      : await spawn(engine, lane, 1, account, '');
    if (event.type === 'spawned') {
      engine.dispatch(want.name, { type: 'started', generation: 1, account, paneId: event.paneId });
      if (want.role === 'lane') updateLeadRecord(config.plan, (current) => (current ? { ok: true, record: recordLane(current, want.name, new Date().toISOString()) } : { ok: false, code: 'no_record', message: 'no lead record' }));
    } else {
      engine.journal({ type: 'observation', event: 'start_failed', lane: want.name, account, error: event.type === 'spawn_failed' ? event.error : 'unknown' });
    }
  }
}

function firstAccount(engine: Engine, lane: string, kind: string | null): string | null {
  const result = pick({
    pool: kind ? engine.config.accounts.filter((a) => a.kind === kind) : engine.config.accounts,
    leases: readLeases(engine.config.plan),
    readings: new Map(Object.entries(engine.state.readings)),
    spent: new Map(Object.entries(engine.state.limited)),
    leadAccount: engine.config.lead.account,
    exclude: [...engine.accountsInUse(), ...engine.config.lanes.map((l) => l.account).filter((a): a is string => a !== null)],
    now: new Date().toISOString(),
  });
  if (!result.ok) return null;
  return acquireLease(engine.config.plan, { account: result.account, lane, generation: 1 }) ? result.account : null;
}

/** Start an agent (first generation or successor); adopt a pane that already carries its identity. */
async function spawn(engine: Engine, lane: LaneState, generation: number, accountId: string, packet: string): Promise<LaneEvent> {
  const { config, state } = engine;
  const account = config.accounts.find((a) => a.id === accountId);
  if (!account) return { type: 'spawn_failed', generation, account: accountId, error: `account ${accountId} is not in the pool` };
  if (lane.role === 'lead' && generation > 1 && !state.leadNext) state.leadNext = takeoverName(engine);
  const name = lane.role === 'lead' && generation > 1 ? (state.leadNext ?? state.leadAgent) : lane.name;
  try {
    const existing = (await engine.host.list()).find((p) => p.lane === name && p.generation === generation && !p.dead);
    if (existing) return { type: 'spawned', generation, account: accountId, paneId: existing.paneId };
    if (lane.role === 'lead' && generation > 1 && lane.handoff?.degraded) bumpEpoch(engine, name);
    const laneSpec = config.lanes.find((l) => l.name === lane.name);
    const spec = agentPane({
      config,
      name,
      role: lane.role,
      generation,
      account,
      epoch: state.epoch,
      checkout: engine.checkoutOf(lane.name),
      task: engine.taskOf(lane.name),
      command: lane.role === 'lead' ? config.lead.command : (laneSpec?.command ?? state.added.find((l) => l.name === lane.name)?.command ?? null),
      packet: packet || null,
      brief: packet ? briefFor(engine, packet) : null,
    }, engine.env);
    const info = await engine.host.spawn(spec);
    return { type: 'spawned', generation, account: accountId, paneId: info.paneId };
  } catch (error) {
    return { type: 'spawn_failed', generation, account: accountId, error: error instanceof SwarmError || error instanceof Error ? error.message : String(error) };
  }
}
