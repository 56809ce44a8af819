/**
 * Ink's output stage, made cheap for a screen of side-by-side texts: the dashboard's frames.
 *
 * Ink 6 turns every frame into a grid of styled cells: each written line is split into graphemes
 * with their styles, placed cell by cell, and each row encoded back into text, about 2 µs a cell
 * and nothing kept between frames, so a 120×40 frame costs 8 ms even when nothing changed. When no
 * write overlaps another and none is clipped (all the dashboard ever draws), a row is simply its
 * texts in order with spaces between them; only each text's width in cells is needed (cells.ts,
 * kept across frames). `frameText` computes such a frame and declines (null) any other, which
 * Ink's own code then draws; the cells are the same either way (tests/ui/inkOutput.test.ts checks
 * them on a real terminal emulator). Ink does not export its Output class, so
 * `installFastOutput` finds it beside Ink's entry point (ui/inkOutputClass.ts) and changes nothing
 * when its shape differs.
 */
import { lineOf } from './cells.js';
import { loadInkOutput } from './inkOutputClass.js';

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
    Output = (await loadInkOutput()) as InkOutputClass;
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
