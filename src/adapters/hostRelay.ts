/**
 * The engine's end of the host relay (SPEC 10.9, docs/hosts.md): one process (ssh running
 * `swarm host-relay P` on a lane's host) carrying the plan folder's files both ways, as frames of
 * core/host/relay.ts. The plan folder is at the same absolute path P on both machines, so what the
 * host's agents write under P (core/host/relayPaths.ts `followed`) is mirrored into this P, byte for
 * byte, and what the engine pushes lands at the same path there.
 *
 * The mirror never follows a link of this P, never writes outside the followed set whatever the
 * host sends, and holds no hole: bytes beyond its copy's end are asked for again (appendStep). On
 * connecting the engine tells the host what its copy holds, so a reconnect sends only what is new.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { encodeFrame, FrameReader, MAX_WHOLE, parseToEngine, RELAY_PROTOCOL, chunksOf, type RelayFacts, type ToEngine, type ToHost } from '../core/host/relay.js';
import { assemble, followed, followedRoots, pushable, type Assembly } from '../core/host/relayPaths.js';
import type { ProcessId } from '../core/process/procStat.js';
import { SwarmError } from '../errors.js';
import { childProcess } from './childProcess.js';
import type { GitState } from './git.js';
import { digestOf, PlanTree } from './planTree.js';

export type { RelayFacts } from '../core/host/relay.js';

export interface RelayOptions {
  /** The relay's command line: `ssh … -- DEST 'swarm host-relay P'` (core/host/ssh.ts), or a local one. */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** P: this machine's plan folder, absolute; the host's is at the same path. */
  plan: string;
  /** The host's name in swarm.yaml (its pane deaths are `.swarm/panes-<host>.jsonl`). */
  host: string;
  /** The plan's host token (`.swarm/host-token` here): a relay that finds it in its P shares this P. */
  token: string;
  /** Files of this P the host's copies changed (relative paths), after each batch of frames. */
  onChanged: (paths: string[]) => void;
  /** The relay ended after its hello: `expected` when close() ended it. Told once. */
  onClose: (reason: string, expected: boolean) => void;
  /** How long the host may take to say hello (default 30 s: ssh's connect, a login shell, node's start). */
  helloMs?: number;
}

interface PushFile { path: string; data: Uint8Array; mode?: number }

const HELLO_MS = 30_000;
const CLOSE_GRACE_MS = 2000;
/** Entries of the engine's `have` a frame: far below MAX_LINE with paths at their longest. */
const HAVE_BATCH = 200;

/** The relay could not be started because ssh did not reach the host (exit 255 before its hello). */
export class HostUnreachable extends SwarmError {}

export class HostRelay {
  private hostFacts: RelayFacts | null = null;
  private readonly tree: PlanTree;
  private readonly reader = new FrameReader(parseToEngine);
  private readonly pending = new Map<number, { resolve: (frame: ToEngine) => void; reject: (error: Error) => void }>();
  private readonly files = new Map<string, Assembly>();
  /** Appended files whose copy was found short: asked again once, until bytes at its end come. */
  private readonly asked = new Set<string>();
  private nextId = 1;
  /** The end of what the relay (ssh, a login shell, swarm) said on stderr. */
  private stderrTail = '';
  private failure: string | null = null;
  private closing = false;
  private ended = false;
  private readonly exited: Promise<void>;
  private hello: { resolve: () => void; reject: (error: Error) => void } | null = null;

  private constructor(private readonly child: ChildProcessWithoutNullStreams, private readonly options: RelayOptions) {
    this.tree = new PlanTree(options.plan);
    child.stdin.on('error', () => undefined); // a relay gone: its exit says why
    child.stderr.on('data', (chunk: Buffer) => void (this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096)));
    child.stdout.on('data', (chunk: Buffer) => this.received(chunk));
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.ended = true;
        this.closed(code, signal);
        resolve();
      });
    });
    // Its output closes with it, unless something it started holds the pipe: then closed a second after.
    child.once('exit', () => setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
    }, 1000).unref());
  }

  /** Start the relay and tell it what this copy holds; resolves after the host's hello, with its facts. */
  static async connect(options: RelayOptions): Promise<HostRelay> {
    if (!isAbsolute(options.plan)) throw new SwarmError(`the host relay needs the plan folder's absolute path, not ${options.plan}`);
    const [program, ...args] = options.argv;
    const child = childProcess().spawn(program ?? 'ssh', args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const relay = new HostRelay(child, options);
    const said = new Promise<void>((resolve, reject) => (relay.hello = { resolve, reject }));
    child.once('error', (error) => relay.fail(`${program ?? 'ssh'} did not start: ${error.message}`));
    relay.send({ t: 'hello', v: RELAY_PROTOCOL, token: options.token, host: options.host });
    for (const frame of relay.haves()) relay.send(frame);
    relay.send({ t: 'go' });
    const timer = setTimeout(() => relay.fail(`no hello from the host relay within ${(options.helloMs ?? HELLO_MS) / 1000} s`), options.helloMs ?? HELLO_MS);
    try {
      await said;
    } catch (error) {
      await relay.exited;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return relay;
  }

  /** The host's facts, as its hello said them. */
  get facts(): RelayFacts {
    if (this.hostFacts === null) throw new SwarmError('the host relay has not said hello');
    return this.hostFacts;
  }

  /** Write files of P on the host (each atomically, with its mode; 0644 when none); resolves once all are written. Nothing to do when P is shared. */
  async push(files: readonly PushFile[]): Promise<void> {
    const refused = files.filter((f) => !pushable(f.path)).map((f) => JSON.stringify(f.path));
    if (refused.length > 0) throw new SwarmError(`the engine pushes only its own files to a host, not ${refused.join(', ')}`);
    if (this.facts.shared) return;
    const answers = files.map(async (file) => {
      const answer = this.ask((id) => chunksOf(file.data).map((piece): ToHost => ({ t: 'write', id, path: file.path, ...piece, mode: file.mode ?? 0o644 })));
      const frame = await answer;
      if (frame.t === 'wrote' && frame.error !== null) throw new SwarmError(`the host did not write ${file.path}: ${frame.error}`);
    });
    const results = await Promise.allSettled(answers);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  /** Process `pid` on the host as /proc there tells it (its start time tells a reused pid), or null when it is gone. */
  async processNow(pid: number): Promise<ProcessId | null> {
    const frame = await this.ask((id) => [{ t: 'stat', id, pid }]);
    return frame.t === 'proc' ? frame.proc : null;
  }

  /** A checkout's git state on the host (adapters/git.ts `gitState`, read there), for the packet checks. */
  async gitState(checkout: string): Promise<GitState> {
    const frame = await this.ask((id) => [{ t: 'git', id, checkout }]);
    if (frame.t !== 'git' || frame.state === null) throw new SwarmError(`the host could not read the git state of ${checkout}: ${frame.t === 'git' ? frame.error : 'no answer'}`);
    return frame.state;
  }

  /** `tmux -u ARGS` run there, without an ssh session of its own: its exit code and output. */
  async tmux(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const frame = await this.ask((id) => [{ t: 'tmux', id, args: [...args] }]);
    if (frame.t !== 'ran') throw new SwarmError('the host relay gave no answer to a tmux command');
    return { code: frame.code, stdout: frame.stdout, stderr: frame.stderr };
  }

  /** End the relay: its input closed, then SIGTERM after 2 s, SIGKILL after 2 s more. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.ended) {
      this.child.stdin.end();
      const term = setTimeout(() => this.child.kill('SIGTERM'), CLOSE_GRACE_MS);
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 2 * CLOSE_GRACE_MS);
      await this.exited;
      clearTimeout(term);
      clearTimeout(kill);
    }
  }

  /** What this copy holds of the followed files, in frames of HAVE_BATCH entries. */
  private haves(): ToHost[] {
    const sizes: [string, number][] = [];
    const digests: [string, string][] = [];
    const file = (path: string): void => {
      const how = followed(path, this.options.host);
      const size = how === 'append' ? this.tree.file(path)?.size : undefined;
      const whole = how === 'whole' ? this.tree.readWhole(path, MAX_WHOLE) : null;
      if (size !== undefined) sizes.push([path, size]);
      if (whole) digests.push([path, digestOf(whole.data, whole.mode)]);
    };
    const walk = (dir: string): void => {
      for (const entry of this.tree.list(dir)) {
        const path = `${dir}/${entry.name}`;
        if (entry.kind === 'dir') walk(path);
        else file(path);
      }
    };
    for (const root of followedRoots(this.options.host)) {
      if (root.endsWith('/')) walk(root.slice(0, -1));
      else file(root);
    }
    const frames: ToHost[] = [];
    for (let i = 0; i < Math.max(sizes.length, digests.length); i += HAVE_BATCH) {
      frames.push({ t: 'have', sizes: Object.fromEntries(sizes.slice(i, i + HAVE_BATCH)), digests: Object.fromEntries(digests.slice(i, i + HAVE_BATCH)) });
    }
    return frames;
  }

  private send(frame: ToHost): void {
    if (!this.ended && this.child.stdin.writable) this.child.stdin.write(encodeFrame(frame));
  }

  /** Send the frames `build` makes for a new id; resolves with the host's answer to that id. */
  private ask(build: (id: number) => ToHost[]): Promise<ToEngine> {
    if (this.failure !== null || this.ended || this.closing) return Promise.reject(new SwarmError(`the host relay is closed${this.failure === null ? '' : `: ${this.failure}`}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      for (const frame of build(id)) this.send(frame);
    });
  }

  private received(chunk: Buffer): void {
    const changed = new Set<string>();
    for (const item of this.reader.push(chunk)) {
      if (this.failure !== null) break;
      if ('bad' in item) {
        // Before the hello a login shell may print (a banner, a motd): skipped; after it, the stream is broken.
        if (this.hostFacts !== null) this.fail(`the host relay sent ${item.bad}`);
        continue;
      }
      this.frame(item.frame, changed);
    }
    if (changed.size > 0) this.options.onChanged([...changed]);
  }

  private frame(frame: ToEngine, changed: Set<string>): void {
    if (frame.t === 'hello') return this.helloed(frame.facts);
    if (frame.t === 'problem') return this.fail(`the host relay refused the engine's frames: ${frame.message}`);
    if (this.hostFacts === null) return this.fail(`the host relay sent a ${frame.t} before its hello`);
    switch (frame.t) {
      case 'append':
        return this.appended(frame, changed);
      case 'file':
        return this.fileArrived(frame, changed);
      case 'wrote':
      case 'proc':
      case 'git':
      case 'ran':
        this.pending.get(frame.id)?.resolve(frame);
        this.pending.delete(frame.id);
        return;
    }
  }

  private helloed(facts: RelayFacts): void {
    if (this.hostFacts !== null) return this.fail('the host relay said hello twice');
    if (facts.protocol !== RELAY_PROTOCOL) {
      return this.fail(`the host's swarm (${facts.version}, ${facts.bin}) speaks relay protocol ${facts.protocol}, this swarm protocol ${RELAY_PROTOCOL}: install the same swarm there as here`);
    }
    this.hostFacts = facts;
    this.hello?.resolve();
    this.hello = null;
  }

  private appended(frame: Extract<ToEngine, { t: 'append' }>, changed: Set<string>): void {
    if (followed(frame.path, this.options.host) !== 'append') return this.fail(`the host relay sent ${JSON.stringify(frame.path)}, which is no appended file it follows`);
    let step;
    try {
      step = this.tree.append(frame.path, frame.at, frame.data);
    } catch {
      return; // a link or no plain file in the way here: nothing is written through it, and the spool reader skips it
    }
    if (step.do === 'resend') {
      if (!this.asked.has(frame.path)) this.send({ t: 'resend', path: frame.path, from: step.from });
      this.asked.add(frame.path);
      return;
    }
    this.asked.delete(frame.path);
    if (step.do === 'append') changed.add(frame.path);
  }

  private fileArrived(frame: Extract<ToEngine, { t: 'file' }>, changed: Set<string>): void {
    if (followed(frame.path, this.options.host) !== 'whole') return this.fail(`the host relay sent ${JSON.stringify(frame.path)}, which is no whole file it follows`);
    const step = assemble(this.files.get(frame.path), frame);
    if (step.pending === null) this.files.delete(frame.path);
    else this.files.set(frame.path, step.pending);
    if (step.problem !== null) return this.fail(`the host relay sent ${frame.path} out of order: ${step.problem}`);
    if (step.done === null) return;
    try {
      this.tree.write(frame.path, step.done, frame.mode);
      changed.add(frame.path);
    } catch {
      // a link or no plain folder in the way here: not written through it
    }
  }

  /** The connection is no good (or never was): end the relay; its close tells why. */
  private fail(reason: string): void {
    if (this.failure !== null) return;
    this.failure = reason;
    if (this.ended) return;
    this.child.kill('SIGTERM');
    setTimeout(() => this.ended || this.child.kill('SIGKILL'), CLOSE_GRACE_MS).unref();
  }

  /**
   * The relay's process ended: whatever waits is told why, with the last line it printed on stderr
   * (ssh's "Permission denied (publickey).", a shell's "swarm: command not found") where that says more.
   */
  private closed(code: number | null, signal: NodeJS.Signals | null): void {
    const exit = signal === null ? `exit ${code}` : signal;
    const last = this.stderrTail.split('\n').map((l) => l.trim()).filter((l) => l !== '').pop()?.slice(0, 300);
    const said = last === undefined ? '' : `: ${last}`;
    const before = this.hello !== null;
    let reason: string;
    if (this.failure !== null) reason = before ? `${this.failure}${said}` : this.failure;
    else if (before) reason = `the host relay ended before its hello (${exit})${said}`;
    else reason = this.closing ? 'closed' : `the host relay ended (${exit})${said}`;
    // ssh's own failure (255: no connection, refused, timed out, a host key or login refused) before the
    // relay spoke: the host is not reached, which a later try may change; anything else is the host's setup.
    const error = before && code === 255 ? new HostUnreachable(reason) : new SwarmError(reason);
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    if (this.hello !== null) {
      this.hello.reject(error);
      this.hello = null;
      return;
    }
    this.options.onClose(reason, this.closing && this.failure === null);
  }
}
