/** A line's width in cells as Ink counts them, and the ASCII stand-in with the same cells. */
import { describe, expect, it } from 'vitest';
import { asciiStandIn, cutCells, lineOf } from '../../src/ui/cells.js';

describe('lineOf: a line and its width in cells, as Ink counts them', () => {
  it.each([
    ['', 0],
    ['plain text', 10],
    ['trailing   ', 11],
    ['\u001b[32mgreen\u001b[39m', 5],
    ['\u001b[38;2;1;2;3mrgb\u001b[39m \u001b[48;5;9mbg\u001b[49m', 6],
    ['●█░›·…', 6],
    ['漢字', 4],
    ['👍', 2],
    ['a\u0301', 1],
    ['\t', 1],
  ])('%j is %i cells', (text, width) => {
    expect(lineOf(text)?.cells).toBe(width);
    expect(lineOf(text)?.text).toBe(text);
  });

  it('a style left on is closed, so it does not run into the next text', () => {
    expect(lineOf('\u001b[31mred')).toEqual({ text: '\u001b[31mred\u001b[0m', cells: 3 });
    expect(lineOf('\u001b[1;31mred\u001b[22m')?.text).toBe('\u001b[1;31mred\u001b[22m\u001b[0m');
  });

  it.each([
    ['a cursor move', 'a\u001b[2Ab'],
    ['a colon colour', '\u001b[38:5:1mx'],
    ['a broken colour', '\u001b[38;5mx'],
    ['an unknown style', '\u001b[73mx'],
    ['a C1 CSI', 'é\u009b31mx'],
    ['an empty reset (Ink keeps the style on)', '\u001b[9ma\u001b[mb'],
    ['an empty code', '\u001b[;1ma'],
    ['a link', '\u001b]8;;u\u0007x'],
  ])('refuses %s', (_name, text) => {
    expect(lineOf(text)).toBeNull();
  });
});

describe('asciiStandIn: the same cells in printable ASCII', () => {
  it.each([
    ['', ''],
    ['plain text  ', 'plain text  '],
    ['  ● lane-a ███░░░  41%', '  ? lane-a ??????  41%'],
    ['漢字 ok', '???? ok'],
    ['👍 and 👨‍👩‍👧', '?? and ??'],
    ['é', '?'],
  ])('%j → %j', (text, standIn) => {
    expect(asciiStandIn(text)).toBe(standIn);
    // As many cells as Ink gives the text itself.
    expect(lineOf(standIn)?.cells).toBe(lineOf(text)?.cells);
  });

  it.each([
    ['a combining mark after a letter', 'a\u0301'],
    ['a prepended mark before a digit', '\u0600' + '1'],
    ['an escape code', 'a\u001b[31mb'],
    ['a tab', 'tab\there'],
    ['a line break', 'one\ntwo'],
    ['a carriage return', 'one\r\ntwo'],
    ['a C1 control', 'a\u0085b'],
  ])('none for %s', (_name, text) => {
    expect(asciiStandIn(text)).toBeNull();
  });
});

describe('cutCells: a plain line in at most `width` cells', () => {
  it.each<[string, string, number, string]>([
    ['empty', '', 5, ''],
    ['fits', 'plan ready', 10, 'plan ready'],
    ['cut, ends with …', 'plan ready', 6, 'plan …'],
    ['width 0', 'plan', 0, ''],
    ['width 1', 'plan', 1, '…'],
    ['wide characters take two cells', 'PR 漢字 ok', 6, 'PR 漢…'],
    ['a wide character that would reach past the room is left out', 'ab漢字', 4, 'ab…'],
    ['wide characters that fit exactly', '漢字', 4, '漢字'],
    ['an emoji is two cells', 'ok 👍 done', 6, 'ok 👍…'],
    ['trailing spaces count', 'ab   ', 4, 'ab …'],
  ])('%s', (_name, text, width, expected) => {
    const shown = cutCells(text, width);
    expect(shown).toBe(expected);
    expect(lineOf(shown)?.cells ?? 0).toBeLessThanOrEqual(Math.max(0, width));
  });
});
