/**
 * A swarm's life: take the plan's lock, claim the lead (or re-adopt a live swarm), start the lead
 * and the lanes, feed the inbox and the panes to the engine, and settle when the plan is done or
 * can no longer move.
 */
import { basename } from 'node:path';
import type { SwarmConfig } from '../core/config/config.js';
import { claim } from '../core/lead/epochs.js';
import type { InboxRecord } from '../core/protocol/inbox.js';
import { planPaths } from '../core/plan/paths.js';
import { MismatchError, planFilesFault, PlanFilesError } from '../errors.js';
import type { HostEvent, PaneHost, PaneInfo } from '../adapters/host.js';
import { lastWords } from '../core/screens/screens.js';
import type { ResumedPane } from '../machine/types.js';
import { appendLine, ensureDir } from '../adapters/files.js';
import { followJournal, journalSize } from '../adapters/journal.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import { tryLock } from '../adapters/lock.js';
import { writeSettings } from '../adapters/settings.js';
import { pickReviewer, resumeReviewer, spawnReviewer } from './reviewers.js';
import { runBase, writeGitHooks } from '../adapters/gitHooks.js';
import { SWARM_BIN } from './swarmBin.js';
import { createSwarmStore, pushEvent, setPreview, type SwarmStore } from '../ui/store.js';
import { previewLines } from '../ui/preview.js';
import { startFailed } from '../machine/firstStart.js';
import { reconcileLeases, recordPane, releaseGoneAgents, resumePane, spawn, startMissing } from './agentStarts.js';
import { watchSpools } from '../adapters/spoolWatch.js';
import { runOf } from '../core/swarm/runs.js';
import { loadKinds } from '../kinds/index.js';
import { Engine } from './engine.js';
import { saveState } from './engineState.js';
import { beginsRun, freshOrSaved, type Corrupt } from './initialState.js';
import { hostFor, sessionName } from './hostFor.js';
import { usageLook, type UsageLook } from './usageLook.js';
import { inboxReader } from './inboxReader.js';
import { stopOnHostLost } from './runEnd.js';
import { leadClaimed } from './leadSuccession.js';
import { runSwarmEffect } from './swarmEffects.js';
import { adoptPane } from './promotion.js';
import { systemClock, isoNow, type Clock, type ClockTimer } from './clock.js';
import { PaneWatch } from './watch.js';
import { requireSession } from './sessionClaim.js';

export interface Outcome {
  code: 0 | 1 | 5;
  why: string;
  /** Set when the plan's files still refuse writes as the run ends (exit 5). */
  fault?: PlanFilesError;
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
  /** The view's store exists (before any pane starts): a dashboard can draw from now on. */
  onStore?: (store: SwarmStore) => void;
  /** The one clock of the run (default: the system's). */
  clock?: Clock;
  /**
   * Doctor's checks, run when this start begins a run (after the lock is taken; never on a re-adopt):
   * throws to refuse the start (`swarm up` without `--force`, SPEC 10.2).
   */
  preflight?: () => Promise<void>;
}

/**
 * How long a run that ends while the plan's files refuse writes waits for them before it exits 5
 * (real time: the file system's, whatever the run's clock).
 */
const FINISH_GRACE_MS = 5000;
/** A grace period that keeps nothing alive: a run that settled sooner exits at once. */
const realDelay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

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
    if (options.preflight && beginsRun(config)) await options.preflight();
    const clock = options.clock ?? systemClock;
    const host = options.host ?? (await hostFor(config, options.env));
    const { state, corrupt, hostLost } = freshOrSaved(config, host, clock);
    // Only this plan's session is used (SPEC 10.1): another plan's is refused before anything of it is touched.
    const claimed = await requireSession(host, config.plan, state);
    const store = createSwarmStore({
      name: config.name,
      plan: config.plan,
      session: sessionName(config),
      backend: host.kind,
      startedAt: clock.now(),
      lead: { name: state.leadAgent, epoch: state.epoch, account: config.lead.account, state: 'starting' },
      lanes: [],
    });
    const kinds = await loadKinds(config.accounts.map((a) => a.kind));
    const engine = new Engine({ config, host, store, state, env: options.env, kinds, clock, untilDone: options.untilDone });
    probePlanFiles(engine);
    if (claimed === 'adopted') engine.journal({ type: 'observation', event: 'session_adopted', lane: null, session: sessionName(config), what: 'a tmux session without an owner, its panes this plan\'s, is stamped as this plan\'s' });
    options.onStore?.(store);
    // The agents went with their tmux server (SPEC 10.8): it died under the last run, or the swarm's session
    // is gone now (a reboot, a logout, the server killed while no engine ran); embedded panes end with their engine.
    const hostGone = state.order.length > 0 && (hostLost || claimed === 'absent' || claimed === 'none');
    return await run(engine, options, () => lock.release(), corrupt, hostGone);
  } catch (error) {
    lock.release();
    const fault = planFilesFault(error);
    if (fault) throw new PlanFilesError(`swarm up cannot start: ${fault.message}`, { path: fault.path, hint: fault.hint ?? 'make the plan folder writable', cause: error });
    throw error;
  }
}

/** Before anything starts: the state file and the journal take a write (else exit 5, nothing started). */
function probePlanFiles(engine: Engine): void {
  saveState(planPaths(engine.config.plan).state, engine.state);
  appendLine(planPaths(engine.config.plan).journal, '');
}

async function run(engine: Engine, options: SwarmOptions, unlock: () => void, corrupt: Corrupt | null, hostGone: boolean): Promise<RunningSwarm> {
  const { config } = engine;
  writeSettings(config.plan, {
    capacity: { low: config.thresholds.capacityLow, critical: config.thresholds.capacityCritical },
    contextPressure: config.thresholds.contextPressure,
    window: config.thresholds.window,
    headroom: config.thresholds.headroom,
    maxAsks: config.maxAsks,
    askMs: config.timeouts.ask,
  });

  let settle: (outcome: Outcome) => void = () => undefined;
  const finished = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  // The dashboard's preview: a lane's current pane's last lines, each time the watch reads its screen.
  const watchPanes = new PaneWatch(engine, (lane, paneId, screen) => setPreview(engine.store, lane, { paneId, lines: previewLines(screen) }));
  engine.onPaneAssigned = (paneId) => watchPanes.poke(paneId);
  let inboxWatcher: { close: () => void } | null = null;
  let usage: UsageLook | null = null;
  const inbox = inboxReader(engine);
  let timeout: ClockTimer | null = null;
  let done = false;

  // The store's events are the journal itself, whoever wrote the line (the engine, `swarm lead`, a
  // fenced `swarm notify`): the dashboard and the headless log show the same record as `swarm journal`.
  const journalFollower = followJournal(config.plan, journalSize(config.plan), (entry) => pushEvent(engine.store, entry));
  if (corrupt) {
    engine.journal({
      type: 'observation', event: 'state_corrupt', lane: null, kept: corrupt.kept, why: corrupt.why,
      what: 'the saved state was unreadable: this run starts afresh (leftover panes are closed); the bad file is kept aside',
    });
  }

  const finish = (outcome: Outcome) => {
    if (done) return;
    done = true;
    engine.finished = true;
    void (async () => {
      // A refusal met at the very end (a full disk for a moment) gets a last while to pass: what the
      // run holds in memory — the journal's last lines, plan_done among them — is written, not lost.
      // What is already queued is reduced first: a successor's pane reported after the plan ended is
      // no awaited successor any more and is killed (machine/doneExit.ts), never left running after it.
      // One grace for both waits: the queue may itself be waiting on the refused files.
      const grace = realDelay(FINISH_GRACE_MS);
      await Promise.race([engine.enqueue(() => undefined), grace]);
      // The agents' last usage records (SPEC 10.7), folded before the run settles: the ledger ends complete.
      if (usage !== null) await Promise.race([usage.look(), grace]);
      if (engine.writes.fault) await Promise.race([engine.writes.settled().catch(() => undefined), grace]);
      const fault = engine.writes.fault;
      if (fault) outcome = { code: 5, why: `the plan's files still refuse writes: ${fault.error.message}`, fault: fault.error };
      else if (outcome.code === 0) releaseGoneAgents(engine);
      journalFollower.drain();
      settle(outcome);
    })();
  };

  engine.spawner = (lane, generation, account, packet) => spawn(engine, lane, generation, account, packet);
  engine.resumer = (lane, effect) => resumePane(engine, lane, effect);
  engine.adopter = (effect) => adoptPane(engine, effect);
  engine.reviewers = { pick: (lane, effect) => pickReviewer(engine, lane, effect), spawn: (lane, effect) => spawnReviewer(engine, lane, effect) };
  engine.starter = () => engine.writes.persistently(async () => startMissing(engine, await engine.host.list()));
  engine.swarmEffect = (effect, intent) => runSwarmEffect(engine, effect, {
    finish,
    startAdded: () => engine.writes.persistently(async () => startMissing(engine, await engine.host.list())),
    readInbox: () => void inbox.drain(),
  }, intent);

  const unsubscribe = engine.host.onEvent((event) => {
    if (event.type === 'lost') stopOnHostLost(engine, event.reason);
    else if (event.type === 'connection') connectionChanged(engine, event);
    else watchPanes.handle(event);
  });
  try {
    await begin(engine, inbox, hostGone);
    inboxWatcher = watchSpools(config.plan, runOf(engine.state), () => void inbox.drain(), (spool) => inbox.spoolChanged(spool));
    usage = usageLook(engine);
    void usage.look();
    engine.readInbox = () => inbox.drain();
    void inbox.drain();
    engine.publish();
    engine.dispatch({ type: 'plan', event: 'resume' });
    if (options.timeoutMs !== null) timeout = engine.clock.after(options.timeoutMs, () => finish({ code: 1, why: `--timeout passed (${options.timeoutMs} ms)` }));
    engine.dispatch({ type: 'settle' });
  } catch (error) {
    // The tmux server killed while the run starts (a command of the start fails before any event
    // could tell): the same stop short as a server lost later, not tmux's own error.
    const reason = await engine.host.unreachable?.().catch(() => null);
    if (reason === undefined || reason === null) {
      unsubscribe();
      journalFollower.close();
      watchPanes.stop();
      throw error;
    }
    stopOnHostLost(engine, `${reason}, while swarm up was starting: ${error instanceof Error ? error.message : String(error)}`);
    await engine.idle().catch(() => undefined);
  }

  const detach = async () => {
    // The agents' last usage records (SPEC 10.7) are folded before the engine lets go (its state is saved below).
    if (!engine.closed) await usage?.look();
    journalFollower.drain();
    journalFollower.close();
    engine.closed = true;
    engine.writes.stop();
    timeout?.cancel();
    inboxWatcher?.close();
    usage?.stop();
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
 * The start of a run: the host's session, leftovers of a finished run closed, the saved run
 * re-adopted (leases, intents, waiting records, panes), the lead claimed, missing agents started.
 */
async function begin(engine: Engine, inbox: ReturnType<typeof inboxReader>, hostGone: boolean): Promise<void> {
  await engine.host.start();
  // A fresh run (no state, or the last run's plan was done) adopts nothing: agent panes an earlier run
  // left in this swarm's session are closed first, so a leftover idle agent is not taken for a new one.
  // Its first intent, `run_started`, is journaled before anything else of the run.
  if (engine.state.order.length === 0) {
    await engine.enqueue(() => engine.drainPending());
    const leftover = await engine.host.list();
    for (const pane of leftover) await engine.host.kill(pane.paneId).catch(() => undefined);
    if (leftover.length > 0) engine.journal({ type: 'observation', event: 'stale_panes_closed', lane: null, panes: leftover.length });
  }
  // The server could not be put in a user scope of its own (SPEC 10.8): a logout may end it.
  const note = engine.host.serverStart?.note ?? null;
  if (note !== null) engine.journal({ type: 'observation', event: 'server_unscoped', lane: null, what: note });

  // Re-adopt: leases of a dead engine, then intents (and the events they cause), then tell each lane what
  // the panes look like now: listed after the intents ran, so a spawn just carried out is seen. A pane
  // belongs to the lane whose agent its name is (the lead's successor may go by `lead-b`).
  reconcileLeases(engine);
  await engine.enqueue(() => engine.drainPending());
  await engine.idle();
  // Records waiting in the inbox are read before the panes are looked at: a report queued while no
  // engine ran counts as if it came in time, even when its agent has exited since. From the first
  // record of an agent whose start was never recorded on, they wait until it is adopted (below).
  void inbox.drain(notStarted(engine));
  await engine.idle();
  const panes = await engine.host.list();
  // Lanes whose first start failed go first: they start again, so no other lane's step finds them blocked.
  const retried = engine.state.order.filter((name) => startFailed(engine.state.lanes[name]!));
  for (const name of [...retried, ...engine.state.order.filter((n) => !retried.includes(n))]) {
    const mine = panes.filter((p) => engine.laneOfAgent(p.lane) === name);
    // Panes an earlier engine started are recorded again (an older swarm wrote no record of them).
    const lane = engine.state.lanes[name]!;
    // A promoted agent leading in its pane is recorded again with the epoch it leads at.
    const leadsAt = (g: number) => (lane.promotedFrom && g === lane.generation ? { epoch: lane.promotedFrom.epoch } : {});
    for (const p of mine) if (!p.dead) recordPane(engine, { lane: p.lane, role: lane.role, generation: p.generation, account: p.account, ...leadsAt(p.generation) }, p);
    engine.dispatch(name, { type: 'resume', panes: await Promise.all(mine.map((p) => resumedPane(engine.host, p))), ...(hostGone ? { hostGone } : {}) });
    resumeReviewer(engine, name, panes);
  }
  if (engine.state.order.length > 0) engine.journal({ type: 'observation', event: 'readopted', lane: null, panes: panes.length });
  engine.deadlines.arm();

  // swarm's git hooks (SPEC 10.5) are in place before any pane's git could run them.
  const { config } = engine;
  const run = runOf(engine.state);
  writeGitHooks(config.plan, run, runBase(config.plan, run, config.base, config.lead.checkout), { node: process.execPath, bin: SWARM_BIN });
  // Claim before any lane starts, then start whatever has no agent yet.
  if (engine.state.epoch === 0) claimLead(engine);
  await engine.enqueue(async () => {
    await engine.drainPending(); // the claim's journal line, before any lane starts
    await engine.writes.persistently(() => startMissing(engine, panes));
    await engine.drainPending();
  });
  await engine.idle();
  inbox.release();
}

/** A record of an agent whose start the saved state never recorded (a lane still starting, no pane): it waits for the start. */
function notStarted(engine: Engine): (record: InboxRecord) => boolean {
  return (record) => {
    const name = engine.laneOfAgent(record.from);
    const lane = name === null ? undefined : engine.lane(name);
    return lane !== undefined && lane.state === 'starting' && lane.paneId === null;
  };
}

function claimLead(engine: Engine): void {
  const { config } = engine;
  const now = isoNow(engine.clock);
  const outcome = updateLeadRecord(config.plan, (current) => {
    // A released record from an earlier run is claimed anew (epoch + 1).
    return claim(current, { plan: basename(config.plan), lead: config.lead.name, account: config.lead.account, succession: config.lead.succession, now });
  });
  if (!outcome.ok) throw new MismatchError(`cannot claim the lead of plan ${basename(config.plan)}: ${outcome.message}`, [outcome.message]);
  leadClaimed(engine, outcome.record.epoch);
}

/** A pane as a restart finds it; a dead one with its exit status and its last words (remain-on-exit kept its screen). */
async function resumedPane(host: PaneHost, p: PaneInfo): Promise<ResumedPane> {
  const pane = { generation: p.generation, paneId: p.paneId, dead: p.dead };
  if (!p.dead) return pane;
  const tail = await host.capture(p.paneId, 200).then(lastWords, () => '');
  return { ...pane, status: p.deadStatus, ...(p.deadSignal === undefined ? {} : { signal: p.deadSignal }), tail };
}

/**
 * Another host's connection (SPEC 10.9), journaled: `host_unreachable` when it went (tried again),
 * `host_reconnected` when it came back, `host_lost` with the host when it did not (its lanes' panes
 * are told gone by the host, each lane then lost as any).
 */
function connectionChanged(engine: Engine, event: Extract<HostEvent, { type: 'connection' }>): void {
  const name = event.state === 'lost' ? 'host_unreachable' : event.state === 'back' ? 'host_reconnected' : 'host_lost';
  engine.journal({ type: 'observation', event: name, lane: null, host: event.host, reason: event.reason });
}
