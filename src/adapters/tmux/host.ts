/**
 * `PaneHost` over tmux, event-driven: a private socket per swarm, panes by id, one control-mode
 * connection for events and commands. Deaths come from a control-mode subscription on
 * `#{pane_dead}` (tmux evaluates it once a second) and from the `pane-died` hook's file; the hook
 * alone is not enough, as tmux 3.3a skips it for some panes (measured: every pane of a window made
 * by new-window, and about one in ten others).
 *
 * Pane ids handed out name their server (paneRef.ts): an id saved under an earlier tmux server is
 * a pane that is gone, so no kill, key or capture ever reaches the pane that reuses its number.
 * Typing a line so that it lands is typing.ts. Output is told by its edges, `printing` … `quiet`
 * (core/screens/outputEdges.ts), from the control connection's reads: not an event per redraw.
 */
import { performance } from 'node:perf_hooks';
import { SwarmError } from '../../errors.js';
import { OutputEdges } from '../../core/screens/outputEdges.js';
import type { HostEvent, PaneHost, PaneInfo, PaneSpec, SessionOwnership } from '../host.js';
import * as tmux from './argv.js';
import { ControlClient, ControlClosedError } from './control.js';
import { followDeathFile, type DeathFollower } from './deathFile.js';
import { localPane, paneRef, parseServer, serverIdentity } from './paneRef.js';
import { isGoneError, runTmux, type Via } from './runner.js';
import { newScopedSession, type ScopeOptions, type ServerStart } from './serverScope.js';
import { refuseForeign, sessionOwnership, stampOwner } from './sessionOwner.js';
import { OutputWaiters, TypingQueues } from './typing.js';
import { UnsettledDeaths } from './unsettled.js';
import { PANES_CHANGED, VanishedPanes } from './vanished.js';

export interface TmuxHostOptions {
  /** A `tmux -L` name; every command carries it, so the default server is never touched. */
  socket: string;
  session: string;
  /** The plan folder's real path: a session this host makes is stamped with it (`@swarm_plan`). */
  plan?: string;
  /** The `pane-died` hook appends one JSON line per death here. */
  paneDeathFile: string;
  historyLimit?: number;
  /** The binary to run (tests); default `tmux`. */
  bin?: string;
  /** Where the systemd facts are read (serverScope.ts; tests point it at a folder of their own); default this machine's. */
  scope?: ScopeOptions;
  /**
   * The server is on another host (SPEC 10.9): every tmux command and the control connection run
   * through this (`ssh … -- 'tmux …'`). Its pane-died hook then writes `paneDeathFile` on that host,
   * and the host relay (adapters/hostRelay.ts) copies it here, where it is followed as a local one is.
   */
  via?: Via;
  /**
   * With `via`: a runner of one tmux command there that needs no ssh session of its own (the host
   * relay's, adapters/hostRelay.ts), when it is connected; else null and the command goes by `via`.
   */
  there?: () => ((args: readonly string[]) => Promise<string[]>) | null;
}

const RECONNECTS = 3;
const RESTARTED = 'the tmux server was restarted: its panes are not the ones swarm started';

export class TmuxHost implements PaneHost {
  readonly kind = 'tmux' as const;
  private control: ControlClient | null = null;
  private readonly listeners = new Set<(event: HostEvent) => void>();
  /** Which panes are printing, from the control connection's reads. */
  private readonly edges = new OutputEdges();
  private readonly outputs = new OutputWaiters();
  /**
   * Panes whose end was told, by their server-qualified ref (paneRef.ts): tmux numbers the panes of
   * every server from %0 again, so a local id told on one server must not silence a new pane of the next.
   */
  private readonly reported = new Set<string>();
  private readonly typing = new TypingQueues({ exec: (argv) => this.exec(argv, false), nextOutput: (id, ms) => this.outputs.next(id, ms) });
  private spawning: Promise<unknown> = Promise.resolve();
  /** Deaths tmux has not finished telling (unsettled.ts). */
  private readonly unsettled = new UnsettledDeaths({
    nudge: () => this.exec(tmux.reapNudge()),
    statusOf: async (paneId) => tmux.parsePaneList(await this.exec(tmux.listPanes(this.options.session))).find((p) => p.paneId === paneId)?.deadStatus ?? null,
    died: (paneId, status) => this.died(paneId, status),
  });
  private deaths: DeathFollower | null = null;
  /**
   * Panes closed from tmux, which make no death (vanished.ts), known by their server-qualified ref: a
   * pane known on a server that has died since (`swarm up` started as it was killed, chaos seed 1033)
   * is told gone under its own server's id, never as the pane of that number on the next server.
   */
  private readonly vanished = new VanishedPanes({
    list: async () => (await this.list()).map((pane) => pane.paneId),
    gone: (ref) => this.gone(ref),
  });
  private stopped = false;
  private reconnects = 0;
  /** `<pid>.<start time>` of the server the host works with (paneRef.ts). */
  private server: string | null = null;
  /** The session was there (made or found) in this host's `start`: a server that is gone since was lost, not never had. */
  private reached = false;
  /**
   * How this host's `start` made the session, when it made it: in a systemd user scope or plainly, and
   * a note to tell once (systemd-run failed, so a logout may end the server). Null: it found the session.
   */
  serverStart: ServerStart | null = null;

  readonly ownership?: SessionOwnership;

  constructor(private readonly options: TmuxHostOptions) {
    const { socket, session, plan } = options;
    if (plan !== undefined) this.ownership = sessionOwnership({ socket, session, plan }, (argv) => this.run(argv), () => this.list());
  }

  async start(): Promise<void> {
    if (this.control?.open) return;
    this.stopped = false;
    const { session } = this.options;
    if (!(await this.run(tmux.hasSession(session)).then(() => true, () => false))) {
      // Made and stamped in one command list: no moment in which the session is nobody's.
      const stamp = this.options.plan === undefined ? [] : [';', ...stampOwner(session, this.options.plan)];
      // The command that creates the server, if none runs yet, runs in a systemd user scope where that outlives a logout (SPEC 10.8).
      const { bin, scope, via } = this.options;
      this.serverStart = await newScopedSession(this.options.socket, session, [...tmux.newSession(session), ...stamp], { ...(bin ? { bin } : {}), ...(scope ? { scope } : {}), ...(via ? { via } : {}) })
        .catch(async (error: unknown) => {
          if (!(await this.run(tmux.hasSession(session)).then(() => true, () => false))) throw error;
          if (this.ownership && this.options.plan !== undefined) await refuseForeign(this.ownership, this.options.plan); // another swarm made it meanwhile
          return null;
        });
    }
    this.reached = true;
    for (const argv of tmux.sessionSetup(session, { historyLimit: this.options.historyLimit ?? 5000, paneDeathFile: this.options.paneDeathFile })) {
      await this.run(argv);
    }
    this.server = await this.readServer();
    for (const pane of await this.listLocal()) if (pane.dead) this.reported.add(this.ref(pane.paneId));
    this.deaths?.close();
    this.deaths = await followDeathFile(this.options.paneDeathFile, ({ paneId, status, signal }) => this.died(paneId, status, signal));
    await this.connect();
  }

  async spawn(spec: PaneSpec): Promise<PaneInfo> {
    const next = this.spawning.then(() => this.spawnNow(spec));
    this.spawning = next.catch(() => undefined);
    return next;
  }

  async list(): Promise<PaneInfo[]> {
    const server = (await this.serverId()) ?? '';
    return (await this.listLocal()).map((pane) => ({ ...pane, paneId: paneRef(pane.paneId, server) }));
  }

  async capture(ref: string, history = 0): Promise<string> {
    const paneId = await this.local(ref);
    if (paneId === null) throw new SwarmError(`can't find pane: ${ref} (a pane of another tmux server)`);
    const lines = await this.exec(tmux.capturePane(paneId, history));
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    return lines.join('\n');
  }

  async typeLine(ref: string, line: string): Promise<boolean> {
    const paneId = await this.local(ref);
    if (paneId === null) return false;
    return this.typing.type(paneId, line);
  }

  /** Another server's pane is gone already: nothing is killed (its number may be someone else's now). */
  async kill(ref: string): Promise<void> {
    this.vanished.forget(ref); // closed by swarm: not a pane that vanished
    const paneId = await this.local(ref);
    if (paneId === null) return;
    await this.exec(tmux.killPane(paneId)).catch((error: unknown) => {
      if (!isGoneError(error)) throw error;
    });
  }

  async relabel(ref: string, as: { lane: string; generation: number; account: string; role: 'lead' | 'lane' }): Promise<void> {
    const paneId = await this.local(ref);
    if (paneId === null) return; // another server's pane: gone with its server
    // A command list is one tmux process (the control connection answers each command of a list apart).
    await this.run(tmux.relabelPane(paneId, as));
  }

  /** Send a signal to the pane's process (the agent itself: panes run `exec <argv>`); on another host, by the server there. */
  async signal(ref: string, signal: NodeJS.Signals): Promise<boolean> {
    const paneId = await this.local(ref);
    const pane = paneId === null ? undefined : (await this.listLocal()).find((p) => p.paneId === paneId);
    if (!pane?.pid || pane.dead) return false;
    if (this.options.via) return this.exec(['run-shell', `kill -s ${signal.replace(/^SIG/, '')} ${pane.pid}`]).then(() => true, () => false);
    try {
      process.kill(pane.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async detach(): Promise<void> {
    this.stopped = true;
    this.endReads(); // told to no one: the host has stopped
    this.deaths?.close();
    this.deaths = null;
    this.unsettled.stop();
    const control = this.control;
    this.control = null;
    await control?.close();
  }

  async destroy(): Promise<void> {
    await this.detach();
    const ignoreGone = (error: unknown): void => { if (!isGoneError(error)) throw error; };
    await this.run(tmux.killSession(this.options.session)).catch(ignoreGone);
    const sessions = await this.run(tmux.listSessions()).catch(() => []);
    if (sessions.length === 0) await this.run(tmux.killServer()).catch(() => undefined);
  }

  private async spawnNow(spec: PaneSpec): Promise<PaneInfo> {
    const { paneId, pid, windowId } = tmux.parseSpawned((await this.makePane(spec, []))[0]);
    this.vanished.seen([this.ref(paneId)]);
    // Crash-consistency tests only: SWARM_FAULT=pane-created:<lane>:<generation> kills the engine the moment tmux has made that pane.
    if (process.env.SWARM_FAULT === `pane-created:${spec.lane}:${spec.generation}`) process.kill(process.pid, 'SIGKILL');
    for (const step of tmux.paneLook(paneId, windowId, spec)) await this.exec(step);
    return { paneId: paneRef(paneId, (await this.serverId()) ?? ''), lane: spec.lane, generation: spec.generation, account: spec.account, dead: false, deadStatus: null, pid };
  }

  /**
   * The pane made in the first agents window with room, else in a new one. A window with no space
   * for it (tmux's "no space for new pane") counts as full, and the pane is made in another.
   */
  private async makePane(spec: PaneSpec, full: string[]): Promise<string[]> {
    const windows = tmux.parseWindows(await this.exec(tmux.listWindows(this.options.session)));
    const target = tmux.pickAgentsWindow(windows, tmux.AGENTS_PER_WINDOW, full);
    const argv = tmux.spawnTagged(target.kind === 'split' ? target : { kind: 'new', session: this.options.session, name: target.name }, spec);
    // A command list is one tmux process (the control connection answers each command of a list apart).
    return this.run(argv, spec.env.PATH).catch((error: unknown) => {
      const noSpace = error instanceof Error && tmux.NO_SPACE.test(error.message);
      if (target.kind !== 'split' || !noSpace) throw error;
      return this.makePane(spec, [...full, target.windowId]);
    });
  }

  private async listLocal(): Promise<PaneInfo[]> {
    const panes = tmux.parsePaneList(await this.exec(tmux.listPanes(this.options.session)));
    if (this.server !== null) this.vanished.seen(panes.map((pane) => this.ref(pane.paneId)).filter((ref, i) => !panes[i]!.dead && !this.reported.has(ref)));
    return panes;
  }

  /** `%3` of the server the host works with, as the engine knows it (paneRef.ts). */
  private ref(paneId: string): string {
    return paneRef(paneId, this.server ?? '');
  }

  /** tmux's id of `ref` when it is a pane of this server (paneRef.ts), else null. */
  private async local(ref: string): Promise<string | null> {
    return localPane(ref, await this.serverId());
  }

  /** The server's identity: read at start, or on first use by a host that was not started (`swarm logs`). */
  private async serverId(): Promise<string | null> {
    this.server ??= await this.readServer().catch(() => null);
    return this.server;
  }

  private async readServer(): Promise<string> {
    const server = parseServer((await this.run(serverIdentity(this.options.session)))[0]);
    if (server === null) throw new SwarmError(`tmux did not say which server holds session ${this.options.session}`);
    return server;
  }

  private async connect(): Promise<void> {
    const { bin, via } = this.options;
    this.control = await ControlClient.connect({ socket: this.options.socket, session: this.options.session, ...(bin ? { bin } : {}), ...(via ? { via } : {}) }, {
      onRead: (printed) => this.read(printed),
      onSubscription: (name, paneId, value) => {
        if (name === tmux.DEATH_SUBSCRIPTION && paneId !== null) this.deathValue(paneId, value);
      },
      onNotification: (name) => {
        if (PANES_CHANGED.has(name)) void this.vanished.look();
      },
      onClose: (reason, expected) => { if (!expected) void this.lost(reason); },
    });
    this.reconnects = 0;
    void this.vanished.look(); // a pane closed while no connection was there to tell it
  }

  async unreachable(): Promise<string | null> {
    return this.reached ? this.serverNow() : null;
  }

  /** Null while the session lives on the server `start` reached; else why not (gone, or a new server). */
  private async serverNow(): Promise<string | null> {
    const gone = await this.run(tmux.hasSession(this.options.session)).then(() => null, (error: unknown) => (error instanceof Error ? error.message : String(error)));
    if (gone !== null) return `the session is gone (${gone})`;
    const server = await this.readServer().catch(() => null);
    if (server === null) return 'the tmux server did not answer';
    return this.server !== null && server !== this.server ? RESTARTED : null;
  }

  /** `%exit` while the session lives (a detach-client, say): reconnect; else the host is lost. */
  private async lost(reason: string): Promise<void> {
    this.control = null;
    this.endReads();
    if (this.stopped) return;
    const now = await this.serverNow();
    if (now === RESTARTED) reason = RESTARTED;
    if (now === null && this.reconnects < RECONNECTS && !this.stopped) {
      this.reconnects += 1;
      try {
        await this.connect();
        return;
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    if (!this.stopped) this.emit({ type: 'lost', reason });
  }

  /** A read of the control connection: typing waits for its pane's output, the engine hears the edges. */
  private read(printed: ReadonlySet<string>): boolean {
    for (const paneId of printed) this.outputs.fire(paneId);
    for (const edge of this.edges.read(printed, performance.now())) if (!this.stopped) this.emit(edge);
    return this.edges.printing;
  }

  /** The connection's reads ended: no pane is left printing with no read to see it stop. */
  private endReads(): void {
    for (const edge of this.edges.end(performance.now())) if (!this.stopped) this.emit(edge);
  }

  /** A subscription value: a death with its status, or a dead pane whose status is not known yet (unsettled.ts). */
  private deathValue(paneId: string, value: string): void {
    const { dead, status, signal } = tmux.parseDeathValue(value);
    if (dead) return this.died(paneId, status, signal);
    if (!value.startsWith('1:') || this.reported.has(this.ref(paneId)) || this.unsettled.has(paneId)) return;
    this.unsettled.wait(paneId);
  }

  private died(paneId: string, status: number | null, signal: number | null = null): void {
    this.unsettled.settled(paneId);
    this.edges.forget(paneId);
    const ref = this.ref(paneId);
    this.vanished.forget(ref);
    if (this.reported.has(ref) || this.stopped) return;
    this.reported.add(ref);
    this.emit({ type: 'exited', paneId: ref, status, signal });
  }

  /** A pane closed from tmux: gone, with no death of its own to tell. */
  private gone(ref: string): void {
    const local = localPane(ref, this.server);
    if (local !== null) this.edges.forget(local);
    if (this.reported.has(ref) || this.stopped) return;
    this.reported.add(ref);
    this.emit({ type: 'gone', paneId: ref });
  }

  /** Events name panes as the engine knows them (paneRef.ts): a local id (`%3`) is this server's. */
  private emit(event: HostEvent): void {
    const server = this.server ?? '';
    if ('paneId' in event && !event.paneId.includes('/')) event = { ...event, paneId: paneRef(event.paneId, server) };
    for (const listener of [...this.listeners]) listener(event);
  }

  /**
   * Over the control connection when there is one (0.1 ms), else a `tmux` process (2.5 ms). A command
   * the connection's close cut off (a `detach-client` meanwhile) is run again as a process, unless it
   * must not run twice (`again` false: typed keys).
   */
  private exec(argv: readonly string[], again = true): Promise<string[]> {
    const control = this.control;
    if (!control?.open) return this.run(argv);
    const sent = control.command(argv);
    return again ? sent.catch((error: unknown) => (error instanceof ControlClosedError ? this.run(argv) : Promise.reject(error))) : sent;
  }

  /** `path`: a new pane's PATH, given to the tmux client here; another host's client has its own (the pane's `-e` carries it). */
  private run(argv: readonly string[], path?: string): Promise<string[]> {
    const there = this.options.there?.() ?? null;
    if (there !== null) return there(['-L', this.options.socket, ...argv]);
    const { bin, via } = this.options;
    return runTmux(this.options.socket, argv, { ...(bin ? { bin } : {}), ...(via ? { via } : { ...(path === undefined ? {} : { path }) }) });
  }
}
