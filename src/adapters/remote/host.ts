/**
 * One other host's part of a swarm (SPEC 10.9): the host relay (adapters/hostRelay.ts: the plan
 * folder's files both ways, the host's facts) and a TmuxHost whose every command and control
 * connection run through ssh, all over one shared ssh connection (core/host/ssh.ts `sharing`).
 *
 * A lost connection (the relay's or tmux's) is tried again at once, after 5 s and after 15 s
 * (core/host/reconnect.ts); back, the panes are listed again and those gone meanwhile told gone;
 * not back, every pane of the host is told gone — that host's lanes are lost, no others — and the
 * host is tried again whenever something is to start there.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../core/plan/paths.js';
import { LOST_RETRY_MS, nextReconnect } from '../../core/host/reconnect.js';
import { remoteCommand, sharedExitArgv, sshArgv, sshShown, CONNECT_TIMEOUT_S } from '../../core/host/ssh.js';
import type { HostSpec } from '../../core/config/types.js';
import type { ProcessId } from '../../core/process/procStat.js';
import { SwarmError } from '../../errors.js';
import { readTextIfExists, writeFileAtomic } from '../files.js';
import { GATE_VARIABLE, type GateThere } from '../gate.js';
import type { GitState } from '../git.js';
import type { HostEvent, PaneInfo, PaneSpec } from '../host.js';
import { HostRelay, HostUnreachable, type RelayFacts } from '../hostRelay.js';
import { runSsh } from '../ssh.js';
import { TmuxHost } from '../tmux/host.js';
import { PlanSync } from './sync.js';

export interface RemoteHostOptions {
  /** Its name in swarm.yaml's `hosts:`. */
  name: string;
  spec: HostSpec;
  /** The plan folder: the same absolute path on the host. */
  plan: string;
  /** This machine's tmux socket name; the host's server is `<socket>-<name>`. */
  socket: string;
  session: string;
  /** swarm's environment (ssh's PATH, HOME for `identity: ~/…`). */
  env: NodeJS.ProcessEnv;
}

/**
 * Where a swarm's shared ssh connection to a host listens: a short path (a unix socket path has ~100
 * bytes), private to this user, one per plan and destination (`%C`), so two swarms reaching one host
 * never share a master the first of them would close as it ends.
 */
export function sharedSocket(plan: string): string {
  const dir = join(tmpdir(), `swarm-ssh-${process.getuid?.() ?? 'u'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${createHash('sha256').update(plan).digest('hex').slice(0, 8)}-%C`);
}

/** The plan's token a relay finds in its own plan folder only when that folder is this one (ssh to this machine). */
function planToken(plan: string): string {
  const file = join(planPaths(plan).swarmDir, 'host-token');
  const known = readTextIfExists(file)?.trim();
  if (known) return known;
  const token = randomBytes(16).toString('hex');
  writeFileAtomic(file, `${token}\n`, 0o600);
  return token;
}

export class RemoteHost {
  readonly tmux: TmuxHost;
  private relay: HostRelay | null = null;
  private readonly shared: string;
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly copies: PlanSync;
  /** Panes of the host thought alive: told gone when the host is lost, or when a reconnect finds them gone. */
  private readonly live = new Set<string>();
  private stopped = false;
  /** Null while connected; else why not (a reconnect under way, or the host lost). */
  private downWhy: string | null = null;
  /** The slow retry of a lost host (LOST_RETRY_MS). */
  private retry: NodeJS.Timeout | null = null;
  private reconnecting: Promise<boolean> | null = null;

  constructor(private readonly options: RemoteHostOptions) {
    this.shared = sharedSocket(options.plan);
    this.copies = new PlanSync(options.plan, () => this.relay);
    const via = (argv: readonly string[]): string[] => this.sshArgv(remoteCommand(argv));
    this.tmux = new TmuxHost({
      socket: `${options.socket}-${options.name}`, session: options.session, paneDeathFile: join(planPaths(options.plan).swarmDir, `panes-${options.name}.jsonl`), via,
      there: () => (this.relay === null ? null : (args) => this.tmuxThere(args)),
    });
    this.tmux.onEvent((event) => this.hostEvent(event));
  }

  get name(): string {
    return this.options.name;
  }

  /** The host's facts (hostname, HOME, PATH, its swarm), as its relay last said them (kept while it reconnects). */
  private known: RelayFacts | null = null;

  get facts(): RelayFacts | null {
    return this.relay?.facts ?? this.known;
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Connect (relay, then tmux). A host ssh does not reach is tried again as after a loss (its lanes
   * wait for it: one host down must not keep the others' lanes from running); any other failure — no
   * swarm there, a plan folder it cannot make, another protocol — is thrown, naming the host.
   */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      await this.connect();
    } catch (error) {
      if (!(error instanceof SwarmError && error.cause instanceof HostUnreachable)) throw error;
      void this.lost(error.message);
    }
  }

  private async connect(): Promise<void> {
    if (this.relay === null) {
      this.relay = await HostRelay.connect({
        argv: this.sshArgv(remoteCommand(['swarm', 'host-relay', this.options.plan])),
        env: this.options.env,
        plan: this.options.plan,
        host: this.options.name,
        token: planToken(this.options.plan),
        onChanged: () => undefined, // the engine's spool watch sees the copies land
        onClose: (reason, expected) => {
          this.relay = null;
          if (!expected) void this.lost(`the host relay's connection closed: ${reason}`);
        },
      }).catch((error: unknown) => {
        throw new SwarmError(`host ${this.options.name} (${sshShown(this.options.spec)}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
      this.copies.forget();
      this.known = this.relay.facts;
    }
    await this.tmux.start();
    this.downWhy = null;
  }

  /**
   * One tmux command run by the host's relay (no ssh session, so no shell rc: ~2 ms, not ~80): its
   * output lines, or a SwarmError with tmux's own words (so `isGoneError` reads it as a local one).
   */
  private async tmuxThere(args: readonly string[]): Promise<string[]> {
    const relay = this.relay;
    if (relay === null) throw new SwarmError(`host ${this.options.name}: tmux ${args[2] ?? ''}: the host relay is not connected`);
    const ran = await relay.tmux(args);
    if (ran.code !== 0) throw new SwarmError(`tmux ${args[2] ?? ''}: ${ran.stderr.trim() || `exit ${ran.code ?? 'signal'}`} (on host ${this.options.name})`);
    return ran.stdout === '' ? [] : ran.stdout.replace(/\n$/, '').split('\n');
  }

  /** Why the host cannot be reached now, else null. */
  down(): string | null {
    return this.downWhy;
  }

  /** The environment an agent there starts from: the host's own, as ssh gives it (never this machine's). */
  agentEnv(): NodeJS.ProcessEnv {
    const facts = this.facts;
    if (facts === null) throw new SwarmError(`host ${this.options.name} is unreachable: ${this.downWhy ?? 'never reached'}`);
    return { ...facts.env };
  }

  async spawn(spec: PaneSpec): Promise<PaneInfo & { process: ProcessId | null; where: { host: string; pidns: string | null } }> {
    await this.ready();
    await this.sync();
    const info = await this.tmux.spawn(spec);
    this.live.add(info.paneId);
    return { ...info, ...(await this.whose(info.pid)) };
  }

  /** Every pane there, with each live one's process as the host knows it (for its agent record). */
  async list(): Promise<(PaneInfo & { process?: ProcessId | null; where?: { host: string; pidns: string | null } })[]> {
    if (this.downWhy !== null) return [];
    const panes = await this.tmux.list();
    for (const pane of panes) if (!pane.dead) this.live.add(pane.paneId);
    return Promise.all(panes.map(async (pane) => (pane.dead ? pane : { ...pane, ...(await this.whose(pane.pid)) })));
  }

  private async whose(pid: number | null): Promise<{ process: ProcessId | null; where: { host: string; pidns: string | null } }> {
    const facts = this.facts;
    const process = pid === null || this.relay === null ? null : await this.relay.processNow(pid).catch(() => null);
    return { process, where: { host: facts?.hostname ?? this.options.name, pidns: facts?.pidns ?? null } };
  }

  async capture(ref: string, history?: number): Promise<string> {
    return this.tmux.capture(ref, history);
  }

  /** Typed after the plan's files the line may point at (a mailbox) are there. */
  async typeLine(ref: string, line: string): Promise<boolean> {
    if (this.downWhy !== null) return false;
    await this.sync().catch(() => undefined);
    return this.tmux.typeLine(ref, line);
  }

  async kill(ref: string): Promise<void> {
    this.live.delete(ref);
    if (this.downWhy !== null) return;
    await this.tmux.kill(ref);
  }

  async relabel(ref: string, as: Parameters<TmuxHost['relabel']>[1]): Promise<void> {
    await this.tmux.relabel(ref, as);
  }

  /** Copy to the host what of the plan's files its agents read and changed since the last copy (remote/sync.ts). */
  sync(): Promise<void> {
    return this.copies.sync();
  }

  /** A checkout's git state, read there by the host's own swarm (the same reading as adapters/git.ts `gitState`). */
  async gitState(checkout: string): Promise<GitState> {
    await this.ready();
    if (this.relay === null) throw new SwarmError(`host ${this.options.name} is not connected`);
    return this.relay.gitState(checkout);
  }

  /**
   * A lane's `done_when` run in its checkout there, over ssh: the remote shell changes into the
   * checkout and runs the command with `sh -c` (SWARM_GATE naming its run there as here).
   */
  gateThere(checkout: string, command: string, run: string): GateThere {
    const script = 'cd "$1" && exec sh -c "$2"';
    return { argv: this.sshArgv(remoteCommand(['env', `${GATE_VARIABLE}=${run}`, 'sh', '-c', script, 'swarm-gate', checkout, command])), cwd: this.options.plan };
  }

  /** Connected, or connected again now (a host lost earlier is tried once more), or throw why not. */
  private async ready(): Promise<void> {
    if (this.downWhy === null) return;
    if (this.reconnecting !== null && !(await this.reconnecting)) throw new SwarmError(`host ${this.options.name} is unreachable: ${this.downWhy}`);
    if (this.downWhy === null) return;
    try {
      await this.connect();
      this.emit({ type: 'connection', host: this.options.name, state: 'back', reason: 'reached again' });
    } catch (error) {
      throw new SwarmError(`host ${this.options.name} is unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  private hostEvent(event: HostEvent): void {
    if (event.type === 'lost') {
      void this.lost(event.reason);
      return;
    }
    if (event.type === 'exited' || event.type === 'gone') this.live.delete(event.paneId);
    this.emit(event);
  }

  /** The connection went: tried again (RECONNECT_AT_MS); not back, the host's panes are told gone. */
  private async lost(reason: string): Promise<void> {
    if (this.stopped || this.reconnecting !== null) return;
    this.downWhy = reason;
    this.emit({ type: 'connection', host: this.options.name, state: 'lost', reason });
    this.reconnecting = this.reconnect(reason);
    const back = await this.reconnecting;
    this.reconnecting = null;
    if (this.stopped) return;
    if (back) {
      this.emit({ type: 'connection', host: this.options.name, state: 'back', reason });
      const now = new Set((await this.tmux.list().catch(() => [])).filter((p) => !p.dead).map((p) => p.paneId));
      for (const ref of [...this.live]) if (!now.has(ref)) this.gone(ref);
      return;
    }
    this.emit({ type: 'connection', host: this.options.name, state: 'gone', reason: this.downWhy ?? reason });
    for (const ref of [...this.live]) this.gone(ref);
    this.retryLater();
  }

  /** A lost host is tried again every LOST_RETRY_MS until it is back (its lanes wait for it) or swarm stops. */
  private retryLater(): void {
    if (this.stopped || this.retry !== null) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped || this.downWhy === null) return;
      this.connect().then(
        () => this.emit({ type: 'connection', host: this.options.name, state: 'back', reason: 'reached again' }),
        () => this.retryLater(),
      );
    }, LOST_RETRY_MS);
    this.retry.unref();
  }

  private async reconnect(reason: string): Promise<boolean> {
    const from = Date.now(); // real time: a wait on the network, not an engine deadline
    await this.letGo(() => this.tmux.detach());
    for (let tried = 0; ; tried += 1) {
      const at = nextReconnect(tried);
      if (at === null || this.stopped) {
        this.downWhy = `${reason}; not reached again in ${Math.round((Date.now() - from) / 1000)} s (3 tries)`;
        return false;
      }
      const wait = from + at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.stopped) return false;
      try {
        await this.connect();
        return true;
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
  }

  private gone(ref: string): void {
    this.live.delete(ref);
    this.emit({ type: 'gone', paneId: ref });
  }

  private emit(event: HostEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Stop listening; the host's panes and server keep running (as tmux's do here). */
  detach(): Promise<void> {
    return this.end(() => this.tmux.detach());
  }

  /** End every pane and the host's tmux server (swarm down). */
  destroy(): Promise<void> {
    return this.end(() => this.tmux.destroy());
  }

  /** The host let go: no more tries, its connections closed, then the shared ssh connection. */
  private async end(tmux: () => Promise<void>): Promise<void> {
    this.stopped = true;
    this.stopRetry();
    await this.letGo(tmux);
    await this.endShared();
  }

  /**
   * Close the connections to the host: the tmux side (`tmux`: detach, or destroy) first, while its
   * commands can still go by the relay, then the relay. A failure to close is no one's concern: both are given up.
   */
  private async letGo(tmux: () => Promise<void>): Promise<void> {
    await tmux().catch(() => undefined);
    const relay = this.relay;
    this.relay = null;
    await relay?.close().catch(() => undefined);
  }

  private stopRetry(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
  }

  /** End the shared ssh connection swarm started (`ssh -O exit`): nothing of swarm's stays connected. */
  private async endShared(): Promise<void> {
    await runSsh(sharedExitArgv(this.options.spec, this.shared), this.options.env, 5000);
  }

  private sshArgv(command: string): string[] {
    return sshArgv(this.options.spec, command, this.options.env.HOME ?? '', CONNECT_TIMEOUT_S, this.shared);
  }
}
