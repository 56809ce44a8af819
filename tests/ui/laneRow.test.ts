import { describe, expect, it } from 'vitest';
import type { CapacityState } from '../../src/core/protocol/protocol.js';
import type { Phase } from '../../src/machine/types.js';
import { laneColumns } from '../../src/ui/layout.js';
import { laneCells, rowText, titleLine, trimmedCells, type Cell } from '../../src/ui/laneRow.js';
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

describe('trimmedCells: the row without its trailing spaces', () => {
  const c = (text: string): Cell => ({ text, tone: null });
  const texts = (cells: Cell[]) => trimmedCells(cells).map((cell) => cell.text);

  it.each([
    ['spaces in the last cell', [c('● lane-a '), c('PR ready   ')], ['● lane-a ', 'PR ready']],
    ['blank cells at the end go', [c('x '), c('-   '), c(' '), c('')], ['x ', '-']],
    ['spaces inside stay', [c('  a  b  ')], ['  a  b']],
    ['a blank row', [c('  '), c(' ')], []],
    ['no cells', [], []],
  ] as [string, Cell[], string[]][])('%s', (_name, cells, expected) => {
    expect(texts(cells)).toEqual(expected);
  });

  it('does not change the cells it was given', () => {
    const cells = [c('a '), c('b  ')];
    trimmedCells(cells);
    expect(cells[1]!.text).toBe('b  ');
  });
});
