/**
 * The simulated agent's hands: run `swarm` and shell commands, keep the account's simulated state,
 * read its mailbox from where it stopped, hear lines typed into its pane. Everything with effects
 * lives here, so the lane and lead loops read as the protocol they follow.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface, type Interface } from 'node:readline';
import { formatCapacityLine, type CapacityState } from '../core/protocol/protocol.js';
import { mailboxPath } from '../core/plan/paths.js';
import type { AgentContext } from '../core/protocol/agentContext.js';
import { planFilesFault } from '../errors.js';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';
import { simAccountFile, simStateDir } from './files.js';
import { accountState, agentKey, type AccountState, type SimModel } from './model.js';
import { parseMailbox, type MailMessage } from './messages.js';
import { Screen } from './screen.js';

const CLI = resolve(fileURLToPath(new URL('../cli.js', import.meta.url)));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CapacityReading {
  account: string;
  state: CapacityState;
  remaining_pct: number | null;
  context_pct: number | null;
  decision: 'continue' | 'handoff_soon' | 'handoff_now';
}

export class World {
  readonly screen: Screen;
  readonly key: string;
  private offset: number;
  private persistOffset = true;
  /** The account's state while the disk refuses it (saveAccount). */
  private unsaved: AccountState | null = null;
  private watcher: FSWatcher | null = null;
  private lines: Interface | null = null;
  last: CapacityReading | null = null;

  constructor(
    readonly ctx: AgentContext,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
    readonly model: SimModel,
    write: (text: string) => void,
    private readonly input: NodeJS.ReadableStream | null,
  ) {
    this.screen = new Screen(write);
    this.key = agentKey(ctx.lane, ctx.generation);
    this.offset = Number(readTextIfExists(this.offsetFile())?.trim() ?? '0') || 0;
  }

  get mailbox(): string {
    return this.ctx.mailbox ?? mailboxPath(this.ctx.plan, this.ctx.lane);
  }

  /** Run this installation's `swarm` with the pane's environment, in the checkout. */
  swarm(args: string[]): Promise<Run> {
    return run(process.execPath, [CLI, ...args], this.cwd, this.env);
  }

  /** A program with its arguments, in the checkout. */
  run(file: string, args: string[]): Promise<Run> {
    return run(file, args, this.cwd, this.env);
  }

  /** A shell command in the checkout. */
  sh(command: string): Promise<Run> {
    return run('sh', ['-c', command], this.cwd, this.env);
  }

  /** `swarm capacity --self --json`; null when it fails (the failure is shown). */
  async capacity(): Promise<CapacityReading | null> {
    const result = await this.swarm(['capacity', '--self', '--json']);
    if (result.code !== 0) {
      this.screen.line(`[sim] swarm capacity failed (exit ${result.code}): ${result.stderr.trim().split('\n')[0] ?? ''}`);
      return null;
    }
    try {
      this.last = JSON.parse(result.stdout) as CapacityReading;
      return this.last;
    } catch {
      return null;
    }
  }

  /** The capacity line every report ends with, from the last reading. */
  capacityLine(): string {
    const r = this.last;
    return formatCapacityLine({ state: r?.state ?? 'unknown', pct: r?.remaining_pct ?? null, account: this.ctx.account, contextPct: r?.context_pct ?? null });
  }

  /** `swarm notify <to> <text>`; a failure is shown, never thrown. */
  async notify(to: string, text: string): Promise<boolean> {
    const result = await this.swarm(['notify', to, text]);
    if (result.code !== 0) this.screen.line(`[sim] swarm notify ${to} failed (exit ${result.code}): ${result.stderr.trim()}`);
    return result.code === 0;
  }

  /** A report to the lead, ending with the capacity line. */
  async report(message: string): Promise<boolean> {
    this.screen.line(`[sim] report: ${message}`);
    return this.notify('lead', `${message}\n${this.capacityLine()}`);
  }

  /** The account's simulated state (fresh at SIM_QUOTA when none is saved). */
  readAccount(): AccountState {
    if (this.unsaved !== null) return this.unsaved;
    return accountState(readTextIfExists(simAccountFile(this.ctx.plan, this.ctx.account, this.ctx.run)), this.ctx.account, this.model.quota, new Date().toISOString());
  }

  /**
   * An account's quota lives at its vendor, not on the user's disk: while the plan's files refuse the
   * write (a full disk), the state is kept in memory and written with the next save, and the agent
   * works on, as a real one would.
   */
  saveAccount(state: AccountState): void {
    try {
      writeFileAtomic(simAccountFile(this.ctx.plan, this.ctx.account, this.ctx.run), `${JSON.stringify(state, null, 2)}\n`);
      this.unsaved = null;
    } catch (error) {
      const fault = planFilesFault(error);
      if (!fault) throw error;
      if (this.unsaved === null) this.screen.line(`[sim] the account's state is kept in memory meanwhile: ${fault.message}`);
      this.unsaved = state;
    }
  }

  /** Messages appended to the mailbox since the last read. */
  readMail(): MailMessage[] {
    const text = readTextIfExists(this.mailbox) ?? '';
    const bytes = Buffer.from(text);
    if (bytes.length < this.offset) this.offset = 0; // the mailbox was replaced: read it again
    const fresh = bytes.subarray(this.offset).toString('utf8');
    this.offset = bytes.length;
    if (this.persistOffset) writeFileAtomic(this.offsetFile(), `${this.offset}\n`);
    return parseMailbox(fresh);
  }

  /** Stop saving the read position: a successor holds this lane's mailbox now. */
  retire(): void {
    this.persistOffset = false;
  }

  /** Call `onChange` whenever the mailbox file changes (also keeps the process alive). */
  watchMail(onChange: () => void): void {
    if (this.watcher) return;
    const dir = dirname(this.mailbox);
    mkdirSync(dir, { recursive: true });
    const name = basename(this.mailbox);
    this.watcher = watch(dir, (_event, file) => {
      if (file === null || file === name) onChange();
    });
  }

  /**
   * Call `onLine` for every line typed into the pane. On a terminal, echo is turned off (raw mode):
   * an echoed line could land after the busy status and outlive its erasure, so the pane would
   * never look idle. Ctrl-C still interrupts.
   */
  onLine(onLine: (line: string) => void): void {
    if (!this.input || this.lines) return;
    const tty = this.input as NodeJS.ReadStream;
    if (tty.isTTY === true && typeof tty.setRawMode === 'function') {
      tty.setRawMode(true);
      tty.on('data', (chunk: Buffer | string) => {
        if (String(chunk).includes('\u0003')) process.kill(process.pid, 'SIGINT');
      });
    }
    this.lines = createInterface({ input: this.input, terminal: false });
    this.lines.on('line', onLine);
  }

  /** Append a typed line to the keys log (evidence of what reached a permission screen). */
  logKey(path: string, line: string): void {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, `${line}\n`);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((done) => setTimeout(done, ms));
  }

  /** Let go of stdin and the watcher, so the process can end. */
  close(): void {
    this.watcher?.close();
    this.watcher = null;
    this.lines?.close();
    this.lines = null;
    const tty = this.input as NodeJS.ReadStream | null;
    if (tty?.isTTY === true && typeof tty.setRawMode === 'function') tty.setRawMode(false);
    if (this.input && 'destroy' in this.input && typeof this.input.destroy === 'function') this.input.destroy();
  }

  private offsetFile(): string {
    return join(simStateDir(this.ctx.plan), `${this.ctx.lane.replace(/[^A-Za-z0-9._-]/g, '_')}.mailbox-offset`);
  }
}

function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout: String(stdout), stderr: String(stderr) || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });
}
