/**
 * The embedded backend: each pane is a pseudo-terminal (node-pty) that this process owns, its
 * screen rendered by a headless xterm. Used when tmux is not installed (`backend: pty`).
 */
import { randomBytes } from 'node:crypto';
import type { IPty } from 'node-pty';
import { SwarmError } from '../../errors.js';
import type { HostEvent, PaneHost, PaneInfo, PaneSpec } from '../host.js';
import { loadPty, type PtyModule } from './load.js';
import { OutputRing } from './ring.js';
import { loadTerminal, Screen, showsLine } from './screen.js';

export interface PtyHostOptions {
  session: string;
  cols?: number;
  rows?: number;
  /** Raw output kept per pane (see `output`), default 256 KB. */
  historyBytes?: number;
  /**
   * What makes this host's pane ids its own (default: six random hex digits). Panes end with the
   * process that started them, and a restarted engine numbers its panes from 1 again: an id saved by an
   * earlier engine must name no pane of this one, so a spent pane closed after a restart is never a
   * new successor.
   */
  instance?: string;
  /** Rendered scrollback lines per pane, default 2000. */
  scrollback?: number;
}

const OUTPUT_EVERY_MS = 50;
const ENTER_DELAY_MS = 120;
const ENTER_RETRIES = 2;
const CONFIRM_MS = 500;
const QUIET_MS = 100;
const KILL_GRACE_MS = 1000;

interface Pane {
  id: string;
  spec: PaneSpec;
  pty: IPty;
  screen: Screen;
  ring: OutputRing;
  dead: boolean;
  status: number | null;
  /** Being killed: its exit is ours, not news. */
  closing: boolean;
  outputTimer: NodeJS.Timeout | undefined;
  /** Called on each chunk of output (true) and on exit (false). */
  waiters: Set<(data: boolean) => void>;
  /** typeLine deliveries, one at a time. */
  queue: Promise<unknown>;
  stop: () => void;
}

export class PtyHost implements PaneHost {
  readonly kind = 'pty' as const;
  readonly session: string;
  private readonly cols: number;
  private readonly rows: number;
  private readonly historyBytes: number;
  private readonly scrollback: number;
  private readonly panes = new Map<string, Pane>();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private pty: PtyModule | undefined;
  private counter = 0;
  private readonly instance: string;

  constructor(options: PtyHostOptions) {
    this.session = options.session;
    this.cols = options.cols ?? 120;
    this.rows = options.rows ?? 40;
    this.historyBytes = options.historyBytes ?? 256 * 1024;
    this.scrollback = options.scrollback ?? 2000;
    this.instance = options.instance ?? randomBytes(3).toString('hex');
  }

  /** Load node-pty and the screen renderer; a DependencyError (exit 4) says how to fix either. */
  async start(): Promise<void> {
    this.pty ??= await loadPty();
    await loadTerminal();
  }

  /** Start `spec.argv` directly (no shell) as pane `pty-<n>/<instance>`. */
  async spawn(spec: PaneSpec): Promise<PaneInfo> {
    await this.start();
    const [file, ...args] = spec.argv;
    if (file === undefined || this.pty === undefined) throw new SwarmError(`cannot start ${spec.title}: empty command`);
    const screen = await Screen.create({ cols: this.cols, rows: this.rows, scrollback: this.scrollback });
    let pty: IPty;
    try {
      // Exactly the pane's environment (core/launch/paneEnv.ts), not this process's, plus the terminal's name.
      const env = { ...spec.env, TERM: 'xterm-256color' };
      pty = this.pty.spawn(file, args, { cwd: spec.cwd, env, cols: this.cols, rows: this.rows, name: 'xterm-256color' });
    } catch (cause) {
      screen.dispose();
      throw new SwarmError(`cannot start ${spec.title}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    this.counter += 1;
    const pane: Pane = {
      id: `pty-${this.counter}/${this.instance}`, spec, pty, screen, ring: new OutputRing(this.historyBytes),
      dead: false, status: null, closing: false, outputTimer: undefined, waiters: new Set(),
      queue: Promise.resolve(), stop: () => undefined,
    };
    const subscriptions = [
      pty.onData((data) => this.received(pane, data)),
      pty.onExit(({ exitCode, signal }) => this.exited(pane, signal ? 128 + signal : exitCode, signal || null)),
    ];
    const stopReplies = screen.onReply((reply) => this.write(pane, reply));
    pane.stop = () => {
      for (const subscription of subscriptions) subscription.dispose();
      stopReplies();
    };
    this.panes.set(pane.id, pane);
    return info(pane);
  }

  /** Every pane this host started and has not killed, dead ones included. */
  async list(): Promise<PaneInfo[]> {
    return [...this.panes.values()].map(info);
  }

  /** The rendered screen (plus up to `history` scrollback lines), plain text. */
  async capture(paneId: string, history = 0): Promise<string> {
    return this.pane(paneId).screen.text(history);
  }

  /** The last `historyBytes` of the pane's raw output, escapes included. */
  output(paneId: string): string {
    return this.pane(paneId).ring.text();
  }

  /**
   * Type `line` (line breaks in it become spaces), then Enter as a separate write 120 ms later, so
   * a TUI sees typing and not a paste. The Enter counts as landed when the screen moves; if the
   * line still sits unsent on an unchanged screen, Enter is pressed again, at most twice.
   */
  typeLine(paneId: string, line: string): Promise<boolean> {
    const pane = this.panes.get(paneId);
    if (pane === undefined) return Promise.resolve(false);
    const delivery = pane.queue.then(() => this.deliver(pane, line.replace(/[\r\n]+/g, ' ')));
    pane.queue = delivery.catch(() => undefined);
    return delivery;
  }

  async relabel(paneId: string, as: { lane: string; generation: number; account: string; role: 'lead' | 'lane' }): Promise<void> {
    const pane = this.panes.get(paneId);
    if (pane !== undefined) pane.spec = { ...pane.spec, ...as };
  }

  /** SIGTERM to the pane's process group, SIGKILL after 1 s; then the pane is forgotten. */
  async kill(paneId: string): Promise<void> {
    const pane = this.panes.get(paneId);
    if (pane === undefined) return;
    pane.closing = true;
    if (!pane.dead) {
      signal(pane, 'SIGTERM');
      if (!(await this.waitExit(pane, KILL_GRACE_MS))) {
        signal(pane, 'SIGKILL');
        await this.waitExit(pane, KILL_GRACE_MS);
      }
    }
    clearTimeout(pane.outputTimer);
    pane.stop();
    pane.screen.dispose();
    this.panes.delete(pane.id);
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Embedded panes are children of this process and cannot outlive it, so detaching ends them:
   * it is `destroy()` and then no more events. (The runtime tells the user so; tmux keeps panes.)
   */
  async detach(): Promise<void> {
    await this.destroy();
    this.listeners.clear();
  }

  /** Kill every pane this host started. */
  async destroy(): Promise<void> {
    await Promise.all([...this.panes.keys()].map((id) => this.kill(id)));
  }

  private pane(paneId: string): Pane {
    const pane = this.panes.get(paneId);
    if (pane === undefined) throw new SwarmError(`no pane ${paneId} in ${this.session}`);
    return pane;
  }

  private async deliver(pane: Pane, line: string): Promise<boolean> {
    if (pane.dead || !this.write(pane, line)) return false;
    await delay(ENTER_DELAY_MS);
    for (let attempt = 0; attempt <= ENTER_RETRIES; attempt += 1) {
      if (pane.dead) return attempt > 0;
      const before = await pane.screen.snapshot();
      if (!this.write(pane, '\r')) return attempt > 0;
      await this.settle(pane);
      if (pane.dead) return true;
      const after = await pane.screen.snapshot();
      const unchanged = after.cursor === before.cursor && after.lines.join('\n') === before.lines.join('\n');
      if (!unchanged || !showsLine(after.lines, line)) return true;
    }
    return false;
  }

  /** Wait for the program to answer a keypress: its first output, then a short quiet spell. */
  private async settle(pane: Pane): Promise<void> {
    const deadline = Date.now() + CONFIRM_MS;
    let got = await this.nextOutput(pane, CONFIRM_MS);
    while (got) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      got = await this.nextOutput(pane, Math.min(QUIET_MS, left));
    }
  }

  private nextOutput(pane: Pane, ms: number): Promise<boolean> {
    if (pane.dead) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (data: boolean): void => {
        clearTimeout(timer);
        pane.waiters.delete(done);
        resolve(data);
      };
      const timer = setTimeout(() => done(false), ms);
      pane.waiters.add(done);
    });
  }

  private async waitExit(pane: Pane, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!pane.dead && Date.now() < deadline) await this.nextOutput(pane, deadline - Date.now());
    return pane.dead;
  }

  private write(pane: Pane, data: string): boolean {
    if (pane.dead) return false;
    try {
      pane.pty.write(data);
      return true;
    } catch {
      return false;
    }
  }

  private received(pane: Pane, data: string): void {
    pane.ring.push(data);
    pane.screen.write(data);
    for (const waiter of [...pane.waiters]) waiter(true);
    pane.outputTimer ??= setTimeout(() => this.flushOutput(pane), OUTPUT_EVERY_MS);
  }

  private flushOutput(pane: Pane): void {
    if (pane.outputTimer === undefined) return;
    clearTimeout(pane.outputTimer);
    pane.outputTimer = undefined;
    if (!pane.closing) this.emit({ type: 'output', paneId: pane.id });
  }

  private exited(pane: Pane, status: number, signal: number | null = null): void {
    pane.dead = true;
    pane.status = status;
    this.flushOutput(pane);
    for (const waiter of [...pane.waiters]) waiter(false);
    if (!pane.closing) this.emit({ type: 'exited', paneId: pane.id, status, signal });
  }

  private emit(event: HostEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

function info(pane: Pane): PaneInfo {
  const { lane, generation, account } = pane.spec;
  return { paneId: pane.id, lane, generation, account, dead: pane.dead, deadStatus: pane.status, pid: pane.pty.pid };
}

/** Signal the pane's process group (node-pty makes the agent a session leader); never anyone else's. */
function signal(pane: Pane, name: NodeJS.Signals): void {
  try {
    process.kill(-pane.pty.pid, name);
  } catch {
    try {
      pane.pty.kill(name);
    } catch {
      // already gone
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
