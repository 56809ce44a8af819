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

export type ControlMessage =
  /** `data` is the pane's bytes, or null from a parser told not to decode them (ControlParser). */
  | { kind: 'output'; paneId: string; data: Buffer | null }
  | { kind: 'reply'; number: number; fromClient: boolean; ok: boolean; lines: string[] }
  | { kind: 'pause'; paneId: string }
  | { kind: 'subscription'; name: string; paneId: string | null; value: string }
  | { kind: 'exit'; reason: string }
  | { kind: 'notification'; name: string; args: string };

const BACKSLASH = 0x5c;
/** How long the control pipe rests after each chunk read (see the constructor). */
const READ_COALESCE_MS = 100;
const EMPTY = Buffer.alloc(0);
/** Where a rest's waiting output is read into (drain); the parser copies what it keeps. */
const DRAIN = Buffer.alloc(64 * 1024);
const OUTPUT = Buffer.from('%output ');
const isOctal = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x37;

/** Whether `data[start, end)` begins with `prefix`. */
function startsWith(data: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (data[start + i] !== prefix[i]) return false;
  return true;
}

/** Undo tmux's `\ooo` escapes; a backslash not followed by three octal digits stays as it is. */
export function unescapeOutput(bytes: Buffer): Buffer {
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (byte === BACKSLASH && isOctal(bytes[i + 1]) && isOctal(bytes[i + 2]) && isOctal(bytes[i + 3])) {
      out[n++] = ((bytes[i + 1]! - 0x30) * 64 + (bytes[i + 2]! - 0x30) * 8 + (bytes[i + 3]! - 0x30)) & 0xff;
      i += 3;
    } else out[n++] = byte;
  }
  return out.subarray(0, n);
}

interface PipeHandle { readStop(): number; readStart(): number; readonly fd: number }

/** The libuv pipe under a child's stdout, when Node exposes its read switch and descriptor (see ControlClient). */
function pipeHandle(child: ChildProcessWithoutNullStreams): PipeHandle | null {
  const handle = (child.stdout as unknown as { _handle?: Partial<PipeHandle> | null })._handle;
  return handle && typeof handle.readStop === 'function' && typeof handle.readStart === 'function' && typeof handle.fd === 'number' && handle.fd >= 0
    ? (handle as PipeHandle)
    : null;
}

/**
 * The control-mode protocol as a pure, incremental parser: feed chunks as they arrive, get whole
 * messages back. Inside a reply block every line is data until the `%end`/`%error` that repeats the
 * block's own `<time> <number> <flags>`, so pane text that looks like `%begin …` cannot confuse it.
 * With `decode: false`, `%output` names its pane only: the bytes are not unescaped (the engine needs
 * to know that a pane printed, not what: its screen it reads with capture-pane).
 */
export class ControlParser {
  private rest = EMPTY;
  /** The reply block being read: the lines that end it (`%end`/`%error` and its guard), and its lines so far. */
  private block: { end: string; error: string; number: number; fromClient: boolean; lines: string[] } | null = null;
  private readonly decode: boolean;

  constructor(options: { decode?: boolean } = {}) {
    this.decode = options.decode ?? true;
  }

  push(chunk: Buffer | string): ControlMessage[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const data = this.rest.length === 0 ? bytes : Buffer.concat([this.rest, bytes]);
    const messages: ControlMessage[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a); end !== -1; end = data.indexOf(0x0a, start)) {
      const message = this.line(data, start, end > start && data[end - 1] === 0x0d ? end - 1 : end);
      if (message) messages.push(message);
      start = end + 1;
    }
    this.rest = start === data.length ? EMPTY : Buffer.from(data.subarray(start));
    return messages;
  }

  /** The line `data[start, end)`; offsets rather than a slice, so a flood's lines cost no Buffer each. */
  private line(data: Buffer, start: number, end: number): ControlMessage | null {
    if (this.block) {
      const text = data.toString('utf8', start, end);
      const block = this.block;
      if (data[start] === 0x25 && (text === block.end || text === block.error)) {
        this.block = null;
        return { kind: 'reply', number: block.number, fromClient: block.fromClient, ok: text === block.end, lines: block.lines };
      }
      block.lines.push(text);
      return null;
    }
    if (data[start] !== 0x25) return null;
    if (startsWith(data, start, end, OUTPUT)) {
      // The flood's own line, first and without a string made of its name.
      const found = data.indexOf(0x20, start + OUTPUT.length);
      const gap = found === -1 || found >= end ? -1 : found;
      const paneId = data.toString('latin1', start + OUTPUT.length, gap === -1 ? end : gap);
      return { kind: 'output', paneId, data: this.decode ? (gap === -1 ? EMPTY : unescapeOutput(data.subarray(gap + 1, end))) : null };
    }
    const raw = data.subarray(start, end);
    const space = raw.indexOf(0x20);
    const name = raw.subarray(1, space === -1 ? raw.length : space).toString('utf8');
    const args = space === -1 ? Buffer.alloc(0) : raw.subarray(space + 1);
    switch (name) {
      case 'begin': {
        const match = /^(\d+) (\d+) (\d+)$/.exec(args.toString('utf8'));
        if (!match) return { kind: 'notification', name, args: args.toString('utf8') };
        const guard = match.slice(1).join(' ');
        this.block = { end: `%end ${guard}`, error: `%error ${guard}`, number: Number(match[2]), fromClient: (Number(match[3]) & 1) === 1, lines: [] };
        return null;
      }
      case 'extended-output': {
        const gap = args.indexOf(0x20);
        const colon = args.indexOf(' : ');
        const paneId = args.subarray(0, gap === -1 ? args.length : gap).toString('utf8');
        return { kind: 'output', paneId, data: !this.decode ? null : colon === -1 ? EMPTY : unescapeOutput(args.subarray(colon + 3)) };
      }
      case 'pause':
        return { kind: 'pause', paneId: args.toString('utf8').trim() };
      case 'subscription-changed': {
        const text = args.toString('utf8');
        const colon = text.indexOf(' : ');
        const words = (colon === -1 ? text : text.slice(0, colon)).split(' ');
        const paneId = words.slice(1).find((word) => /^%\d+$/.test(word)) ?? null;
        return { kind: 'subscription', name: words[0] ?? '', paneId, value: colon === -1 ? '' : text.slice(colon + 3) };
      }
      case 'exit':
        return { kind: 'exit', reason: args.toString('utf8') };
      default:
        return { kind: 'notification', name, args: args.toString('utf8') };
    }
  }
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
