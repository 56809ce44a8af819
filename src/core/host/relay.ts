/**
 * The host relay's wire (SPEC 10.9, docs/hosts.md): the plan folder's files carried between the
 * engine's machine and a lane's host over one ssh channel, byte for byte. One JSON object a line,
 * `t` its type, file bytes as base64 in `data`, at most MAX_CHUNK bytes of a file a frame. The
 * hello's shape (`t`, the engine's `v`, the host's `facts.protocol`) never changes, so two versions
 * of swarm always get far enough to tell each other apart. What may travel where, and how a mirror
 * applies what arrives: core/host/relayPaths.ts. Pure.
 */

/** The relay protocol's version: the hello of each side says it; a mismatch ends the connection. */
export const RELAY_PROTOCOL = 1;

/** Bytes of a file in one frame: a big file travels as several, so a line stays bounded. */
export const MAX_CHUNK = 256 * 1024;

/** A whole file (not appended) is assembled in memory before its write; larger ones are refused. */
export const MAX_WHOLE = 64 * 1024 * 1024;

/** The longest line that can be a frame: base64 of a chunk is 4/3 of it, plus the path and fields. */
export const MAX_LINE = 512 * 1024;

/** What the host's relay says of itself in its hello. */
export interface RelayFacts {
  hostname: string;
  /** `readlink /proc/self/ns/pid` there (`pid:[4026531836]`), null where there is none. */
  pidns: string | null;
  home: string | null;
  /** The relay's environment there, as ssh gives a command: what an agent there starts from. */
  env: Record<string, string>;
  /** The node running the relay, and the swarm (bin/swarm.cjs) it runs from. */
  node: string;
  bin: string;
  version: string;
  protocol: number;
  /** The host's plan folder is the engine's own (the token the engine wrote is there): nothing to carry. */
  shared: boolean;
}

/** What identifies a process on the host (core/process/procStat.ts). */
interface HostProcess { pid: number; startTicks: number }

/** A checkout's git state on the host, as adapters/git.ts `gitState` reads it there. */
interface HostGitState { repo: string | null; branch: string | null; head: string | null; pushed: boolean | null; uncommitted: string[] }

/** Frames the engine sends the host's relay. */
export type ToHost =
  | { t: 'hello'; v: number; token: string; host: string }
  /** What the engine's copy holds already: sizes of the appended files, digests of the whole ones (sha256 of mode and bytes). */
  | { t: 'have'; sizes: Record<string, number>; digests: Record<string, string> }
  /** The haves are all told: start following. */
  | { t: 'go' }
  /** A piece of a pushed file, `at` its offset; written (atomically) once `last` has come. */
  | { t: 'write'; id: number; path: string; at: number; data: Uint8Array; last: boolean; mode: number }
  | { t: 'stat'; id: number; pid: number }
  /** The git state of a checkout there (an absolute path), for the engine's packet checks. */
  | { t: 'git'; id: number; checkout: string }
  /**
   * One tmux command run there (`tmux -u ARGS`, no shell): the host's tmux commands that are not the
   * control connection's, without an ssh session each (a session runs the user's shell rc: ~80 ms).
   */
  | { t: 'tmux'; id: number; args: string[] }
  /** The engine's copy of an appended file ends at `from`: send it again from there. */
  | { t: 'resend'; path: string; from: number };

/** Frames the host's relay sends the engine. */
export type ToEngine =
  | { t: 'hello'; facts: RelayFacts }
  /** Bytes of an append-only file (.jsonl) at offset `at`. */
  | { t: 'append'; path: string; at: number; data: Uint8Array }
  /** A piece of a whole file, as `write`. */
  | { t: 'file'; path: string; at: number; data: Uint8Array; last: boolean; mode: number }
  | { t: 'wrote'; id: number; error: string | null }
  | { t: 'proc'; id: number; proc: HostProcess | null }
  /** A checkout's git state, or why it could not be told. */
  | { t: 'git'; id: number; state: HostGitState | null; error: string | null }
  /** A tmux command's end: its exit code (null: it did not run, or was ended), what it printed. */
  | { t: 'ran'; id: number; code: number | null; stdout: string; stderr: string }
  /** The relay refused a line of the engine's and ends. */
  | { t: 'problem'; message: string };

/** One line read: a frame, or why the line is none. */
export type Decoded<F> = { frame: F } | { bad: string };

/** The frame as one line, ending in `\n`. */
export function encodeFrame(frame: ToHost | ToEngine): string {
  const wire = 'data' in frame ? { ...frame, data: Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength).toString('base64') } : frame;
  return `${JSON.stringify(wire)}\n`;
}

/** `data` cut into pieces of at most MAX_CHUNK bytes, each with its offset; an empty file is one empty piece. */
export function chunksOf(data: Uint8Array): { at: number; data: Uint8Array; last: boolean }[] {
  const pieces: { at: number; data: Uint8Array; last: boolean }[] = [];
  for (let at = 0; at < data.length || pieces.length === 0; at += MAX_CHUNK) {
    pieces.push({ at, data: data.subarray(at, at + MAX_CHUNK), last: at + MAX_CHUNK >= data.length });
  }
  return pieces;
}

/**
 * Lines from chunks of bytes split anywhere, each decoded as a frame by `parse` (which says why a
 * value is none). A line longer than MAX_LINE is dropped as it comes, never held whole.
 */
export class FrameReader<F> {
  private parts: Uint8Array[] = [];
  private held = 0;
  private oversize = false;

  constructor(private readonly parse: (value: Record<string, unknown>) => F | string) {}

  push(chunk: Uint8Array): Decoded<F>[] {
    const out: Decoded<F>[] = [];
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      this.hold(chunk.subarray(from, nl));
      out.push(this.oversize ? { bad: `a line longer than ${MAX_LINE} bytes` } : this.decode(Buffer.concat(this.parts, this.held)));
      this.parts = [];
      this.held = 0;
      this.oversize = false;
      from = nl + 1;
    }
    this.hold(chunk.subarray(from));
    return out;
  }

  /** The input ended: a last line without its newline is no frame. */
  end(): Decoded<F>[] {
    const torn = this.held > 0 || this.oversize;
    this.parts = [];
    this.held = 0;
    this.oversize = false;
    return torn ? [{ bad: 'a last line without its newline' }] : [];
  }

  private hold(bytes: Uint8Array): void {
    if (this.oversize || bytes.length === 0) return;
    if (this.held + bytes.length > MAX_LINE) {
      this.oversize = true;
      this.parts = [];
      this.held = 0;
      return;
    }
    this.parts.push(bytes);
    this.held += bytes.length;
  }

  private decode(bytes: Uint8Array): Decoded<F> {
    if (bytes.length === 0) return { bad: 'an empty line' };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { bad: 'a line that is not UTF-8' };
    }
    if (text.endsWith('\r')) return { bad: `a line ending in CRLF: ${shown(text)}` };
    if (!text.startsWith('{') || !text.endsWith('}')) return { bad: `not a frame: ${shown(text)}` };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { bad: `not JSON: ${shown(text)}` };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { bad: `not a frame: ${shown(text)}` };
    const frame = this.parse(value as Record<string, unknown>);
    return typeof frame === 'string' ? { bad: `${frame}: ${shown(text)}` } : { frame };
  }
}

/** A line cut short for a message, its escapes and control characters visible. */
function shown(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

const nat = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const str = (v: unknown): v is string => typeof v === 'string';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function bytes(v: unknown): Uint8Array | null {
  if (!str(v) || v.length > Math.ceil(MAX_CHUNK / 3) * 4 || !BASE64.test(v)) return null;
  return Buffer.from(v, 'base64');
}

function mode(v: unknown): number | null {
  return nat(v) && v <= 0o777 ? v : null;
}

/** A record of `string → T` (a JSON object), or null when a key or a value is not one. */
function recordOf<T>(v: unknown, ok: (x: unknown) => x is T): Record<string, T> | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  return Object.values(v).every(ok) ? (v as Record<string, T>) : null;
}

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const DIGEST = (x: unknown): x is string => str(x) && /^[0-9a-f]{64}$/.test(x);

/** A frame the engine sent, or why the value is none. */
export function parseToHost(o: Record<string, unknown>): ToHost | string {
  switch (o.t) {
    case 'hello':
      return nat(o.v) && str(o.token) && str(o.host) && HOST_NAME.test(o.host) ? { t: 'hello', v: o.v, token: o.token, host: o.host } : 'a hello without v, token and host';
    case 'have': {
      const sizes = recordOf(o.sizes, nat);
      const digests = recordOf(o.digests, DIGEST);
      return sizes && digests ? { t: 'have', sizes, digests } : 'a have without sizes and digests';
    }
    case 'go':
      return { t: 'go' };
    case 'write': {
      const data = bytes(o.data);
      const m = mode(o.mode);
      return nat(o.id) && str(o.path) && nat(o.at) && data && typeof o.last === 'boolean' && m !== null
        ? { t: 'write', id: o.id, path: o.path, at: o.at, data, last: o.last, mode: m } : 'a write without id, path, at, data (base64, a chunk at most), last and mode';
    }
    case 'stat':
      return nat(o.id) && nat(o.pid) ? { t: 'stat', id: o.id, pid: o.pid } : 'a stat without id and pid';
    case 'git':
      return nat(o.id) && str(o.checkout) && o.checkout.startsWith('/') ? { t: 'git', id: o.id, checkout: o.checkout } : 'a git without id and an absolute checkout';
    case 'tmux':
      return nat(o.id) && Array.isArray(o.args) && o.args.length > 0 && o.args.every(str) ? { t: 'tmux', id: o.id, args: o.args as string[] } : 'a tmux without id and args';
    case 'resend':
      return str(o.path) && nat(o.from) ? { t: 'resend', path: o.path, from: o.from } : 'a resend without path and from';
    default:
      return 'an unknown frame';
  }
}

/** A frame the host's relay sent, or why the value is none. */
export function parseToEngine(o: Record<string, unknown>): ToEngine | string {
  switch (o.t) {
    case 'hello': {
      const f = o.facts as Record<string, unknown> | null | undefined;
      if (typeof f !== 'object' || f === null) return 'a hello without its facts';
      const { hostname, pidns, home, node, bin, version, protocol, shared } = f;
      const nullable = (v: unknown): v is string | null => v === null || str(v);
      const env = recordOf(f.env, str);
      const ok = str(hostname) && nullable(pidns) && nullable(home) && env && str(node) && str(bin) && str(version) && nat(protocol) && typeof shared === 'boolean';
      return ok ? { t: 'hello', facts: { hostname, pidns, home, env, node, bin, version, protocol, shared } } : 'a hello without its facts';
    }
    case 'append': {
      const data = bytes(o.data);
      return str(o.path) && nat(o.at) && data ? { t: 'append', path: o.path, at: o.at, data } : 'an append without path, at and data (base64, a chunk at most)';
    }
    case 'file': {
      const data = bytes(o.data);
      const m = mode(o.mode);
      return str(o.path) && nat(o.at) && data && typeof o.last === 'boolean' && m !== null
        ? { t: 'file', path: o.path, at: o.at, data, last: o.last, mode: m } : 'a file without path, at, data (base64, a chunk at most), last and mode';
    }
    case 'wrote':
      return nat(o.id) && (o.error === null || str(o.error)) ? { t: 'wrote', id: o.id, error: o.error } : 'a wrote without id and error';
    case 'proc': {
      const p = o.proc as Record<string, unknown> | null | undefined;
      if (!nat(o.id) || p === undefined) return 'a proc without id and proc';
      if (p === null) return { t: 'proc', id: o.id, proc: null };
      return typeof p === 'object' && nat(p.pid) && nat(p.startTicks) ? { t: 'proc', id: o.id, proc: { pid: p.pid, startTicks: p.startTicks } } : 'a proc without pid and startTicks';
    }
    case 'git': {
      const state = o.state === null ? null : gitStateOf(o.state);
      return nat(o.id) && state !== undefined && (o.error === null || str(o.error)) && (state === null) === (o.error !== null)
        ? { t: 'git', id: o.id, state, error: o.error as string | null } : 'a git without id, and a state or an error';
    }
    case 'ran':
      return nat(o.id) && (o.code === null || (typeof o.code === 'number' && Number.isInteger(o.code))) && str(o.stdout) && str(o.stderr)
        ? { t: 'ran', id: o.id, code: o.code as number | null, stdout: o.stdout, stderr: o.stderr } : 'a ran without id, code, stdout and stderr';
    case 'problem':
      return str(o.message) ? { t: 'problem', message: o.message } : 'a problem without a message';
    default:
      return 'an unknown frame';
  }
}

/** A git state's fields checked, or undefined. */
function gitStateOf(v: unknown): HostGitState | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { repo, branch, head, pushed, uncommitted } = v as Record<string, unknown>;
  const nullable = (x: unknown): x is string | null => x === null || str(x);
  const ok = nullable(repo) && nullable(branch) && nullable(head) && (pushed === null || typeof pushed === 'boolean') && Array.isArray(uncommitted) && uncommitted.every(str);
  return ok ? { repo, branch, head, pushed, uncommitted: uncommitted as string[] } : undefined;
}
