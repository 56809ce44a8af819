/**
 * Ink's output stage, made cheap for a screen of side-by-side texts: the dashboard's frames.
 *
 * Ink 6 turns every frame into a grid of styled cells: each written line is split into graphemes
 * with their styles, placed cell by cell, and each row encoded back into text, about 2 µs a cell
 * and nothing kept between frames, so a 120×40 frame costs 8 ms even when nothing changed. When no
 * write overlaps another and none is clipped (all the dashboard ever draws), a row is simply its
 * texts in order with spaces between them; only each text's width in cells is needed, and that is
 * kept across frames for every line seen. `frameText` computes such a frame and declines (null) any
 * other, which Ink's own code then draws; the cells are the same either way (tests/ui/inkOutput.test.ts
 * checks them on a real terminal emulator). Ink does not export its Output class, so
 * `installFastOutput` finds it beside Ink's entry point and changes nothing when its shape differs.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import stringWidth from 'string-width';

type Transformer = (line: string, index: number) => string;

/** What Ink's Output holds when it is asked for the frame (ink/build/output.js). */
export interface OutputOps {
  width: number;
  height: number;
  operations: readonly (
    | { type: 'write'; x: number; y: number; text: string; transformers: readonly Transformer[] }
    | { type: 'clip' | 'unclip' }
  )[];
}

export interface FrameText {
  output: string;
  height: number;
}

/** A written line as it goes into a row: its text (closed, so no style runs on) and width in cells. */
interface Measured {
  text: string;
  cells: number;
}

const LINES_KEPT = 8192;
const lines = new Map<string, Measured | null>();
const widths = new Map<string, number>();
const segmenter = new Intl.Segmenter();

/**
 * The frame's rows as Ink would encode them (the same cells), or null when a write is clipped,
 * overlaps another, reaches past the frame's width, or holds an escape code other than a colour or
 * text style: those frames are left to Ink.
 */
export function frameText(out: OutputOps): FrameText | null {
  const { width, height } = out;
  const rows: { x: number; end: number; text: string }[][] = Array.from({ length: height }, () => []);
  for (const op of out.operations) {
    if (op.type !== 'write') return null;
    // Ink drops a write that starts above the frame, and the lines of one that run below it.
    if (op.y < 0) continue;
    const texts = op.text.split('\n');
    for (let i = 0; i < texts.length && op.y + i < height; i += 1) {
      let text = texts[i]!;
      for (const transform of op.transformers) text = transform(text, i);
      const line = lineOf(text);
      if (line === null) return null;
      if (line.cells === 0) continue;
      if (op.x < 0 || op.x + line.cells > width) return null;
      rows[op.y + i]!.push({ x: op.x, end: op.x + line.cells, text: line.text });
    }
  }
  const output: string[] = [];
  for (const row of rows) {
    if (row.length > 1) row.sort((a, b) => a.x - b.x);
    let text = '';
    let at = 0;
    for (const part of row) {
      if (part.x < at) return null;
      text += ' '.repeat(part.x - at) + part.text;
      at = part.end;
    }
    output.push(text.trimEnd());
  }
  return { output: output.join('\n'), height };
}

/** A line's width in cells as Ink counts them (one grapheme, at least one cell), kept across frames. */
export function lineOf(text: string): Measured | null {
  let line = lines.get(text);
  if (line !== undefined) return line;
  line = scan(text);
  if (lines.size >= LINES_KEPT) lines.clear();
  lines.set(text, line);
  return line;
}

function scan(text: string): Measured | null {
  const style = new Style();
  let cells = 0;
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (code === 0x1b) {
      const end = style.take(text, i);
      if (end < 0) return null;
      i = end;
    } else if (code >= 0x20 && code < 0x7f) {
      // Printable ASCII, the common case: one cell a character.
      cells += 1;
      i += 1;
    } else {
      // Anything else up to the next printable ASCII or escape code, measured once and kept.
      let end = i + 1;
      for (; end < text.length; end += 1) {
        const next = text.charCodeAt(end);
        if (next === 0x1b || (next >= 0x20 && next < 0x7f)) break;
      }
      const run = runOf(text.slice(i, end));
      // A grapheme reaching across the run's ends (a combining mark after a letter): walk it all as Ink does.
      if (run === null || (run.joinsBefore && i > 0) || (run.joinsAfter && end < text.length)) return scanGraphemes(text);
      cells += run.cells;
      i = end;
    }
  }
  return { text: style.open ? `${text}\u001b[0m` : text, cells };
}

/**
 * `text` with each character outside printable ASCII replaced by `?`s filling the cells Ink counts
 * for it, or null when a grapheme reaches across printable ASCII (a combining mark after a letter)
 * or the text holds a control character (an escape code, a tab, a line break: not plainly one line
 * of cells). Ink measures every text of a frame on every frame, printable
 * ASCII ~50 times faster than the rest: a text laid out as this stand-in and swapped back at the
 * output stage (ui/components/Line.tsx) takes the same cells for the cheaper measure.
 */
export function asciiStandIn(text: string): string | null {
  let ok = true;
  const standIn = text.replace(NOT_PRINTABLE_ASCII, (chars, at: number) => {
    const run = CONTROL.test(chars) ? null : runOf(chars);
    if (run === null || (run.joinsBefore && at > 0) || (run.joinsAfter && at + chars.length < text.length)) ok = false;
    return '?'.repeat(run?.cells ?? 0);
  });
  return ok ? standIn : null;
}

const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]+/g;
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

interface Run {
  cells: number;
  /** Its first grapheme takes in a letter before it; its last, a letter after it. */
  joinsBefore: boolean;
  joinsAfter: boolean;
}

const runs = new Map<string, Run | null>();

function runOf(text: string): Run | null {
  let run = runs.get(text);
  if (run !== undefined) return run;
  run = null;
  if (!text.includes('\u009b')) {
    let cells = 0;
    for (const { segment } of segmenter.segment(text)) cells += Math.max(1, widthOf(segment));
    const first = segmenter.segment(`a${text}`)[Symbol.iterator]().next().value?.segment;
    const last = [...segmenter.segment(`${text}a`)].at(-1)?.segment;
    run = { cells, joinsBefore: first !== 'a', joinsAfter: last !== 'a' };
  }
  if (runs.size >= LINES_KEPT) runs.clear();
  runs.set(text, run);
  return run;
}

/** As Ink's tokenizer walks a line: grapheme by grapheme, an escape code skipping what it spans. */
function scanGraphemes(text: string): Measured | null {
  if (text.includes('\u009b')) return null;
  const style = new Style();
  let cells = 0;
  let codeEnd = 0;
  for (const { segment, index } of segmenter.segment(text)) {
    if (index < codeEnd) {
      // A grapheme straddling a code's end is dropped by Ink; a terminal would draw it. Leave it to Ink.
      if (index + segment.length > codeEnd) return null;
      continue;
    }
    if (segment.charCodeAt(0) === 0x1b) {
      codeEnd = style.take(text, index);
      if (codeEnd < 0) return null;
      continue;
    }
    cells += Math.max(1, widthOf(segment));
  }
  return { text: style.open ? `${text}\u001b[0m` : text, cells };
}

function widthOf(grapheme: string): number {
  let width = widths.get(grapheme);
  if (width === undefined) {
    width = stringWidth(grapheme);
    if (widths.size >= LINES_KEPT) widths.clear();
    widths.set(grapheme, width);
  }
  return width;
}

/** The SGR styles a line leaves on; anything but a colour or text style is refused. */
class Style {
  private on = new Set<string>();

  get open(): boolean {
    return this.on.size > 0;
  }

  /** Read the code at `start` (an ESC); the index after it, or -1 when it is not an SGR code this knows. */
  take(text: string, start: number): number {
    if (text[start + 1] !== '[') return -1;
    let end = start + 2;
    while (end < text.length && /[0-9;]/.test(text[end]!)) end += 1;
    if (text[end] !== 'm') return -1;
    return this.apply(text.slice(start + 2, end)) ? end + 1 : -1;
  }

  private apply(params: string): boolean {
    // An empty code (`ESC[m`, `ESC[;1m`) resets to a terminal but not to Ink's tokenizer: Ink's to draw.
    const codes = params.split(';').map((p) => (p === '' ? Number.NaN : Number(p)));
    for (let k = 0; k < codes.length; k += 1) {
      const n = codes[k]!;
      if (Number.isNaN(n)) return false;
      if (n === 0) this.on.clear();
      else if (n === 22) {
        this.on.delete('1');
        this.on.delete('2');
      } else if (ATTRIBUTE_OFF.has(n)) this.on.delete(String(ATTRIBUTE_OFF.get(n)));
      else if (ATTRIBUTES.has(n)) this.on.add(String(n));
      else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.on.add('fg');
      else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.on.add('bg');
      else if (n === 39) this.on.delete('fg');
      else if (n === 49) this.on.delete('bg');
      else if (n === 38 || n === 48) {
        const skip = codes[k + 1] === 5 ? 2 : codes[k + 1] === 2 ? 4 : -1;
        if (skip < 0 || k + skip >= codes.length) return false;
        this.on.add(n === 38 ? 'fg' : 'bg');
        k += skip;
      } else return false;
    }
    return true;
  }
}

/** Bold, dim, italic, underline, blink, inverse, hidden, strikethrough, overline, and their ends. */
const ATTRIBUTES = new Set([1, 2, 3, 4, 5, 7, 8, 9, 53]);
const ATTRIBUTE_OFF = new Map([[23, 3], [24, 4], [25, 5], [27, 7], [28, 8], [29, 9], [55, 53]]);

/** Ink's Output class, as far as this module relies on it. */
export interface InkOutputClass {
  new (size: { width: number; height: number }): OutputOps & {
    write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
    clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
    unclip(): void;
    get(): FrameText;
  };
  prototype: { get(this: OutputOps): FrameText; [INK_GET]?: (this: OutputOps) => FrameText };
}

const INK_GET = Symbol.for('swarm.inkOutput.inkGet');

/** How many frames `frameText` drew and how many it left to Ink since this process started. */
export const drawn = { fast: 0, ink: 0 };

/** Ink's Output class and its own `get` (also once `installFastOutput` has replaced it), or why they were not found. */
export async function inkOutput(): Promise<{ Output: InkOutputClass; inkGet: (this: OutputOps) => FrameText } | string> {
  let Output: InkOutputClass;
  try {
    const entry = createRequire(import.meta.url).resolve('ink');
    Output = ((await import(pathToFileURL(join(dirname(entry), 'output.js')).href)) as { default: InkOutputClass }).default;
  } catch (error) {
    return `ink's output.js was not found beside its entry point (${error instanceof Error ? error.message : String(error)})`;
  }
  const proto = Output?.prototype;
  if (typeof proto?.get !== 'function') return "ink's Output class has no get()";
  return { Output, inkGet: proto[INK_GET] ?? proto.get };
}

/**
 * Draw Ink's frames with `frameText` from now on, the frames it declines with Ink's own code.
 * Returns null, or why not when Ink's Output is not where or what this was written against (Ink then
 * draws as it always does).
 */
export async function installFastOutput(): Promise<string | null> {
  const found = await inkOutput();
  if (typeof found === 'string') return found;
  const { Output, inkGet } = found;
  if (Output.prototype[INK_GET]) return null;
  Output.prototype[INK_GET] = inkGet;
  Output.prototype.get = function get(this: OutputOps): FrameText {
    const shaped = Array.isArray(this.operations) && Number.isInteger(this.width) && Number.isInteger(this.height);
    const frame = shaped ? frameText(this) : null;
    if (frame === null) {
      drawn.ink += 1;
      return inkGet.call(this);
    }
    drawn.fast += 1;
    return frame;
  };
  return null;
}
