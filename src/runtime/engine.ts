/**
 * The engine: a loop. Events in (input adapters, deadlines, the results of effects), the one reducer
 * decides (core/swarm/reduce.ts), effects out. One serial queue, so every step sees the state the
 * previous one left; `this.state = next` in apply() is the only write of the swarm's state in the
 * runtime (scripts/check-state-writes.mjs), and the state is saved (with its pending effects, the
 * intent records) before any effect runs.
 */
import type { SwarmConfig } from '../core/config/config.js';
import type { Effect, LaneEvent, LaneState } from '../machine/types.js';
import { planPaths } from '../core/plan/paths.js';
import { deadlines } from '../core/swarm/deadlines.js';
import { accountsInUse } from '../core/swarm/exclusions.js';
import type { SwarmEffect, SwarmEvent } from '../core/swarm/events.js';
import { reduceSwarm, type SwarmContext } from '../core/swarm/reduce.js';
import type { PendingEffect } from '../core/swarm/state.js';
import type { LeadRecord } from '../core/lead/epochs.js';
import type { JournalEntry } from '../core/protocol/journal.js';
import type { Kinds } from '../kinds/index.js';
import type { PaneHost } from '../adapters/host.js';
import { appendJournal, journaledIntents, journalEntry, type JournalInput } from '../adapters/journal.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { leaseStore, readLeases, type LeaseStore } from '../adapters/leaseFiles.js';
import { sharedKeys } from '../core/accounts/leaseKey.js';
import { appendMailbox } from '../adapters/mailbox.js';
import { senderName, type Sender } from '../core/protocol/mailbox.js';
import { pushEvent, type SwarmStore } from '../ui/store.js';
import type { PlanFilesError } from '../errors.js';
import { saveState, type EngineState } from './engineState.js';
import { runEffect } from './effects.js';
import { loadKind } from '../adapters/kinds.js';
import { Deadlines } from './timers.js';
import { systemClock, type Clock } from './clock.js';
import { Deliveries } from './delivery.js';
import { laneViews, leadView, spentView } from './views.js';
import { PlanWrites } from './planWrites.js';

/**
 * A step the agents' files rebuild if its save is lost (SPEC 10.7): usage records or a numbered turn
 * folded into the ledger. Read again after a crash, they fold to the same ledger, so their save may
 * wait (PlanWrites.saveSoon).
 */
function soft(event: SwarmEvent): boolean {
  return event.type === 'usage' || event.type === 'turn';
}

export interface EngineDeps {
  config: SwarmConfig;
  host: PaneHost;
  store: SwarmStore;
  state: EngineState;
  env: NodeJS.ProcessEnv;
  /** The kinds of the swarm's accounts, loaded (kinds/index.ts). */
  kinds: Kinds;
  /** The one clock of the run (tests: a hand clock). */
  clock?: Clock;
  /** `--until-done`: a plan no lane can move stops short. */
  untilDone?: boolean;
}

export class Engine {
  readonly config: SwarmConfig;
  readonly host: PaneHost;
  readonly store: SwarmStore;
  readonly env: NodeJS.ProcessEnv;
  readonly kinds: Kinds;
  state: EngineState;
  readonly clock: Clock;
  readonly now: () => number;
  readonly deadlines: Deadlines;
  readonly deliveries: Deliveries;
  readonly untilDone: boolean;
  /** Journal, mailbox and state writes, kept in memory and tried again while the file system refuses them. */
  readonly writes: PlanWrites;
  private queue: Promise<void> = Promise.resolve();
  private failed: unknown = null;
  /** Set once the swarm detaches: no new events are taken; the state stays as saved. */
  closed = false;
  /** Set once the run has settled (a finish carried out): the plan's end is decided no more. */
  finished = false;
  /** Hooks the lifecycle installs (swarm.ts): a pane newly a lane's, the swarm's own effects, successor starts. */
  onPaneAssigned: ((paneId: string) => void) | null = null;
  swarmEffect: ((effect: SwarmEffect, intent: string | undefined) => Promise<void> | void) | null = null;
  /** The journal intents pending when this engine started: a kill may have come just after their line was written. */
  private readonly recovered: Set<string>;
  /** The intents the journal's end shows written (read once, when a recovered one is first due). */
  private journaled: Set<string> | null = null;
  spawner: ((lane: LaneState, generation: number, account: string, packet: string) => Promise<LaneEvent>) | null = null;
  resumer: ((lane: LaneState, effect: Extract<Effect, { type: 'resume_session' }>) => Promise<LaneEvent>) | null = null;
  /** Gives the lead lane a promoted agent's pane (runtime/promotion.ts), installed by the run. */
  adopter: ((effect: Extract<Effect, { type: 'adopt_pane' }>) => Promise<void>) | null = null;
  starter: (() => Promise<void>) | null = null;
  /** Picks and starts a lane's reviewers (runtime/reviewers.ts), installed by the run. */
  reviewers: {
    pick(lane: LaneState, effect: Extract<Effect, { type: 'pick_reviewer' }>): LaneEvent;
    spawn(lane: LaneState, effect: Extract<Effect, { type: 'spawn_reviewer' }>): Promise<LaneEvent>;
  } | null = null;
  /** Read the inbox; resolves once what was read is queued. Set once the run has begun (swarm.ts). */
  readInbox: (() => Promise<void>) | null = null;

  hostLost(reason: string): void {
    this.dispatch({ type: 'host_lost', reason });
  }

  async startAgain(): Promise<void> {
    await this.starter?.();
  }

  constructor(deps: EngineDeps) {
    this.config = deps.config;
    this.host = deps.host;
    this.store = deps.store;
    this.state = deps.state;
    this.env = deps.env;
    this.kinds = deps.kinds;
    this.clock = deps.clock ?? systemClock;
    this.now = () => this.clock.now();
    this.untilDone = deps.untilDone ?? false;
    this.recovered = new Set(deps.state.pending.flatMap((p) => (p.effect.type === 'journal' && p.id !== undefined ? [p.id] : [])));
    this.deadlines = new Deadlines(() => deadlines(this.state, this.config.timeouts.ask), (due) => {
      for (const event of due) this.dispatch(event);
    }, this.clock);
    this.deliveries = new Deliveries(this);
    this.writes = new PlanWrites({
      saveState: () => saveState(planPaths(this.config.plan).state, this.state),
      onFault: (fault) => this.toldFault(fault),
      onRecovered: (fault, since) => this.journal({
        type: 'observation', event: 'plan_files_recovered', lane: null, path: fault.path, error: fault.message,
        since: new Date(since).toISOString(), for_ms: systemClock.now() - since,
      }),
      // The retry paces I/O against the file system, which refuses or takes writes in real time: it
      // runs on the system clock, whatever the run's clock (a hand clock in tests would never retry).
      clock: systemClock,
      runClock: this.clock,
    });
  }

  /** Told once per refusal, in the headless log and the dashboard (the journal may be what refuses). */
  private toldFault(fault: PlanFilesError): void {
    pushEvent(this.store, journalEntry({
      type: 'observation', event: 'plan_files_fault', lane: null, epoch: this.state.epoch, path: fault.path, error: fault.message,
      what: `${fault.hint ?? 'make the plan folder writable'}; swarm keeps its state and every event in memory meanwhile and carries on once it can write`,
    }));
  }

  lane(name: string): LaneState | undefined {
    return this.state.lanes[name];
  }

  /** Queue work; every job runs after the previous one finished. */
  enqueue(job: () => Promise<void> | void): Promise<void> {
    this.queue = this.queue.then(job).catch((error: unknown) => {
      this.failed = error;
      this.journal({ type: 'observation', event: 'engine_error', lane: null, error: error instanceof Error ? error.message : String(error) });
    });
    return this.queue;
  }

  /** Queue one event (a lane's: `dispatch(lane, event)`): reduced, saved with its effects as intents, then carried out. */
  dispatch(event: SwarmEvent): void;
  dispatch(lane: string, event: LaneEvent): void;
  dispatch(first: SwarmEvent | string, laneEvent?: LaneEvent): void {
    if (this.closed) return;
    const event: SwarmEvent = typeof first === 'string' ? { type: 'lane', lane: first, event: laneEvent! } : first;
    void this.enqueue(() => this.step(event));
  }

  /**
   * Reduce one event now, from a job already on the queue (a start, the inbox offset, a successor's
   * name): the new state replaces the old — the only write of it in the runtime —, the step's effects
   * join the pending intents, and it is saved. They run at the next drain. False when nothing changed.
   */
  apply(event: SwarmEvent): boolean {
    const before = this.state;
    const { state, effects } = reduceSwarm(before, event, this.context());
    if (state === before && effects.length === 0) return false;
    this.state = effects.length === 0 ? state : { ...state, ...withIds(state, effects) };
    this.panesAssigned(before.lanes);
    if (effects.length === 0 && soft(event)) this.writes.saveSoon();
    else this.save();
    return true;
  }

  private async step(event: SwarmEvent): Promise<void> {
    const changed = this.apply(event);
    await this.writes.settled(); // the intents (and the deadlines) are on disk before any of them runs
    this.deadlines.arm();
    if (!changed) return;
    await this.drainPending();
    this.publish();
  }

  private context(): SwarmContext {
    // lead.json is read when the step asks for it, once (a usage record's step never does: no file read per record).
    let record: LeadRecord | null | undefined;
    const read = (): LeadRecord | null => (record === undefined ? (record = this.leadRecord()) : record);
    return {
      now: this.now(), config: this.config, untilDone: this.untilDone, get leadRecord() { return read(); },
      finished: this.finished, sameAccount: this.sameAccount(), vendors: this.vendors(), resumeKinds: this.resumeKinds(),
    };
  }

  /**
   * A pane's first output can arrive before the pane is known to belong to its lane: the screen of
   * every pane a step newly assigned is looked at once, so a dialog shown at start is not missed.
   * A successor that accepted is newly its lane's agent too: what it drew while a successor was read
   * only for the screens that stop a start, so its screen is looked at again as the lane's.
   */
  private panesAssigned(before: Record<string, LaneState>): void {
    for (const [name, lane] of Object.entries(this.state.lanes)) {
      const was = before[name];
      const successor = lane.handoff?.successor?.paneId ?? null;
      if (lane.paneId && lane.paneId !== (was?.paneId ?? null)) this.onPaneAssigned?.(lane.paneId);
      if (successor && successor !== lane.paneId && ![was?.paneId ?? null, was?.handoff?.successor?.paneId ?? null].includes(successor)) {
        this.onPaneAssigned?.(successor);
      }
    }
  }

  /**
   * Run pending intents in order; each is removed (and the state saved) once done, so a kill in
   * between runs it again — except a journal line, which carries its intent's id: one a killed
   * engine already wrote is found at the journal's end and not written twice (exactly once).
   */
  async drainPending(): Promise<void> {
    while (this.state.pending.length > 0) {
      const item = this.state.pending[0]!;
      if (!this.writtenBefore(item)) await this.writes.persistently(() => this.carryOut(item));
      this.done(item);
      await this.writes.settled();
    }
  }

  /** A journal intent pending at start whose line is already in the journal (the kill came between the line and the save). */
  private writtenBefore(item: PendingEffect): boolean {
    if (item.id === undefined || !this.recovered.delete(item.id)) return false;
    this.journaled ??= journaledIntents(this.config.plan);
    return this.journaled.has(item.id);
  }

  private done(item: PendingEffect): void {
    this.state = { ...this.state, pending: this.state.pending.filter((p) => p !== item) };
    this.save();
  }

  private async carryOut(item: PendingEffect): Promise<void> {
    if (item.lane === null) await this.swarmEffect?.(item.effect, item.id);
    else await runEffect(this, item.lane, item.effect, item.id);
  }

  /** Save the state (now, or once the file system lets us: see PlanWrites). */
  save(): void {
    this.writes.save();
  }

  /** Append to the journal; the store sees it (and every other process's entries) through its follower. */
  journal(input: JournalInput): JournalEntry {
    const at = new Date(this.now());
    const full: JournalInput = { epoch: this.state.epoch, ...input };
    this.writes.append(() => appendJournal(this.config.plan, full, at));
    return journalEntry(full, at);
  }

  /** Append to an agent's mailbox and point it there when its turn has ended. */
  deliver(to: string, from: Sender, text: string, about?: string): void {
    const at = new Date(this.now());
    this.writes.append(() => appendMailbox(this.config.plan, to, { from, text, at }));
    this.deliveries.queue(to);
    if (about) this.journal({ type: 'observation', event: 'message', lane: about, to, from: senderName(from) });
  }

  /** Where messages for the lead go: its successor once a handover is under way (it reads them on start). */
  leadMailbox(): string {
    return this.state.leadNext ?? this.state.leadAgent;
  }

  /** The name the lane's current agent goes by (the lead's successor may carry another name). */
  agentName(lane: LaneState): string {
    return lane.role === 'lead' ? this.state.leadAgent : lane.name;
  }

  /** The lane (or lead) whose agent goes by `agent`. */
  laneOfAgent(agent: string): string | null {
    if (this.state.lanes[agent] && this.state.lanes[agent]!.role === 'lane') return agent;
    const lead = this.state.lanes[this.state.leadName];
    if (agent === this.state.leadAgent || agent === this.state.leadName || this.config.lead.succession.includes(agent)) return lead ? this.state.leadName : null;
    return null;
  }

  checkoutOf(name: string): string {
    if (name === this.state.leadName) return this.config.lead.checkout;
    return this.config.lanes.find((l) => l.name === name)?.checkout ?? this.state.added.find((l) => l.name === name)?.checkout ?? this.config.dir;
  }

  taskOf(name: string): string {
    if (name === this.state.leadName) return `Lead swarm "${this.config.name}": orchestrate every lane of the plan to done, then release it.`;
    return this.config.lanes.find((l) => l.name === name)?.task ?? this.state.added.find((l) => l.name === name)?.task ?? '';
  }

  leadRecord(): LeadRecord | null {
    try {
      return readLeadRecord(this.config.plan);
    } catch {
      return null;
    }
  }

  leadAccount(): string {
    return this.state.lanes[this.state.leadName]?.account ?? this.config.lead.account;
  }

  private leaseStoreOf: LeaseStore | null = null;
  private sameAccountOf: Record<string, string[]> | null = null;
  private vendorsOf: Record<string, string> | undefined;

  private resumeKindsOf: Record<string, boolean> | undefined;

  /** Account id → whether its kind can resume a session (SPEC 10.8; worked out once). */
  private resumeKinds(): Record<string, boolean> {
    return (this.resumeKindsOf ??= Object.fromEntries(this.config.accounts.map((a) => [a.id, (loadKind(a.kind, this.config.dir).launch?.resume ?? null) !== null])));
  }

  /** Account id → the other ids on its profile folder (SPEC 10.4: one account, its readings and limits shared). */
  /** Account id → vendor, for the ledger (worked out once). */
  private vendors(): Record<string, string> {
    return (this.vendorsOf ??= Object.fromEntries(this.config.accounts.map((a) => [a.id, a.vendor])));
  }

  sameAccount(): Record<string, string[]> {
    if (this.sameAccountOf === null) {
      const same: Record<string, string[]> = {};
      for (const ids of sharedKeys(this.leases.keys)) for (const id of ids) same[id] = ids.filter((other) => other !== id);
      this.sameAccountOf = same;
    }
    return this.sameAccountOf;
  }

  /** Where this swarm leases (SPEC 10.4): the machine's folder and each account's key, worked out once. */
  get leases(): LeaseStore {
    return (this.leaseStoreOf ??= leaseStore(this.config, this.kinds, this.env));
  }

  /** Accounts serving a live agent or a successor in flight, or leased (never picked for another): account → by whom. */
  accountsInUse(): Map<string, string> {
    return accountsInUse(this.state.lanes, readLeases(this.leases).filter((l) => l.plan === undefined || l.plan === this.config.plan));
  }

  async resumeSession(lane: LaneState, effect: Extract<Effect, { type: 'resume_session' }>): Promise<LaneEvent> {
    if (!this.resumer) return { type: 'resume_failed', generation: effect.generation, error: 'no resumer installed' };
    return this.resumer(lane, effect);
  }

  async spawnSuccessor(lane: LaneState, generation: number, account: string, packet: string): Promise<LaneEvent> {
    if (!this.spawner) return { type: 'spawn_failed', generation, account, error: 'no spawner installed' };
    return this.spawner(lane, generation, account, packet);
  }

  async adoptPane(effect: Extract<Effect, { type: 'adopt_pane' }>): Promise<void> {
    await this.adopter?.(effect);
  }

  publish(): void {
    this.store.setState({
      lead: leadView(this),
      lanes: laneViews(this),
      spent: spentView(this),
    });
  }

  /** Wait for the queue to go idle (tests and shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<void> | null = null;
    while (seen !== this.queue) {
      seen = this.queue;
      await seen;
    }
    if (this.failed) throw this.failed;
  }
}

/** The step's effects as intents, each with its id (`<run>.<n>`: unique in the plan's journal across runs). */
function withIds(state: EngineState, effects: PendingEffect[]): Pick<EngineState, 'pending' | 'intents'> {
  const first = state.intents ?? 0;
  const run = state.run ?? 0;
  return {
    pending: [...state.pending, ...effects.map((effect, i) => ({ ...effect, id: `${run}.${first + i + 1}` }))],
    intents: first + effects.length,
  };
}
