import { describe, expect, it } from 'vitest';
import type { CapacityState } from '../../src/core/protocol.js';
import type { Phase } from '../../src/core/machineTypes.js';
import { laneColumns } from '../../src/ui/layout.js';
import { laneCells, rowText, rowTexts, titleLine, type Cell } from '../../src/ui/laneRow.js';
import { NOW, lane } from './views.js';

const cellOf = (cells: Cell[], text: RegExp): Cell => cells.find((c) => text.test(c.text))!;

describe('laneCells', () => {
  it.each<[CapacityState, string | null, Cell['tone']]>([
    ['ok', 'capacity=ok 80% @o1', 'green'],
    ['low', 'capacity=low 20% @o1', 'yellow'],
    ['critical', 'capacity=critical 5% @o1', 'red'],
    ['unknown', 'capacity=unknown @o1', 'gray'],
    ['ok', null, 'gray'],
  ])('a %s capacity line (%s) is %s', (state, capacity, tone) => {
    const v = lane('lane-a', { capacity, capacityState: state });
    const cells = laneCells(v, NOW, laneColumns([v], NOW, 120), false);
    expect(cellOf(cells, /^(capacity=|- *$)/).tone).toBe(tone);
  });

  it.each<[Phase, Cell['tone']]>([
    ['near', 'yellow'], ['writing', 'yellow'], ['reported', 'cyan'], ['spawning', 'cyan'], ['accepted', 'green'],
    ['rejected', 'red'], ['waiting', 'yellow'], ['degraded', 'yellow'], ['attention', 'red'], ['stopped', 'red'],
  ])('phase %s is %s', (phase, tone) => {
    const v = lane('lane-a', { phase, phaseSince: NOW });
    const cells = laneCells(v, NOW, laneColumns([v], NOW, 120), false);
    expect(cellOf(cells, new RegExp(`^${phase} 0s`)).tone).toBe(tone);
  });

  it('the row and the titles line up column for column', () => {
    const v = lane('lane-a', { capacity: 'capacity=ok 80% @o1', capacityState: 'ok', contextPct: 41, phase: 'accepted', phaseSince: NOW - 12_000, last: 'plan ready' });
    const cols = laneColumns([v], NOW, 120);
    const row = rowText(laneCells(v, NOW, cols, true));
    const titles = titleLine(cols);
    expect(titles).toBe('    LANE   GEN ACCOUNT   STATE   CAPACITY            CONTEXT     HANDOFF      LAST');
    expect(row).toBe('› ● lane-a g1  o1/openai working capacity=ok 80% @o1 ██░░░░  41% accepted 12s plan ready');
    for (const title of ['GEN', 'ACCOUNT', 'STATE', 'CAPACITY', 'CONTEXT', 'HANDOFF', 'LAST']) {
      expect(row[titles.indexOf(title) - 1]).toBe(' ');
    }
  });

  it('without room for the last report the row ends after the phase', () => {
    const v = lane('lane-a', { last: 'plan ready' });
    const cols = laneColumns([v], NOW, 50);
    expect(cols.last).toBe(0);
    expect(rowText(laneCells(v, NOW, cols, false))).toBe('  ● lane-a g1  o1   working -            - -');
  });
});

describe('rowTexts: a row as the texts Ink lays out', () => {
  const cells: Cell[] = [
    { text: '  ', tone: null }, { text: '●', tone: 'green' }, { text: ' ', tone: null }, { text: 'lane-a ', tone: null },
    { text: 'g1 ', tone: null }, { text: 'working ', tone: 'green' }, { text: '███░░░  41%', tone: null }, { text: ' ', tone: null },
    { text: 'reported 3s ', tone: 'cyan', clock: true }, { text: ' ', tone: null }, { text: 'PR ready   ', tone: null },
  ];
  const texts = (c: readonly Cell[], color = true) => rowTexts(c, color).map((runs) => runs.map((r) => `${r.tone ?? '-'}:${r.text}`));

  it('printable ASCII and the rest in separate texts, short ASCII runs kept with their neighbour, the clock on its own', () => {
    expect(texts(cells)).toEqual([
      ['-:  ', 'green:●', '-: '],
      ['-:lane-a g1 ', 'green:working '],
      ['-:███░░░'],
      ['-:  41% '],
      ['cyan:reported 3s '],
      ['-: PR ready'],
    ]);
  });

  it('the same text as the cells, the last without trailing spaces', () => {
    expect(rowTexts(cells, true).flat().map((r) => r.text).join('')).toBe(rowText(cells));
  });

  it('without colour, neighbouring runs are one', () => {
    expect(texts(cells, false)[1]).toEqual(['-:lane-a g1 working ']);
  });

  it.each([
    ['no cells', [], []],
    ['one empty cell', [{ text: '', tone: null }], []],
    ['only spaces at the end', [{ text: 'a', tone: null }, { text: '   ', tone: null }], [['-:a']]],
    ['a control character with the rest that is not ASCII', [{ text: 'a\tb', tone: null }], [['-:a\tb']]],
    ['wide characters', [{ text: 'plan 漢字 ok', tone: null }], [['-:plan '], ['-:漢字'], ['-: ok']]],
  ] as [string, Cell[], string[][]][])('%s', (_name, input, expected) => {
    expect(texts(input)).toEqual(expected);
  });
});
