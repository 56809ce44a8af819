/**
 * What the bundle of `swarm up` changes in string-width (scripts/bundleUpPlugins.mjs): its RGI emoji
 * pattern built on first use and tried only on texts with an Emoji code point. Every width must stay
 * what string-width itself says: the dashboard's cells are counted with it (ui/cells.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { ROOT, tempDir } from '../helpers/swarm.js';
import { lazyEmojiPattern, packageDirs } from '../../scripts/bundleUpPlugins.mjs';

type Width = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

const { stringWidthFile } = packageDirs(ROOT);
const temp = tempDir();
afterAll(() => temp.cleanup());

/** The changed string-width as a module of its own (its two imports pointed at the packages' files). */
async function changedStringWidth(): Promise<Width> {
  const changed = lazyEmojiPattern(readFileSync(stringWidthFile, 'utf8'));
  if (changed === null) throw new Error('string-width is not shaped as lazyEmojiPattern expects');
  const from = createRequire(stringWidthFile);
  const source = changed
    .replace("from 'strip-ansi'", `from ${JSON.stringify(pathToFileURL(from.resolve('strip-ansi')).href)}`)
    .replace("from 'get-east-asian-width'", `from ${JSON.stringify(pathToFileURL(from.resolve('get-east-asian-width')).href)}`);
  mkdirSync(temp.dir, { recursive: true });
  const file = join(temp.dir, 'string-width.mjs');
  writeFileSync(file, source);
  return ((await import(pathToFileURL(file).href)) as { default: Width }).default;
}

const texts = [
  '', 'plain', ' trailing  ', '·', '↑↓ select', '› ●', '░░██', 'é', 'e\u0301', '中文', 'ｶﾞ', '한국어', '\u1100\u1161\u11a8',
  '👍', '👍🏽', '👨\u200d👩\u200d👧', '🇫🇷', '🇫', '1\ufe0f\u20e3', '#\ufe0f\u20e3', '1\u20e3', '☺', '☺\ufe0f', '❤', '❤\ufe0f', '©', '©\ufe0f', '™',
  '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '\u001b[31mred\u001b[0m', 'line\r\n', '\t', '\u200b', 'a\u0308\u0301',
];

describe('string-width with its emoji pattern built on first use', () => {
  it.each(texts)('%j is as wide as string-width says', async (text) => {
    const changed = await changedStringWidth();
    expect(changed(text)).toBe(stringWidth(text));
    expect(changed(text, { ambiguousIsNarrow: false })).toBe(stringWidth(text, { ambiguousIsNarrow: false }));
  });

  it('every code point of the symbol and emoji blocks, alone and with VS16, is as wide as string-width says', async () => {
    const changed = await changedStringWidth();
    const differ: string[] = [];
    for (const [from, to] of [[0xa0, 0x3ff], [0x2000, 0x2bff], [0x3000, 0x303f], [0x1f000, 0x1faff]] as const) {
      for (let cp = from; cp <= to; cp += 1) {
        for (const text of [String.fromCodePoint(cp), `${String.fromCodePoint(cp)}\ufe0f`]) {
          if (changed(text) !== stringWidth(text)) differ.push(cp.toString(16));
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('builds no RGI emoji pattern when the module loads', () => {
    const changed = lazyEmojiPattern(readFileSync(stringWidthFile, 'utf8'));
    expect(changed).not.toContain('const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;');
    expect(changed).toContain('rgiEmoji ??= /^\\p{RGI_Emoji}$/v');
  });

  it('leaves a source not shaped as expected alone', () => {
    expect(lazyEmojiPattern('export default (s) => s.length;')).toBeNull();
    expect(lazyEmojiPattern('const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;\nexport const r = rgiEmojiRegex;')).toBeNull();
  });
});
