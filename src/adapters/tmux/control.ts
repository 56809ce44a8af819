/**
 * A tmux control-mode client (`tmux -L <socket> -C attach -t <session>` over plain pipes): one
 * connection for events (`%output`, deaths by subscription) and for commands, whose replies come
 * between `%begin` and `%end`/`%error` in the order they were sent.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readSync } from 'node:fs';
import { SwarmError, excerpt } from '../../errors.js';
import { continuePane, controlAttach, pauseAfter, subscribeDeaths, tmuxJoin } from './argv.js';
import { tmuxEnv, tmuxMissing } from './runner.js';
import { ControlParser, type ControlMessage } from './controlParser.js';

/** How long the control pipe rests after each chunk read (see the constructor). */
const READ_COALESCE_MS = 100;
/** Where a rest's waiting output is read into (drain); the parser copies what it keeps. */
const DRAIN = Buffer.alloc(64 * 1024);

interface PipeHandle { readStop(): number; readStart(): number; readonly fd: number }

/** The libuv pipe under a child's stdout, when Node exposes its read switch and descriptor (see ControlClient). */
function pipeHandle(child: ChildProcessWithoutNullStreams): PipeHandle | null {
  const handle = (child.stdout as unknown as { _handle?: Partial<PipeHandle> | null })._handle;
  return handle && typeof handle.readStop === 'function' && typeof handle.readStart === 'function' && typeof handle.fd === 'number' && handle.fd >= 0
    ? (handle as PipeHandle)
    : null;
}


export interface ControlHandlers {
  /** The pane printed: once per pane per chunk read, however many `%output` lines it held. */
  onOutput(paneId: string): void;
  onSubscription?(name: string, paneId: string | null, value: string): void;
  /** The connection ended; `expected` when close() asked for it. */
  onClose(reason: string, expected: boolean): void;
}

export interface ControlOptions {
  socket: string;
  session: string;
  bin?: string;
  /** A client this many seconds behind on a pane gets `%pause` instead of being dropped. */
  pauseAfterSeconds?: number;
  connectTimeoutMs?: number;
}

interface Pending { argv: readonly string[]; resolve(lines: string[]): void; reject(error: Error): void }

export class ControlClient {
  private readonly parser = new ControlParser({ decode: false });
  private readonly pending: Pending[] = [];
  private ready: { resolve(): void; reject(error: Error): void } | null = null;
  private exitReason = '';
  private closing = false;
  private closed = false;
  private resting: NodeJS.Timeout | null = null;
  private readonly done: Promise<void>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams, private readonly handlers: ControlHandlers) {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    // Reads coalesce while agents flood: after a chunk of `%output` with no command waiting for its
    // reply, the pipe is not read for READ_COALESCE_MS, so output that never stops costs ~10 reads a
    // second, not one per redraw (tmux's writes wait in the pipe meanwhile). A command sent meanwhile
    // ends the rest at once: replies are never delayed. Node has no public way to stop reading a
    // child's pipe (pause() only stops 'data' events; libuv keeps reading into the stream's buffer),
    // so this uses the pipe handle's readStop/readStart, and does nothing where they are missing.
    // When a rest ends, what waited is read straight from the descriptor (drain): one wake-up a rest.
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.consume(chunk)) this.rest();
    });
    child.stdin.on('error', () => undefined);
    this.done = new Promise((resolve) => {
      child.on('error', (error: NodeJS.ErrnoException) => {
        this.finish(error.code === 'ENOENT' ? tmuxMissing(error) : new SwarmError(`tmux control client: ${error.message}`, { cause: error }));
        resolve();
      });
      child.on('close', (code) => {
        const why = this.exitReason || excerpt(stderr) || `tmux control client exited (${code ?? 'signal'})`;
        this.finish(new SwarmError(`tmux control connection closed: ${why}`));
        resolve();
      });
    });
  }

  /** Attach to the session, ask for flood control and death reports, and resolve once ready. */
  static async connect(options: ControlOptions, handlers: ControlHandlers): Promise<ControlClient> {
    const child = spawn(options.bin ?? 'tmux', ['-u', '-L', options.socket, ...controlAttach(options.session)], { env: tmuxEnv(), stdio: 'pipe' });
    const client = new ControlClient(child, handlers);
    const attached = new Promise<void>((resolve, reject) => { client.ready = { resolve, reject }; });
    const timer = setTimeout(() => client.ready?.reject(new SwarmError(`tmux control client did not attach to ${options.session}`)), options.connectTimeoutMs ?? 5000);
    try {
      await attached;
      await client.command(pauseAfter(options.pauseAfterSeconds ?? 5));
      await client.command(subscribeDeaths());
      return client;
    } catch (error) {
      await client.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  get open(): boolean {
    return !this.closed && !this.closing;
  }

  /** Run one tmux command over the connection; resolves with its output lines, rejects on `%error`. */
  command(argv: readonly string[]): Promise<string[]> {
    if (!this.open) return Promise.reject(new SwarmError(`tmux ${argv[0] ?? ''}: the control connection is closed`));
    return new Promise((resolve, reject) => {
      this.pending.push({ argv, resolve, reject });
      this.child.stdin.write(`${tmuxJoin(argv)}\n`);
      this.wake();
    });
  }

  /** Parse a chunk and act on its messages; true when some pane printed in it. */
  private consume(chunk: Buffer): boolean {
    const printed = new Set<string>();
    for (const message of this.parser.push(chunk)) {
      if (message.kind === 'output') printed.add(message.paneId);
      else this.dispatch(message);
    }
    for (const paneId of printed) this.handlers.onOutput(paneId);
    return printed.size > 0;
  }

  /** Stop reading the pipe for READ_COALESCE_MS (see the constructor), unless a reply is awaited. */
  private rest(): void {
    if (this.pending.length > 0 || this.resting !== null || this.closed) return;
    const pipe = pipeHandle(this.child);
    if (pipe === null || pipe.readStop() !== 0) return;
    this.resting = setTimeout(() => this.drain(), READ_COALESCE_MS);
  }

  /**
   * The rest is over: read what waited in the pipe from its descriptor, without handing it back to
   * the event loop (no watcher added and removed, no stream machinery, for a chunk read ten times a
   * second while agents flood). Output in it: rest again. Nothing, the end of the pipe, an error, or
   * a command now awaiting its reply: reading goes back to the event loop (which sees the end too).
   */
  private drain(): void {
    this.resting = null;
    const pipe = pipeHandle(this.child);
    if (pipe === null) return;
    let printed = false;
    let more = true;
    while (more && !this.closed) {
      let n: number;
      try {
        n = readSync(pipe.fd, DRAIN, 0, DRAIN.length, null);
      } catch {
        n = -1; // EAGAIN: nothing waits; anything else the event loop reports itself
      }
      if (n <= 0) break;
      if (this.consume(DRAIN.subarray(0, n))) printed = true;
      more = n === DRAIN.length;
    }
    if (printed && this.pending.length === 0 && !this.closed) this.resting = setTimeout(() => this.drain(), READ_COALESCE_MS);
    else pipe.readStart();
  }

  /** End the pipe's rest (see the constructor): read whatever waits. */
  private wake(): void {
    if (this.resting === null) return;
    clearTimeout(this.resting);
    this.resting = null;
    pipeHandle(this.child)?.readStart();
  }

  /** Detach (an empty line), then make sure the process is gone. Panes keep running. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closing = true;
    this.child.stdin.end('\n');
    const timer = setTimeout(() => this.child.kill('SIGTERM'), 2000);
    await this.done;
    clearTimeout(timer);
  }

  private dispatch(message: ControlMessage): void {
    switch (message.kind) {
      case 'reply':
        if (!message.fromClient) {
          if (message.ok) this.ready?.resolve();
          else this.ready?.reject(new SwarmError(`tmux attach: ${excerpt(message.lines.join(' '))}`));
          this.ready = null;
          return;
        }
        this.settle(message);
        return;
      case 'output':
        this.handlers.onOutput(message.paneId);
        return;
      case 'pause':
        this.command(continuePane(message.paneId)).catch(() => undefined);
        return;
      case 'subscription':
        this.handlers.onSubscription?.(message.name, message.paneId, message.value);
        return;
      case 'exit':
        this.exitReason = message.reason === '' ? 'detached (%exit)' : message.reason;
        return;
      case 'notification':
        if (message.name === 'session-changed') {
          this.ready?.resolve();
          this.ready = null;
        }
    }
  }

  private settle(reply: Extract<ControlMessage, { kind: 'reply' }>): void {
    const next = this.pending.shift();
    if (!next) return;
    if (reply.ok) next.resolve(reply.lines);
    else next.reject(new SwarmError(`tmux ${next.argv[0] ?? ''}: ${excerpt(reply.lines.join(' '), 200)}`));
  }

  private finish(error: SwarmError): void {
    if (this.closed) return;
    this.closed = true;
    this.wake();
    this.ready?.reject(error);
    this.ready = null;
    for (const entry of this.pending.splice(0)) entry.reject(error);
    this.handlers.onClose(error.message, this.closing);
  }
}
