/**
 * The engine: events in, the lane machine decides, effects out. One serial queue, so every
 * transition sees the state the previous one left; the state is saved (with its pending effects,
 * the intent records) before any effect runs.
 */
import type { SwarmConfig } from '../core/config.js';
import { reduceLane, type LaneEvent, type LaneState, type TimerName } from '../machine/lane.js';
import { withLane } from '../machine/laneState.js';
import { planPaths } from '../core/paths.js';
import { reduceAccounts, type AccountEvent } from '../core/swarm/accounts.js';
import type { LeadRecord } from '../core/epochs.js';
import type { JournalEntry } from '../core/journal.js';
import type { InboxRecord } from '../core/inbox.js';
import type { PaneHost } from '../adapters/host.js';
import { appendJournal, journalEntry, type JournalInput } from '../adapters/journal.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { readLeases } from '../adapters/leaseFiles.js';
import { appendMailbox } from '../adapters/mailbox.js';
import { pushEvent, type SwarmStore } from '../ui/store.js';
import type { PlanFilesError } from '../errors.js';
import { saveState, type EngineState } from './engineState.js';
import { runEffect } from './effects.js';
import { Deadlines } from './timers.js';
import { systemClock, type Clock } from './clock.js';
import { Deliveries } from './delivery.js';
import { LeadAsks } from './asks.js';
import { laneViews } from './views.js';
import { PlanWrites } from './planWrites.js';

export interface EngineDeps {
  config: SwarmConfig;
  host: PaneHost;
  store: SwarmStore;
  state: EngineState;
  env: NodeJS.ProcessEnv;
  /** The one clock of the run (tests: a hand clock). */
  clock?: Clock;
}

export class Engine {
  readonly config: SwarmConfig;
  readonly host: PaneHost;
  readonly store: SwarmStore;
  readonly env: NodeJS.ProcessEnv;
  state: EngineState;
  readonly clock: Clock;
  readonly now: () => number;
  readonly deadlines: Deadlines;
  readonly deliveries: Deliveries;
  readonly asks: LeadAsks;
  /** Journal, mailbox and state writes, kept in memory and tried again while the file system refuses them. */
  readonly writes: PlanWrites;
  private queue: Promise<void> = Promise.resolve();
  private failed: unknown = null;
  /** Set once the swarm detaches: no new events are taken; the state stays as saved. */
  closed = false;
  /** Hooks the lifecycle (start, spawn, lead, completion) installs. */
  onSettled: (() => void) | null = null;
  onLeadRecord: ((record: Extract<InboxRecord, { kind: 'lead' }>) => void) | null = null;
  onPlanReleased: (() => void) | null = null;
  onPaneAssigned: ((paneId: string) => void) | null = null;
  onLaneAdded: ((record: Extract<InboxRecord, { kind: 'lane' }>) => void) | null = null;
  spawner: ((lane: LaneState, generation: number, account: string, packet: string) => Promise<LaneEvent>) | null = null;

  constructor(deps: EngineDeps) {
    this.config = deps.config;
    this.host = deps.host;
    this.store = deps.store;
    this.state = deps.state;
    this.env = deps.env;
    this.clock = deps.clock ?? systemClock;
    this.now = () => this.clock.now();
    this.deadlines = new Deadlines(() => this.state.timers, (due) => this.fireTimers(due), this.clock);
    this.deliveries = new Deliveries(this);
    this.asks = new LeadAsks(this);
    this.writes = new PlanWrites({
      saveState: () => saveState(planPaths(this.config.plan).state, this.state),
      onFault: (fault) => this.toldFault(fault),
      onRecovered: (fault, since) => this.journal({
        type: 'observation', event: 'plan_files_recovered', lane: null, path: fault.path, error: fault.message,
        since: new Date(since).toISOString(), for_ms: this.now() - since,
      }),
      now: this.now,
    });
  }

  /** Told once per refusal, in the headless log and the dashboard (the journal may be what refuses). */
  private toldFault(fault: PlanFilesError): void {
    pushEvent(this.store, journalEntry({
      type: 'observation', event: 'plan_files_fault', lane: null, epoch: this.state.epoch, path: fault.path, error: fault.message,
      what: `${fault.hint ?? 'make the plan folder writable'}; swarm keeps its state and every event in memory meanwhile and carries on once it can write`,
    }));
  }

  /**
   * The one way a helper changes the swarm's state: the new state a reducer returned (core/swarm/),
   * committed here; saved by the caller's next save, with its effects.
   */
  commit(patch: Partial<EngineState>): void {
    Object.assign(this.state, patch);
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

  /** Feed one event to one lane: reduce, save with the effects as intents, then carry them out. */
  dispatch(laneName: string, event: LaneEvent): void {
    if (this.closed) return;
    void this.enqueue(() => this.step(laneName, event));
  }

  private async step(laneName: string, event: LaneEvent): Promise<void> {
    const lane = this.state.lanes[laneName];
    // Once the tmux server is gone, what befalls a lane (every spawn fails, panes vanish) is the host's
    // loss, not the lane's: the state saved with host_lost is what the next `swarm up` resumes from.
    if (!lane || this.state.hostLost !== undefined) return;
    const { lane: next, effects } = reduceLane(lane, event, this.context(laneName));
    this.state.lanes[laneName] = next;
    // A pane's first output can arrive before the pane is known to belong to this lane: look at the
    // screen of every newly assigned pane once, so a dialog shown at start is not missed.
    for (const paneId of [next.paneId, next.handoff?.successor?.paneId ?? null]) {
      if (paneId && paneId !== lane.paneId && paneId !== (lane.handoff?.successor?.paneId ?? null)) this.onPaneAssigned?.(paneId);
    }
    const { timers, rest } = Deadlines.apply(this.state.timers, laneName, effects);
    this.state.timers = timers;
    this.state.pending.push(...rest.map((effect) => ({ lane: laneName, effect })));
    this.save();
    await this.writes.settled(); // the intents (and the deadlines) are on disk before any of them runs
    this.deadlines.arm();
    await this.drainPending();
    this.publish();
    this.onSettled?.();
  }

  /** Run pending intents in order; each is removed (and the state saved) once done. */
  async drainPending(): Promise<void> {
    while (this.state.pending.length > 0) {
      const { lane, effect } = this.state.pending[0]!;
      await this.writes.persistently(() => runEffect(this, lane, effect));
      this.state.pending.shift();
      this.save();
      await this.writes.settled();
    }
  }

  context(laneName: string) {
    const t = this.config.timeouts;
    return {
      now: this.now(),
      maxGenerations: this.config.thresholds.maxGenerations,
      timeouts: { accept: t.accept, packet: t.packet, stall: t.stall },
      doneWhen: this.config.lanes.find((l) => l.name === laneName)?.doneWhen ?? null,
    };
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
  deliver(to: string, from: string, text: string, about?: string): void {
    const at = new Date(this.now());
    this.writes.append(() => appendMailbox(this.config.plan, to, { from, text, at }));
    this.deliveries.queue(to);
    if (about) this.journal({ type: 'observation', event: 'message', lane: about, to, from });
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

  /** Accounts serving a live agent or a successor in flight (never picked for another). */
  accountsInUse(): string[] {
    const used = new Set<string>();
    for (const lane of Object.values(this.state.lanes)) {
      if (lane.account && lane.state !== 'done') used.add(lane.account);
      const s = lane.handoff?.successor;
      if (s) used.add(s.account);
    }
    for (const lease of readLeases(this.config.plan)) used.add(lease.account);
    return [...used];
  }

  async spawnSuccessor(lane: LaneState, generation: number, account: string, packet: string): Promise<LaneEvent> {
    if (!this.spawner) return { type: 'spawn_failed', generation, account, error: 'no spawner installed' };
    return this.spawner(lane, generation, account, packet);
  }

  setTimer(lane: string, timer: TimerName, at: number): void {
    this.state.timers = Deadlines.set(this.state.timers, lane, timer, at);
    this.deadlines.arm();
  }

  clearTimer(lane: string, timer: TimerName): void {
    this.state.timers = Deadlines.clear(this.state.timers, lane, timer);
    this.deadlines.arm();
  }

  private fireTimers(due: { lane: string; timer: TimerName; at: number }[]): void {
    for (const entry of due) {
      this.state.timers = Deadlines.clear(this.state.timers, entry.lane, entry.timer);
      this.dispatch(entry.lane, { type: 'timer', timer: entry.timer });
    }
    void this.enqueue(() => this.deadlines.arm());
  }

  /** What the swarm knows of an account changed (core/swarm/accounts.ts). */
  account(event: AccountEvent): void {
    const s = this.state;
    const facts = reduceAccounts({ limited: s.limited, notReady: s.notReady ?? {}, readings: s.readings }, event);
    s.limited = facts.limited;
    s.notReady = facts.notReady;
    s.readings = facts.readings;
  }

  /** Add a lane's state (first start, or `lane add`). */
  addLane(name: string, role: 'lead' | 'lane', account: string | null): LaneState {
    const next = withLane(this.state.lanes, this.state.order, { name, role, account, now: this.now() });
    this.state.lanes = next.lanes;
    this.state.order = next.order;
    return next.lane;
  }

  publish(): void {
    const lead = this.state.lanes[this.state.leadName];
    this.store.setState({
      lead: { name: this.state.leadAgent, epoch: this.state.epoch, account: lead?.account ?? null, state: lead?.state ?? 'starting' },
      lanes: laneViews(this),
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
