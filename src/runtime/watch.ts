/**
 * Pane events → lane events. Output means "this pane changed": the screen is read when the output
 * settles (and at most every few seconds while it floods; core/screens/cadence.ts decides when) and
 * matched against the kind's screens; activity reaches the machine only when it is news for the stall
 * clock (core/screens/cadence.ts `activityDue`). A host tells output as `output` (each time, as the
 * pty host does) or by its edges, `printing` … `quiet` (core/screens/outputEdges.ts, the tmux host): a
 * printing pane has not settled until it is quiet, however long since it was last told. Deaths,
 * and panes gone (closed from tmux), become `exited`. Every deadline is on the engine's clock
 * (runtime/clock.ts), one for all panes: a redraw only moves its pane's due time. Each read of a
 * lane's current pane is also told to `onRead` (the dashboard's preview of its last lines).
 */
import { lastWords, matchScreen, screenLines, type ScreenMatch } from '../core/screens/screens.js';
import { stripAnsi } from '../core/protocol/protocol.js';
import { START_SCREENS, type LaneEvent, type LaneState, type ScreenClass, type StartScreen } from '../machine/types.js';
import type { KindSpec } from '../core/config/kindFile.js';
import type { SwarmConfig } from '../core/config/types.js';
import type { HostEvent, PaneHost } from '../adapters/host.js';
import { loadKind } from '../adapters/kinds.js';
import { activityDue, dueReads, nextScreenRead, SCREEN_CADENCE } from '../core/screens/cadence.js';
import type { Clock, ClockTimer } from './clock.js';

/** A pane's end as its host tells it. */
type PaneEnd = Extract<HostEvent, { type: 'exited' | 'gone' }>;

/** What the watch needs of the engine (runtime/engine.ts; tests give a small one on a hand clock). */
export interface WatchedEngine {
  readonly clock: Clock;
  readonly state: { readonly lanes: Readonly<Record<string, LaneState>> };
  readonly config: Pick<SwarmConfig, 'accounts' | 'dir' | 'timeouts'>;
  readonly host: Pick<PaneHost, 'capture' | 'unreachable'>;
  readonly deliveries: { poke(agent: string): void };
  lane(name: string): LaneState | undefined;
  dispatch(lane: string, event: LaneEvent): void;
  /** The tmux server is gone (runEnd.ts stopOnHostLost). */
  hostLost?(reason: string): void;
  /** Read the inbox; resolves once what was read is queued (null until the run has begun). */
  readInbox?: (() => Promise<void>) | null;
  agentName(lane: LaneState): string;
}

/** A pane with output: the lane it served last, and when it printed and was read (core/screens/cadence.ts PaneOutput). */
interface Watched {
  lane: string;
  lastOutput: number;
  firstUnread: number | null;
  lastRead: number | null;
  /** Its host said `printing` and not yet `quiet`. */
  printing: boolean;
}

export class PaneWatch {
  private readonly screens = new Map<string, ScreenClass | null>();
  private readonly watched = new Map<string, Watched>();
  private readonly lastActivity = new Map<string, number>();
  private readonly kinds = new Map<string, KindSpec>();
  /** Ends (deaths, panes gone) of panes no lane had yet, by pane id. */
  private readonly endedUnowned = new Map<string, PaneEnd>();
  /** The one deadline: when, and the pane whose read set it (its next output moves it: rearm). */
  private wake: { at: number; paneId: string; timer: ClockTimer } | null = null;

  /**
   * `onRead`: told each screen read of a lane's current agent pane (the dashboard's preview), so the
   * preview follows the pane as it prints, on the reads the watch takes anyway: no timer of its own.
   */
  constructor(private readonly engine: WatchedEngine, private readonly onRead: (lane: string, paneId: string, screen: string) => void = () => undefined) {}

  handle(event: HostEvent): void {
    if (event.type === 'lost' || event.type === 'connection') return; // the run's to handle (runEnd.ts, swarm.ts)
    const owner = this.owner(event.paneId);
    if (!owner) {
      // An agent can die before its pane is recorded as the lane's: kept, and told once it is (poke).
      if (event.type === 'exited' || event.type === 'gone') this.endedUnowned.set(event.paneId, event);
      return;
    }
    if (event.type === 'exited' || event.type === 'gone') {
      this.watched.delete(event.paneId);
      void this.exited(owner.lane, event, owner.reviewer);
      return;
    }
    const now = this.engine.clock.now();
    const lane = this.engine.state.lanes[owner.lane];
    if (owner.current && lane && event.type !== 'quiet') {
      const view = { state: lane.state, stallNudged: lane.stallNudged, blockedClass: lane.blocked?.class ?? null, stallMs: this.engine.config.timeouts.stall };
      if (activityDue(view, this.lastActivity.get(owner.lane) ?? null, now)) {
        this.lastActivity.set(owner.lane, now);
        this.engine.dispatch(owner.lane, { type: 'output' });
      }
    }
    const printed = event.type === 'quiet' ? now - event.quietMs : now;
    let pane = this.watched.get(event.paneId);
    if (!pane) this.watched.set(event.paneId, (pane = { lane: owner.lane, lastOutput: printed, firstUnread: printed, lastRead: null, printing: false }));
    pane.lane = owner.lane;
    pane.lastOutput = printed;
    pane.firstUnread ??= printed;
    pane.printing = event.type === 'printing';
    const at = nextScreenRead(pane);
    if (this.wake?.paneId === event.paneId && at !== this.wake.at) this.rearm();
    else this.schedule(at, event.paneId);
  }

  /** Wake at `at` (for `paneId`'s read) unless an earlier wake is set already (a later one is moved up). */
  private schedule(at: number | null, paneId: string): void {
    if (at === null || (this.wake !== null && this.wake.at <= at)) return;
    this.wake?.timer.cancel();
    this.wake = { at, paneId, timer: this.engine.clock.after(at - this.engine.clock.now(), () => this.due()) };
  }

  /**
   * Set the deadline to the earliest due read of all panes, now: the pane it was set for printed
   * again, which moved its own read later. Done at once, inside the output event, not later in a
   * microtask: a flood's chunk pushes every pane's settle read on, and a deadline moved after the
   * event loop has armed its timer for it still wakes the engine, for nothing, once per chunk
   * (Node arms the loop's timer for the earliest deadline as the timer phase ends,
   * before microtasks run, and never moves it later for a cancelled one).
   */
  private rearm(): void {
    let earliest: { at: number; paneId: string } | null = null;
    for (const [paneId, pane] of this.watched) {
      const at = nextScreenRead(pane);
      if (at !== null && (earliest === null || at < earliest.at)) earliest = { at, paneId };
    }
    if (earliest !== null && this.wake !== null && earliest.at === this.wake.at) {
      this.wake.paneId = earliest.paneId;
      return;
    }
    this.wake?.timer.cancel();
    this.wake = null;
    if (earliest !== null) this.schedule(earliest.at, earliest.paneId);
  }

  /** The deadline: read every pane that is due, and wake again for the next. */
  private due(): void {
    this.wake = null;
    const now = this.engine.clock.now();
    const { read } = dueReads(this.watched, now);
    for (const paneId of read) {
      const pane = this.watched.get(paneId)!;
      // Read while it still prints (max wait): the agent is at work, not at a prompt for its mailbox.
      const flooding = pane.printing || now - pane.lastOutput < SCREEN_CADENCE.settleMs;
      // A pane still printing has unread output again at once: its next max-wait read counts from now.
      pane.firstUnread = pane.printing ? now : null;
      pane.lastRead = now;
      // Whose it is now, not when it printed: a successor may have accepted since.
      const owner = this.owner(paneId);
      if (owner === null) continue;
      if (owner.reviewer !== undefined) void this.readReviewer(owner.lane, paneId, owner.reviewer);
      else void this.readScreen(owner.lane, paneId, owner.current, flooding);
    }
    this.rearm();
  }

  /** Read a pane's screen soon, as if it had printed something (a pane just assigned to a lane). */
  poke(paneId: string): void {
    const ended = this.endedUnowned.get(paneId);
    if (ended !== undefined) {
      this.endedUnowned.delete(paneId);
      this.handle(ended);
      return;
    }
    this.handle({ type: this.watched.get(paneId)?.printing === true ? 'printing' : 'output', paneId });
  }

  stop(): void {
    this.wake?.timer.cancel();
    this.wake = null;
    this.watched.clear();
    this.endedUnowned.clear();
  }

  /**
   * Which lane a pane serves, asked of the state each time: its current agent, or a successor in
   * flight. A successor that accepted is its lane's current agent (its handoff keeps naming it as the
   * successor until the next one begins): being the lane's pane comes first.
   */
  private owner(paneId: string): { lane: string; current: boolean; reviewer?: number } | null {
    const lanes = this.engine.state.lanes;
    const last = this.watched.get(paneId)?.lane;
    const served = (lane: LaneState | undefined): boolean | null =>
      lane?.paneId === paneId ? true : lane?.handoff?.successor?.paneId === paneId ? false : null;
    const known = last === undefined ? null : served(lanes[last]);
    if (last !== undefined && known !== null) return { lane: last, current: known };
    for (const [name, lane] of Object.entries(lanes)) {
      const current = served(lane);
      if (current !== null) return { lane: name, current };
      // A lane's reviewer in flight (SPEC 10.6): watched for its end and the screens that stop it.
      const reviewer = lane.review?.reviewer ?? null;
      if (reviewer !== null && reviewer.paneId === paneId) return { lane: name, current: false, reviewer: reviewer.seq };
    }
    return null;
  }

  /** A reviewer's screen: one that swarm never answers, or a limit, ends it (a fresh reviewer is started). */
  private async readReviewer(laneName: string, paneId: string, seq: number): Promise<void> {
    const lane = this.engine.lane(laneName);
    const account = lane && this.engine.config.accounts.find((a) => a.id === lane.review?.reviewer?.account);
    if (!lane || !account) return;
    let text: string;
    try {
      text = stripAnsi(await this.engine.host.capture(paneId, 0));
    } catch {
      return;
    }
    const kind = this.kinds.get(account.kind) ?? loadKind(account.kind, this.engine.config.dir);
    this.kinds.set(account.kind, kind);
    const found = matchScreen(kind, text);
    const start = startScreen(kind, text, found);
    const screen = start ?? (found ? { screen: found.screen, text: found.text } : null);
    if (screen !== null) this.engine.dispatch(laneName, { type: 'reviewer_screen', seq, screen: screen.screen, text: screen.text });
  }

  private async readScreen(laneName: string, paneId: string, current: boolean, flooding: boolean): Promise<void> {
    const lane = this.engine.lane(laneName);
    const account = lane && this.engine.config.accounts.find((a) => a.id === (current ? lane.account : lane.handoff?.successor?.account));
    if (!lane || !account) return;
    let text: string;
    try {
      text = stripAnsi(await this.engine.host.capture(paneId, 0));
    } catch {
      return;
    }
    const kind = this.kinds.get(account.kind) ?? loadKind(account.kind, this.engine.config.dir);
    this.kinds.set(account.kind, kind);
    const found = matchScreen(kind, text);
    const screen = found?.screen ?? null;
    if (!current) {
      // A successor is only watched for the screens that stop it at its start: its account is not ready.
      const start = startScreen(kind, text, found);
      const s = lane.handoff?.successor;
      if (start && s) {
        const lines = screenLines(text, 10).join('\n');
        this.engine.dispatch(laneName, { type: 'successor_screen', generation: s.generation, account: s.account, paneId, ...start, lines });
      }
      return;
    }
    this.onRead(laneName, paneId, text);
    const changed = (this.screens.get(paneId) ?? null) !== screen;
    if (changed) {
      this.screens.set(paneId, screen);
      this.engine.dispatch(laneName, found ? { type: 'screen', screen, text: found.text } : { type: 'screen', screen: null });
    }
    if (changed || !flooding) this.engine.deliveries.poke(this.engine.agentName(lane));
  }

  /**
   * The pane's agent is gone: it exited, or its pane was closed from outside (`gone`: nothing left to
   * read, no exit of the agent's own; the lane machine decides what that means, as for a pane found
   * gone on a restart).
   */
  private async exited(laneName: string, end: PaneEnd, reviewer?: number): Promise<void> {
    const { paneId } = end;
    // A pane that went with its tmux server is no agent's exit: the host is lost, and the run stops
    // short saying so (its agents are not blamed, no successor is started on a server of its own).
    const lost = await this.engine.host.unreachable?.().catch(() => null);
    if (lost !== undefined && lost !== null && this.engine.hostLost) return this.engine.hostLost(lost);
    // What the agent wrote before it died (its `accept`, its last report) is reduced before its death:
    // the spools' watcher may fire after the death is told, and a successor that accepted, worked and
    // was killed is no successor "exited before accepting" (chaos seed 1033).
    await this.engine.readInbox?.();
    if (end.type === 'gone') {
      if (reviewer !== undefined) return this.engine.dispatch(laneName, { type: 'reviewer_exited', seq: reviewer, status: null });
      return this.engine.dispatch(laneName, { type: 'exited', paneId, status: null, vanished: true });
    }
    let tail = '';
    try {
      // The dead pane stays (remain-on-exit) until the machine closes it: its screen and some scrollback.
      tail = lastWords(await this.engine.host.capture(paneId, 200));
    } catch {
      // gone already
    }
    if (reviewer !== undefined) return this.engine.dispatch(laneName, { type: 'reviewer_exited', seq: reviewer, status: end.status, tail });
    this.engine.dispatch(laneName, { type: 'exited', paneId, status: end.status, tail, ...(end.signal === undefined || end.signal === null ? {} : { signal: end.signal }) });
  }
}

/** A screen that stops a successor at its start (a profile not ready), or null: a blocking screen, or the kind's offline text. */
function startScreen(kind: KindSpec, text: string, found: ScreenMatch | null): { screen: StartScreen; text: string } | null {
  if (found && (START_SCREENS as readonly string[]).includes(found.screen)) return { screen: found.screen as StartScreen, text: found.text };
  const lines = screenLines(text);
  const offline = lines.filter((line) => kind.screens.offline.some((re) => re.test(line)));
  return offline.length > 0 ? { screen: 'offline', text: offline.slice(-3).join('\n') } : null;
}
