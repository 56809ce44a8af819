import { describe, expect, it } from 'vitest';
import { MAX_PREVIEW_LINES, PREFIX_WIDTH, budget, laneColumns, previewSize, scrollTop, type Columns } from '../../src/ui/layout.js';
import { NOW, lane } from './views.js';

const lanes = [
  lane('lane-a', { capacity: 'capacity=ok 80% @o1', phase: 'accepted', phaseSince: NOW - 12_000, generation: 2, last: 'PR open http://localhost/pr/1' }),
  lane('lane-b', { state: 'blocked', blocked: { class: 'permission', what: 'x', source: 'screen' } }, 'anthropic'),
];
/** A row's width: the prefix, seven columns and the six spaces between them, then a space and the last report. */
const total = (c: Columns): number => PREFIX_WIDTH + c.name + c.gen + c.account + c.state + c.capacity + c.context + c.phase + 6 + (c.spend > 0 ? c.spend + 1 : 0) + (c.last > 0 ? c.last + 1 : 0);

describe('laneColumns', () => {
  it.each<[number, Columns]>([
    [200, { name: 6, gen: 3, account: 12, state: 18, capacity: 19, context: 11, spend: 0, phase: 12, last: 108 }],
    [120, { name: 6, gen: 3, account: 12, state: 18, capacity: 19, context: 11, spend: 0, phase: 12, last: 28 }],
    [100, { name: 6, gen: 3, account: 11, state: 18, capacity: 19, context: 8, spend: 0, phase: 12, last: 12 }],
    [80, { name: 6, gen: 3, account: 7, state: 10, capacity: 16, context: 8, spend: 0, phase: 12, last: 7 }],
    [60, { name: 6, gen: 3, account: 4, state: 7, capacity: 12, context: 5, spend: 0, phase: 8, last: 4 }],
    [50, { name: 6, gen: 3, account: 4, state: 7, capacity: 12, context: 5, spend: 0, phase: 8, last: 0 }],
  ])('at %i columns', (width, expected) => {
    const cols = laneColumns(lanes, NOW, width);
    expect(cols).toEqual(expected);
    if (width >= 55) expect(total(cols)).toBe(width);
  });

  it('caps a very long capacity line and lane name', () => {
    const cols = laneColumns([lane('a-very-long-lane-name-indeed', { capacity: `capacity=ok 80% @${'x'.repeat(60)} context=41%` })], NOW, 300);
    expect(cols.name).toBe(20);
    expect(cols.capacity).toBe(44);
  });

  it('reports shorter than 12 characters take no more room than they need; the capacity column is as wide as the line without its context part', () => {
    const short = [lane('lane-a', { capacity: 'capacity=low 20% @o1 context=55%', last: 'plan ready' })];
    expect(laneColumns(short, NOW, 100)).toEqual({ name: 6, gen: 3, account: 9, state: 7, capacity: 20, context: 11, spend: 0, phase: 7, last: 26 });
  });

  it('SPEND (SPEC 10.7) once any lane has a figure: as wide as the widest, and it gives way whole on a narrow terminal', () => {
    const spending = [{ ...lanes[0]!, spend: '$12.48' }, { ...lanes[1]!, spend: null }];
    const wide = laneColumns(spending, NOW, 120);
    expect(wide.spend).toBe(6);
    expect(total(wide)).toBe(120);
    const narrow = laneColumns(spending, NOW, 70);
    expect(narrow.spend).toBe(0);
    expect(total(narrow)).toBe(70);
    expect(laneColumns(spending, NOW, 100)).toMatchObject({ spend: 6 });
  });

  it('with no lanes the titles set the widths', () => {
    expect(laneColumns([], NOW, 120)).toEqual({ name: 4, gen: 3, account: 7, state: 5, capacity: 8, context: 11, spend: 0, phase: 7, last: 64 });
  });
});

describe('budget: never more than rows - 1 lines', () => {
  it.each([
    ['all fits', 40, 2, 12, { lanes: 2, events: 10, legend: 1, preview: 5 }],
    ['few events', 40, 2, 3, { lanes: 2, events: 3, legend: 1, preview: 5 }],
    ['no events: no events block', 40, 2, 0, { lanes: 2, events: 0, legend: 1, preview: 5 }],
    ['64 lanes in 40 rows: lanes scroll, 3 events stay, the preview takes its lines', 40, 64, 50, { lanes: 24, events: 3, legend: 1, preview: 5 }],
    ['64 lanes in 80 rows: every lane in view, the preview in what they leave', 80, 64, 50, { lanes: 64, events: 3, legend: 1, preview: 5 }],
    ['70 lanes in 80 rows: the lanes fill it, no preview', 80, 70, 50, { lanes: 70, events: 3, legend: 1, preview: 0 }],
    ['24 rows', 24, 8, 20, { lanes: 8, events: 5, legend: 1, preview: 3 }],
    ['24 rows, 14 lanes: the preview in what they leave', 24, 14, 0, { lanes: 14, events: 0, legend: 1, preview: 3 }],
    ['24 rows, 18 lanes: they fill it, the preview goes first', 24, 18, 0, { lanes: 18, events: 0, legend: 1, preview: 0 }],
    ['24 rows, 19 lanes: they scroll anyway, the preview takes its lines', 24, 19, 0, { lanes: 14, events: 0, legend: 1, preview: 3 }],
    ['16 rows, 8 lanes: the preview never hides a lane', 16, 8, 0, { lanes: 8, events: 0, legend: 1, preview: 0 }],
    ['12 rows: no preview, the events before the legend', 12, 3, 5, { lanes: 3, events: 3, legend: 0, preview: 0 }],
    ['tiny: 8 rows', 8, 5, 5, { lanes: 3, events: 0, legend: 0, preview: 0 }],
    ['5 rows: only the fixed lines', 5, 5, 5, { lanes: 0, events: 0, legend: 0, preview: 0 }],
    ['no lanes: no preview', 24, 0, 5, { lanes: 0, events: 5, legend: 1, preview: 0 }],
  ])('%s', (_name, rows, laneCount, eventCount, expected) => {
    const b = budget(rows, laneCount, eventCount);
    expect(b).toEqual(expected);
    expect(4 + b.lanes + (b.events > 0 ? b.events + 1 : 0) + b.legend + (b.preview > 0 ? b.preview + 1 : 0)).toBeLessThanOrEqual(Math.max(4, rows - 1));
  });

  it.each([[8, 0], [15, 0], [16, 2], [24, 3], [40, 5], [48, 6], [200, MAX_PREVIEW_LINES]])('previewSize(%i rows) = %i lines', (rows, lines) => {
    expect(previewSize(rows)).toBe(lines);
  });
});

describe('scrollTop', () => {
  it.each([
    ['all in view', 5, 10, 20, 0],
    ['at the start', 0, 64, 31, 0],
    ['selection kept near the middle', 40, 64, 31, 25],
    ['never past the end', 63, 64, 31, 33],
    ['no room', 3, 10, 0, 0],
  ])('%s', (_name, selected, count, visible, expected) => {
    expect(scrollTop(selected, count, visible)).toBe(expected);
  });
});
