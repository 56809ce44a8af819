/**
 * The dashboard's output stage against Ink's own: the same writes given to Ink's Output class, its
 * `get()` and `frameText` must put the same characters with the same styles in every cell of a real
 * terminal emulator (@xterm/headless). Random frames from a fixed seed cover colours, wide and
 * combining characters, emoji, tabs, multi-line writes, transformers, writes off the frame; the
 * frames `frameText` declines (clips, overlaps, unknown escape codes) are Ink's to draw.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import xterm from '@xterm/headless';
import { beforeAll, describe, expect, it } from 'vitest';
import { lineOf } from '../../src/ui/cells.js';
import { frameText, inkOutput, type InkOutputClass, type OutputOps, type FrameText } from '../../src/ui/inkOutput.js';

let Output: InkOutputClass;
let inkGet: (this: OutputOps) => FrameText;

beforeAll(async () => {
  const found = await inkOutput();
  if (typeof found === 'string') throw new Error(found);
  ({ Output, inkGet } = found);
});

type Op =
  | { type: 'write'; x: number; y: number; text: string; transform?: 'yellow' | 'upper' }
  | { type: 'clip'; x1: number; x2: number }
  | { type: 'unclip' };

const TRANSFORMS = {
  yellow: (line: string) => `\u001b[33m${line}\u001b[39m`,
  upper: (line: string) => line.toUpperCase(),
};

function build(width: number, height: number, ops: readonly Op[]) {
  const out = new Output({ width, height });
  for (const op of ops) {
    if (op.type === 'write') out.write(op.x, op.y, op.text, { transformers: op.transform ? [TRANSFORMS[op.transform]] : [] });
    else if (op.type === 'clip') out.clip({ x1: op.x1, x2: op.x2 });
    else out.unclip();
  }
  return out;
}

/** Every cell of the first `height` rows as a terminal shows it: character, width, colours, attributes. */
async function cells(text: string, width: number, height: number): Promise<string[]> {
  const term = new xterm.Terminal({ cols: width + 8, rows: height + 2, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(text.replaceAll('\n', '\r\n'), resolve));
  const rows: string[] = [];
  const cell = term.buffer.active.getNullCell();
  for (let y = 0; y < height; y += 1) {
    const line = term.buffer.active.getLine(y)!;
    const row: string[] = [];
    for (let x = 0; x < width + 8; x += 1) {
      line.getCell(x, cell);
      row.push([cell.getChars() || ' ', cell.getWidth(), cell.getFgColorMode(), cell.getFgColor(), cell.getBgColorMode(), cell.getBgColor(),
        cell.isBold(), cell.isDim(), cell.isItalic(), cell.isUnderline(), cell.isBlink(), cell.isInverse(), cell.isInvisible(),
        cell.isStrikethrough(), cell.isOverline()].join(','));
    }
    rows.push(row.join('|'));
  }
  term.dispose();
  return rows;
}

async function compare(width: number, height: number, ops: readonly Op[]): Promise<'fast' | 'declined'> {
  const ours = frameText(build(width, height, ops));
  if (ours === null) return 'declined';
  const ink = inkGet.call(build(width, height, ops));
  expect(ours.height).toBe(ink.height);
  expect(ours.output.split('\n')).toHaveLength(ink.output.split('\n').length);
  expect(await cells(ours.output, width, height)).toEqual(await cells(ink.output, width, height));
  return 'fast';
}

function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick };
}

const WORDS = ['lane-a', 'g2', 'capacity=ok 80% @o1', ' ', '  ', 'context=41%', '●', '◌', '█', '░', '›', '·', '…', '✓', '漢字', 'ｶﾅ', '👍', '❤️', '👨‍👩‍👧', 'é', 'a\u0301', '\t', '1️⃣', '한국어'];
const STYLES: readonly ((s: string) => string)[] = [
  (s) => s,
  (s) => s,
  (s) => `\u001b[32m${s}\u001b[39m`,
  (s) => `\u001b[1m${s}\u001b[22m`,
  (s) => `\u001b[2m\u001b[90m${s}\u001b[39m\u001b[22m`,
  (s) => `\u001b[38;5;208m${s}\u001b[39m`,
  (s) => `\u001b[48;2;10;20;30m${s}\u001b[49m`,
  (s) => `\u001b[4;3;7m${s}\u001b[0m`,
  (s) => `\u001b[31m${s}`, // left open
  (s) => `\u001b[9m${s}\u001b[0m`,
];

function randomLine(r: ReturnType<typeof random>): string {
  const parts: string[] = [];
  for (let i = r.int(0, 4); i > 0; i -= 1) parts.push(r.pick(STYLES)(r.pick(WORDS)));
  return parts.join('');
}

describe('frameText draws the cells Ink draws', () => {
  it('random frames of side-by-side texts (the dashboard kind)', async () => {
    const r = random(20261130);
    let fast = 0;
    for (let n = 0; n < 400; n += 1) {
      const width = r.int(8, 50);
      const height = r.int(1, 6);
      const ops: Op[] = [];
      // Texts in columns that do not overlap, the way Ink lays out a row of boxes.
      for (let y = -1; y <= height; y += 1) {
        let x = r.int(0, 3);
        while (r.next() < 0.8) {
          const text = r.next() < 0.15 ? `${randomLine(r)}\n${randomLine(r)}` : randomLine(r);
          const cells = Math.max(...text.split('\n').map((line) => lineOf(line)?.cells ?? 0));
          if (x + cells > width) break;
          const op: Op = { type: 'write', x, y, text };
          if (r.next() < 0.15) op.transform = r.pick(['yellow', 'upper'] as const);
          if (text !== '') ops.push(op);
          x += cells + r.int(0, 3);
        }
      }
      if ((await compare(width, height, ops)) === 'fast') fast += 1;
    }
    // The comparison must not pass by declining: most of these frames are frameText's to draw.
    expect(fast).toBeGreaterThan(200);
  });

  it('random frames with overlaps, clips and stray writes: drawn the same or left to Ink', async () => {
    const r = random(7);
    const seen = { fast: 0, declined: 0 };
    for (let n = 0; n < 300; n += 1) {
      const width = r.int(4, 30);
      const height = r.int(1, 5);
      const ops: Op[] = [];
      for (let k = r.int(0, 8); k > 0; k -= 1) {
        const roll = r.next();
        if (roll < 0.05) ops.push({ type: 'clip', x1: r.int(0, 5), x2: r.int(5, 20) });
        else if (roll < 0.08) ops.push({ type: 'unclip' });
        else {
          const text = roll < 0.12 ? r.pick(['\u001b[2Kx\u001b]8;;http://x\u0007link\u001b]8;;\u0007', '\u001b[9ma\u001b[mb']) : randomLine(r);
          if (text !== '') ops.push({ type: 'write', x: r.int(-3, width + 3), y: r.int(-2, height + 1), text });
        }
      }
      seen[await compare(width, height, ops)] += 1;
    }
    expect(seen.fast).toBeGreaterThan(50);
    expect(seen.declined).toBeGreaterThan(50);
  });
});

describe('frameText', () => {
  it('an empty frame is empty rows', () => {
    expect(frameText(build(5, 3, []))).toEqual({ output: '\n\n', height: 3 });
  });

  it('texts with the spaces between them, each row without trailing spaces', () => {
    const ops: Op[] = [
      { type: 'write', x: 0, y: 0, text: 'ab  ' },
      { type: 'write', x: 6, y: 0, text: 'cd' },
      { type: 'write', x: 2, y: 1, text: 'e\nf' },
    ];
    expect(frameText(build(10, 3, ops))).toEqual({ output: 'ab    cd\n  e\n  f', height: 3 });
  });

  it('writes out of order in a row are put in place', () => {
    const ops: Op[] = [{ type: 'write', x: 4, y: 0, text: 'late' }, { type: 'write', x: 0, y: 0, text: 'ab' }];
    expect(frameText(build(10, 1, ops))?.output).toBe('ab  late');
  });

  it('a write above the frame is dropped, lines below it are cut', () => {
    const ops: Op[] = [{ type: 'write', x: 0, y: -1, text: 'gone\ngone too' }, { type: 'write', x: 0, y: 1, text: 'kept\ncut' }];
    expect(frameText(build(10, 2, ops))?.output).toBe('\nkept');
  });

  it.each([
    ['a clip', [{ type: 'clip', x1: 0, x2: 3 }, { type: 'write', x: 0, y: 0, text: 'abcdef' }, { type: 'unclip' }]],
    ['an overlap', [{ type: 'write', x: 0, y: 0, text: 'abcd' }, { type: 'write', x: 2, y: 0, text: 'xy' }]],
    ['a text past the right edge', [{ type: 'write', x: 3, y: 0, text: 'abcd' }]],
    ['a text left of the frame', [{ type: 'write', x: -1, y: 0, text: 'ab' }]],
    ['a cursor code', [{ type: 'write', x: 0, y: 0, text: 'a\u001b[2Kb' }]],
    ['a link (OSC 8)', [{ type: 'write', x: 0, y: 0, text: '\u001b]8;;http://x\u0007a\u001b]8;;\u0007' }]],
  ] as [string, Op[]][])('declines %s (Ink draws it)', (_name, ops) => {
    expect(frameText(build(6, 1, ops))).toBeNull();
  });
});

describe('installFastOutput', () => {
  it('a process that installs it draws Ink frames with frameText, none left to Ink', () => {
    const script = `
      const { installFastOutput, drawn } = await import(${JSON.stringify(join(process.cwd(), 'dist', 'ui', 'inkOutput.js'))});
      const why = await installFastOutput();
      const { EventEmitter } = await import('node:events');
      const React = await import('react');
      const { render, Box, Text } = await import('ink');
      const stdout = Object.assign(new EventEmitter(), { columns: 40, rows: 10, write: () => true });
      const ink = render(React.createElement(Box, null, React.createElement(Text, { color: 'green' }, '● lane-a'), React.createElement(Text, null, ' g1')), { stdout, debug: true, patchConsole: false });
      ink.rerender(React.createElement(Text, null, 'again'));
      ink.unmount();
      console.log(JSON.stringify({ why, drawn }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
    const { why, drawn } = JSON.parse(out.trim().split('\n').at(-1)!) as { why: string | null; drawn: { fast: number; ink: number } };
    expect(why).toBeNull();
    expect(drawn.fast).toBeGreaterThanOrEqual(2);
    expect(drawn.ink).toBe(0);
  });
});
