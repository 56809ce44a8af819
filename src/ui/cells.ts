/**
 * A line's width in cells, counted as Ink counts them: grapheme by grapheme, each taking its
 * string-width and at least one cell, escape codes none. The output stage needs it to put lines
 * side by side (inkOutput.ts), and the placeholders Ink lays out instead of lines are as wide as it
 * says (components/Line.tsx). Every line, run and grapheme measured is kept, so a line drawn again
 * on the next frame costs a lookup.
 */
import stringWidth from 'string-width';

/** A written line as it goes into a row: its text (closed, so no style runs on) and width in cells. */
export interface Measured {
  text: string;
  cells: number;
}

/** How many lines, runs and graphemes are kept; past that, each store starts again. */
const KEPT = 8192;
const segmenter = new Intl.Segmenter();

/** `measure` kept for each key it was asked about, up to KEPT keys. */
function kept<V>(measure: (key: string) => V): (key: string) => V {
  const store = new Map<string, V>();
  return (key) => {
    let value = store.get(key);
    if (value === undefined) {
      value = measure(key);
      if (store.size >= KEPT) store.clear();
      store.set(key, value);
    }
    return value;
  };
}

/**
 * A line as it goes into a row, with its width in cells, or null when it holds an escape code other
 * than a colour or text style (Ink's to draw).
 */
export const lineOf = kept(scan);

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

/**
 * At most `width` cells of a plain line (no escape codes), counted as Ink counts them; a cut line ends
 * with `…`. Wide characters (漢字, most emoji) take two cells: a line cut by characters alone would be
 * wider than its room, and Ink would cut it again, itself.
 */
export function cutCells(text: string, width: number): string {
  if (width <= 0) return '';
  const standIn = asciiStandIn(text);
  if (standIn !== null && standIn.length <= width) return text;
  const graphemes = [...segmenter.segment(text)].map(({ segment }) => ({ segment, cells: Math.max(1, widthOf(segment)) }));
  if (graphemes.reduce((sum, g) => sum + g.cells, 0) <= width) return text;
  let cells = 0;
  let out = '';
  for (const g of graphemes) {
    if (cells + g.cells > width - 1) break;
    cells += g.cells;
    out += g.segment;
  }
  return `${out}…`;
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

const runOf = kept(measureRun);

function measureRun(text: string): Run | null {
  if (text.includes('\u009b')) return null;
  let cells = 0;
  for (const { segment } of segmenter.segment(text)) cells += Math.max(1, widthOf(segment));
  const first = segmenter.segment(`a${text}`)[Symbol.iterator]().next().value?.segment;
  const last = [...segmenter.segment(`${text}a`)].at(-1)?.segment;
  return { cells, joinsBefore: first !== 'a', joinsAfter: last !== 'a' };
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

const widthOf = kept((grapheme) => stringWidth(grapheme));

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
