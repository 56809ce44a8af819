/**
 * The tmux control-mode protocol as a pure, incremental parser (adapters/tmux/control.ts is the
 * connection that feeds it): `%output` lines, reply blocks between `%begin` and `%end`/`%error`,
 * pauses, subscription values and the rest of the notifications.
 */

export type ControlMessage =
  /** The pane's bytes, unescaped. */
  | { kind: 'output'; paneId: string; data: Buffer }
  | { kind: 'reply'; number: number; fromClient: boolean; ok: boolean; lines: string[] }
  | { kind: 'pause'; paneId: string }
  | { kind: 'subscription'; name: string; paneId: string | null; value: string }
  | { kind: 'exit'; reason: string }
  | { kind: 'notification'; name: string; args: string };

const BACKSLASH = 0x5c;
const EMPTY = Buffer.alloc(0);
const OUTPUT = Buffer.from('%output ');
const EXTENDED = Buffer.from('%extended-output ');
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

/**
 * The control-mode protocol as a pure, incremental parser: feed chunks as they arrive, get whole
 * messages back. Inside a reply block every line is data until the `%end`/`%error` that repeats the
 * block's own `<time> <number> <flags>`, so pane text that looks like `%begin …` cannot confuse it.
 *
 * Given a set, `push` adds to it the panes that printed instead of returning their output: the
 * engine needs to know that a pane printed, not what (its screen it reads with capture-pane), and a
 * flood's lines then cost no message, no string and no copy each (the pane's name is made once).
 */
export class ControlParser {
  private rest = EMPTY;
  /** The reply block being read: the lines that end it (`%end`/`%error` and its guard), and its lines so far. */
  private block: { end: string; error: string; number: number; fromClient: boolean; lines: string[] } | null = null;
  /** Pane names by number (`%12` at 12), made once. */
  private readonly names: string[] = [];

  push(chunk: Buffer | string, printed?: Set<string>): ControlMessage[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const data = this.rest.length === 0 ? bytes : Buffer.concat([this.rest, bytes]);
    const messages: ControlMessage[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a); end !== -1; end = data.indexOf(0x0a, start)) {
      const stop = end > start && data[end - 1] === 0x0d ? end - 1 : end;
      const pane = printed === undefined || this.block !== null ? null : this.outputPane(data, start, stop);
      if (pane !== null) printed!.add(pane);
      else {
        const message = this.line(data, start, stop);
        if (message) messages.push(message);
      }
      start = end + 1;
    }
    this.rest = start === data.length ? EMPTY : Buffer.from(data.subarray(start));
    return messages;
  }

  /**
   * The pane an output line `data[start, end)` names (`%output %12 …`, `%extended-output %12 …`), or
   * null for any other line, and for a pane name not in tmux's `%<number>` form (that line is then
   * returned as a message like any other).
   */
  private outputPane(data: Buffer, start: number, end: number): string | null {
    if (data[start] !== 0x25) return null;
    const from = startsWith(data, start, end, OUTPUT) ? start + OUTPUT.length : startsWith(data, start, end, EXTENDED) ? start + EXTENDED.length : -1;
    if (from === -1 || data[from] !== 0x25) return null;
    let n = 0;
    let i = from + 1;
    for (; i < end && i < from + 8 && data[i]! >= 0x30 && data[i]! <= 0x39; i += 1) n = n * 10 + data[i]! - 0x30;
    if (i === from + 1 || (i < end && data[i] !== 0x20)) return null;
    return (this.names[n] ??= `%${n}`);
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
      return { kind: 'output', paneId, data: gap === -1 ? EMPTY : unescapeOutput(data.subarray(gap + 1, end)) };
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
        return { kind: 'output', paneId, data: colon === -1 ? EMPTY : unescapeOutput(args.subarray(colon + 3)) };
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
