import { describe, expect, it } from 'vitest';
import type { CapacityState } from '../../src/core/protocol.js';
import type { Phase } from '../../src/core/machineTypes.js';
import { laneColumns } from '../../src/ui/layout.js';
import { laneCells, rowParts, rowText, titleLine, type Cell } from '../../src/ui/laneRow.js';
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

describe('rowParts: the row around its clock cell', () => {
  const c = (text: string, clock = false): Cell => (clock ? { text, tone: null, clock } : { text, tone: null });
  const texts = (cells: Cell[]) => rowParts(cells).map((part) => part.map((cell) => cell.text).join(''));

  it.each([
    ['before, the phase, after', [c('● lane-a '), c('reported 3s  ', true), c(' '), c('PR ready   ')], ['● lane-a ', 'reported 3s  ', ' PR ready']],
    ['the phase last: its spaces go', [c('● lane-a '), c('near 2s     ', true)], ['● lane-a ', 'near 2s']],
    ['no clock cell: one part', [c('a '), c('b  ')], ['a b']],
    ['no cells', [], []],
    ['an empty last report', [c('x '), c('-   ', true), c(' '), c('')], ['x ', '-']],
    ['a blank row', [c('  '), c(' ', true)], []],
    ['only spaces after the phase', [c('x '), c('-', true), c('   ')], ['x ', '-']],
  ] as [string, Cell[], string[]][])('%s', (_name, cells, expected) => {
    expect(texts(cells)).toEqual(expected);
  });

  it('the parts joined are the row text', () => {
    const cells = laneCells(lane('lane-a', { phase: 'reported', phaseSince: NOW - 3_000, last: 'PR ready' }), NOW, laneColumns([lane('lane-a')], NOW, 120), false);
    expect(rowParts(cells).flat().map((cell) => cell.text).join('')).toBe(rowText(cells));
  });

  it('does not change the cells it was given', () => {
    const cells = [c('a '), c('b  ', true)];
    rowParts(cells);
    expect(cells[1]!.text).toBe('b  ');
  });
});
