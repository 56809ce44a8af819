/**
 * The timeline (SVG): one row per lane and one for the lead; generations as bars coloured by vendor
 * and labelled with the account; handoffs from report to acceptance; escalations and answers as
 * marks; lead epochs as bands; under each row its capacity and context over time. Pure.
 * The scale is on the root (`data-t0`/`data-t1` ms ↔ `data-x0`/`data-x1` px) so a reader — or a
 * test in a browser — can check that what is drawn stands where the data says.
 */
import type { Lane, ReportFacts } from '../core/report/facts.js';
import type { Clock } from './clock.js';
import { ticks } from './clock.js';
import { capacityChart, CHART_TOP } from './capacityChart.js';
import { el, join, text, type Markup } from './markup.js';
import { rowMarks } from './marks.js';
import type { Scale } from './scale.js';

export const GEOMETRY = { width: 1200, label: 170, right: 16, axis: 30, row: 82, bar: 18 } as const;


export function scaleOf(facts: ReportFacts): Scale {
  const t0 = Date.parse(facts.started_at ?? '') || 0;
  const end = Date.parse(facts.ended_at ?? '') || t0;
  const t1 = end > t0 ? end : t0 + 1000;
  const x0 = GEOMETRY.label;
  const span = GEOMETRY.width - GEOMETRY.right - x0;
  return {
    t0, t1,
    x: (at) => {
      const t = typeof at === 'number' ? at : Date.parse(at);
      const clamped = Math.min(t1, Math.max(t0, Number.isFinite(t) ? t : t0));
      return x0 + ((clamped - t0) / (t1 - t0)) * span;
    },
  };
}

export function timeline(facts: ReportFacts, clock: Clock, colours: ReadonlyMap<string, string>): Markup {
  const g = GEOMETRY;
  const s = scaleOf(facts);
  const height = g.axis + facts.lanes.length * g.row + 4;
  return el('svg', {
    xmlns: 'http://www.w3.org/2000/svg', class: 'timeline', width: g.width, height, viewBox: `0 0 ${g.width} ${height}`,
    role: 'img', 'aria-label': `timeline of ${facts.lanes.length} rows`,
    'data-t0': s.t0, 'data-t1': s.t1, 'data-x0': g.label, 'data-x1': g.width - g.right,
  },
  el('defs', {}, el('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
    el('rect', { width: 3, height: 6, fill: '#b58900' }))),
  epochBands(facts, s, height),
  axis(s, clock, height),
  ...facts.lanes.map((lane, i) => row(facts, lane, i, s, clock, colours)));
}

function epochBands(facts: ReportFacts, s: Scale, height: number): Markup {
  return el('g', { class: 'epochs' }, ...facts.epochs.map((e, i) => {
    const x = s.x(e.from);
    const w = Math.max(1, s.x(e.to) - x);
    return el('g', { class: 'epoch', 'data-epoch': e.epoch },
      el('rect', { x, y: GEOMETRY.axis - 12, width: w, height: height - GEOMETRY.axis + 12, class: i % 2 ? 'band-b' : 'band-a' },
        el('title', {}, text(`epoch ${e.epoch}: ${e.lead} (${e.how})`))),
      el('text', { x: x + 3, y: GEOMETRY.axis - 3, class: 'epoch-label' }, text(`epoch ${e.epoch} · ${e.lead}`)));
  }));
}

function axis(s: Scale, clock: Clock, height: number): Markup {
  const marks = ticks(s.t0, s.t1).map((t) => join([
    el('line', { x1: s.x(t), x2: s.x(t), y1: 10, y2: height, class: 'tick' }),
    el('text', { x: s.x(t), y: 9, class: 'tick-label', 'text-anchor': 'middle' }, text(clock.time(t))),
  ]));
  return el('g', { class: 'axis' }, el('text', { x: 4, y: 9, class: 'zone' }, text(`local time (${clock.zone})`)), ...marks);
}

function row(facts: ReportFacts, lane: Lane, index: number, s: Scale, clock: Clock, colours: ReadonlyMap<string, string>): Markup {
  const g = GEOMETRY;
  const y = g.axis + index * g.row;
  const gens = lane.generations.map((gen) => {
    const x = s.x(gen.started_at);
    const w = Math.max(2, s.x(gen.ended_at) - x);
    const who = `${gen.agent ?? lane.name} g${gen.generation}`;
    const label = `g${gen.generation} @${gen.account ?? '?'}`;
    const tip = `${who} @${gen.account ?? '?'}${gen.vendor ? ` (${gen.vendor})` : ''} ${clock.time(gen.started_at)}–${clock.time(gen.ended_at)} ${gen.end.replace('_', ' ')}`;
    return el('g', { class: `gen end-${gen.end}`, 'data-generation': gen.generation, 'data-account': gen.account ?? '' },
      el('rect', { x, y: 2, width: w, height: g.bar, rx: 2, fill: colours.get(gen.vendor ?? '') ?? '#9e9e9e' }, el('title', {}, text(tip))),
      w >= label.length * 6.2 + 6 ? el('text', { x: x + 4, y: 15, class: 'gen-label' }, text(label)) : join([]));
  });
  const status = `${lane.role === 'lead' ? 'lead · ' : ''}${lane.state} · ${lane.generations.length} gen`;
  return el('g', { class: 'row', 'data-lane': lane.name, 'data-role': lane.role, transform: `translate(0,${y})` },
    el('line', { x1: 0, x2: g.width, y1: g.row - 1, y2: g.row - 1, class: 'row-rule' }),
    el('text', { x: 6, y: 14, class: 'lane-name' }, text(clip(lane.name, 24)), el('title', {}, text(lane.last_report ? `${lane.name}: last report: ${lane.last_report}` : lane.name))),
    el('text', { x: 6, y: 28, class: 'lane-state' }, text(status)),
    ...gens,
    rowMarks(facts, lane, s, clock),
    el('g', { transform: `translate(0,${CHART_TOP})` }, capacityChart(facts, lane, s)));
}

function clip(value: string, max: number): string {
  const chars = [...value];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : value;
}
