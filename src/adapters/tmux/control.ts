/**
 * A tmux control-mode client (`tmux -L <socket> -C attach -t <session>` over plain pipes): one
 * connection for events (`%output`, deaths by subscription) and for commands, whose replies come
 * between `%begin` and `%end`/`%error` in the order they were sent.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SwarmError, excerpt } from '../../errors.js';
import { continuePane, controlAttach, pauseAfter, subscribeDeaths, tmuxJoin } from './argv.js';
import { tmuxEnv, tmuxMissing, type Via } from './runner.js';
import { ControlParser, type ControlMessage } from './controlParser.js';
import { REST_MS, restAfterLook, restMs } from '../../core/screens/pipeRest.js';

/** Where a rest's waiting output is read into (drain); the parser copies what it keeps. */
const DRAIN = Buffer.alloc(64 * 1024);

/** About what a reply took in the pipe: its lines, and its `%begin`/`%end` lines (~30 bytes each). */
const replyBytes = (lines: readonly string[]): number => lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 60);

interface PipeHandle { readStop(): number; readStart(): number; readonly fd: number }

/** The libuv pipe under a child's stdout, when Node exposes its read switch and descriptor (see ControlClient). */
function pipeHandle(child: ChildProcessWithoutNullStreams): PipeHandle | null {
  const handle = (child.stdout as unknown as { _handle?: Partial<PipeHandle> | null })._handle;
  return handle && typeof handle.readStop === 'function' && typeof handle.readStart === 'function' && typeof handle.fd === 'number' && handle.fd >= 0
    ? (handle as PipeHandle)
    : null;
}


export interface ControlHandlers {
  /**
   * One read of the connection: the panes that printed in it (none for a look that found nothing).
   * Returns whether some pane is printing still: the client then looks again after a rest (at most pipeRest.ts REST_MS),
   * whatever comes meanwhile (core/screens/outputEdges.ts needs a look to see a pane stop).
   */
  onRead(printed: ReadonlySet<string>): boolean;
  onSubscription?(name: string, paneId: string | null, value: string): void;
  /** Any other notice (`%layout-change @1 …` → `layout-change`, `@1 …`). */
  onNotification?(name: string, args: string): void;
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
  /** The server is another host's: the client runs through this (`ssh … -- 'tmux … -C attach …'`). */
  via?: Via;
}

interface Pending { argv: readonly string[]; resolve(lines: string[]): void; reject(error: Error): void }

/**
 * The connection closed (a `detach-client`, the server going) before a command's reply came: tmux
 * may or may not have run it. A command that can run twice is tried again as a `tmux` process.
 */
export class ControlClosedError extends SwarmError {}

export class ControlClient {
  private readonly parser = new ControlParser();
  private readonly pending: Pending[] = [];
  /** The panes that printed in the read being taken. */
  private readonly printed = new Set<string>();
  private ready: { resolve(): void; reject(error: Error): void } | null = null;
  private exitReason = '';
  private closing = false;
  private closed = false;
  /** The pipe is not being read (see the constructor). */
  private resting = false;
  /** When to look at the connection again while some pane prints. */
  private look: NodeJS.Timeout | null = null;
  /** The panes' output taken in since the last look, when that was, and the rest after it (core/screens/pipeRest.ts). */
  private taken = 0;
  private lookedAt = 0;
  private restFor = REST_MS;
  private corked = false;
  private readonly done: Promise<void>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams, private readonly handlers: ControlHandlers) {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    // Reads coalesce while agents print: while some pane is printing and no command waits for its
    // reply, the pipe is not read, and the client looks again after a rest, so output that never
    // stops costs 10 to 100 reads a second, not one per redraw (tmux's writes wait in the pipe
    // meanwhile). A command sent meanwhile ends the rest at once: replies are never delayed. A rest
    // is sized to the rate the panes print (core/screens/pipeRest.ts: 10–100 ms), so the pipe does
    // not fill (but in a spell's first rest, or past ~1.6 MB/s): the pipe, not the panes, would set
    // the pace, and tmux would hold the panes back. Node
    // has no public way to stop reading a child's pipe (pause() only stops 'data' events; libuv
    // keeps reading into the stream's buffer), so this uses the pipe handle's readStop/readStart,
    // and only looks (without resting) where they are missing. A look reads what waited straight
    // from the descriptor (drain): one wake-up a look, no watcher added and removed.
    child.stdout.on('data', (chunk: Buffer) => {
      this.consume(chunk);
      this.afterRead(true);
    });
    child.stdin.on('error', () => undefined);
    this.done = new Promise((resolve) => {
      child.on('error', (error: NodeJS.ErrnoException) => {
        this.finish(error.code === 'ENOENT' ? tmuxMissing(error) : new SwarmError(`tmux control client: ${error.message}`, { cause: error }));
        resolve();
      });
      child.on('close', (code) => {
        const why = this.exitReason || excerpt(stderr) || `tmux control client exited (${code ?? 'signal'})`;
        this.finish(new ControlClosedError(`tmux control connection closed: ${why}`));
        resolve();
      });
    });
  }

  /** Attach to the session, ask for flood control and death reports, and resolve once ready. */
  static async connect(options: ControlOptions, handlers: ControlHandlers): Promise<ControlClient> {
    const tmuxArgv = [options.bin ?? 'tmux', '-u', '-L', options.socket, ...controlAttach(options.session)];
    const [file, ...args] = (options.via ? options.via(tmuxArgv) : tmuxArgv) as [string, ...string[]];
    const child = spawn(file, args, { env: tmuxEnv(), stdio: 'pipe' });
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
    if (!this.open) return Promise.reject(new ControlClosedError(`tmux ${argv[0] ?? ''}: the control connection is closed`));
    return new Promise((resolve, reject) => {
      this.pending.push({ argv, resolve, reject });
      // Commands sent in one go (a batch of screen reads) leave in one write.
      if (!this.corked) {
        this.corked = true;
        this.child.stdin.cork();
        process.nextTick(() => {
          this.corked = false;
          this.child.stdin.uncork();
        });
      }
      this.child.stdin.write(`${tmuxJoin(argv)}\n`);
      this.unrest();
    });
  }

  /** Parse a chunk: the panes that printed join `printed`, other messages are acted on. */
  private consume(chunk: Buffer): void {
    // Every byte counts toward the panes' rate but the replies' own (a batch of screen reads): a
    // command sent in a rest has the pipe read at once, and that backlog is the panes' output.
    this.taken += chunk.length;
    for (const message of this.parser.push(chunk, this.printed)) {
      if (message.kind === 'output') this.printed.add(message.paneId);
      else {
        if (message.kind === 'reply') this.taken = Math.max(0, this.taken - replyBytes(message.lines));
        this.dispatch(message);
      }
    }
  }

  /**
   * A read was taken (`pipeOk`: the pipe can rest, nothing ended or failed in it): tell the handler
   * what printed, and while some pane prints, rest the pipe unless core/screens/pipeRest.ts says
   * not, and look again after the rest it sized at the last look.
   */
  private afterRead(pipeOk: boolean): void {
    const printing = this.handlers.onRead(this.printed) && !this.closed;
    this.printed.clear();
    if (pipeOk && restAfterLook({ printing, pending: this.pending.length, closing: this.closing })) this.rest();
    else this.unrest();
    if (printing) {
      if (this.look === null) {
        if (this.lookedAt === 0) this.lookedAt = performance.now(); // a new spell of printing is judged by its own looks
        this.look = setTimeout(() => this.lookBack(), this.restFor);
      }
    } else {
      this.stopLooking();
      this.taken = this.lookedAt = 0;
      this.restFor = REST_MS;
    }
  }

  private lookBack(): void {
    this.look = null;
    const pipeOk = this.resting ? this.drain() : true;
    const now = performance.now();
    this.restFor = restMs(this.taken, now - this.lookedAt);
    this.lookedAt = now;
    this.taken = 0;
    this.afterRead(pipeOk);
  }

  /**
   * Read what waited in the resting pipe from its descriptor, without handing it back to the event
   * loop (no watcher added and removed, no stream machinery, for a chunk read ten times a second
   * while agents print). False at the end of the pipe or on an error: the event loop is to read
   * it then, and see the end itself.
   */
  private drain(): boolean {
    const pipe = pipeHandle(this.child);
    if (pipe === null) return false;
    for (;;) {
      let n: number;
      try {
        n = readSync(pipe.fd, DRAIN, 0, DRAIN.length, null);
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EAGAIN'; // EAGAIN: nothing more waits
      }
      if (n === 0) return false;
      this.consume(DRAIN.subarray(0, n));
      if (n < DRAIN.length) return true;
    }
  }

  /** Stop reading the pipe (see the constructor). */
  private rest(): void {
    if (this.resting || this.closed) return;
    const pipe = pipeHandle(this.child);
    if (pipe !== null && pipe.readStop() === 0) this.resting = true;
  }

  /** End the pipe's rest: the event loop reads whatever comes. */
  private unrest(): void {
    if (!this.resting) return;
    this.resting = false;
    pipeHandle(this.child)?.readStart();
  }

  private stopLooking(): void {
    if (this.look === null) return;
    clearTimeout(this.look);
    this.look = null;
  }

  /** Detach (an empty line), then make sure the process is gone. Panes keep running. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closing = true;
    this.unrest(); // the pipe must be read to its end, or the close never comes
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
        this.handlers.onNotification?.(message.name, message.args);
    }
  }

  private settle(reply: Extract<ControlMessage, { kind: 'reply' }>): void {
    const next = this.pending.shift();
    if (!next) return;
    if (reply.ok) next.resolve(reply.lines);
    else next.reject(new SwarmError(`tmux ${next.argv[0] ?? ''}: ${excerpt(reply.lines.join(' '), 200)}`));
  }

  private finish(error: SwarmError): void {
    // Commands still waiting end with the connection: tmux may not have run them (ControlClosedError).
    if (this.closed) return;
    this.closed = true;
    this.stopLooking();
    this.unrest();
    this.ready?.reject(error);
    this.ready = null;
    for (const entry of this.pending.splice(0)) entry.reject(error);
    this.handlers.onClose(error.message, this.closing);
  }
}
