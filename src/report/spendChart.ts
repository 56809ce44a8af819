/**
 * The night's spend over time (SPEC 10.7): the run's cumulative cost as a step line — the agents'
 * figures are cumulative and hold until their next report, so the cost rises in steps, never slopes —
 * with a point at each change. On the timeline's time axis (its width and scaleOf), so a moment
 * stands at the same x in both. Only times and numbers are drawn: nothing an agent wrote. The scale is
 * on the root (`data-t0`/`data-t1` ms ↔ `data-x0`/`data-x1` px; `data-y0` px of $0, `data-y1` px of
 * `data-max` USD) so a reader — or a test in a browser — can check each point. Pure.
 */
import type { ReportFacts } from '../core/report/facts.js';
import { dollars } from '../core/ledger/ledger.js';
import type { Clock } from './clock.js';
import { ticks } from './clock.js';
import { el, fmt, join, text, type Markup } from './markup.js';
import { GEOMETRY, scaleOf } from './timeline.js';

const TOP = 14;
const PLOT = 120;
const AXIS = 18;

export function spendChart(facts: ReportFacts, clock: Clock): Markup {
  const points = facts.spend.cumulative;
  if (points.length === 0) return el('p', { class: 'empty' }, text('No agent told a cost: no spend to chart.'));
  const g = GEOMETRY;
  const s = scaleOf(facts);
  const [x0, x1] = [s.x(s.t0), s.x(s.t1)];
  const [y0, y1] = [TOP + PLOT, TOP];
  const max = Math.max(...points.map((p) => p.cost_usd));
  // A night whose every figure is $0 is drawn flat on the baseline, not divided by zero.
  const y = (usd: number) => (max > 0 ? y0 - (usd / max) * PLOT : y0);
  const height = y0 + AXIS;
  // From $0 at the start, level until each report, up to its figure there; level again to the end.
  const d = `M${fmt(x0)} ${fmt(y0)}${points.map((p) => `H${fmt(s.x(p.at))}V${fmt(y(p.cost_usd))}`).join('')}H${fmt(x1)}`;
  // The last point is the night's total (spend.ts always keeps it).
  const total = dollars(points[points.length - 1]!.cost_usd);
  return el('svg', {
    xmlns: 'http://www.w3.org/2000/svg', class: 'spend', width: g.width, height, viewBox: `0 0 ${g.width} ${height}`,
    role: 'img', 'aria-label': `cumulative spend over the night: ${total} in all`,
    // Dollars as strings: a number attribute is rounded to a pixel's tenth (markup.ts fmt).
    'data-t0': s.t0, 'data-t1': s.t1, 'data-x0': x0, 'data-x1': x1, 'data-y0': y0, 'data-y1': y1, 'data-max': String(max),
  },
  el('text', { x: 6, y: TOP + 10, class: 'spend-total' }, text(`spent ${total}`)),
  el('text', { x: 6, y: TOP + 24, class: 'chart-label' }, text('cumulative, over the night')),
  el('g', { class: 'axis' },
    ...ticks(s.t0, s.t1).map((t) => join([
      el('line', { x1: s.x(t), x2: s.x(t), y1: y1, y2: y0, class: 'tick' }),
      el('text', { x: s.x(t), y: height - 4, class: 'tick-label', 'text-anchor': 'middle' }, text(clock.time(t))),
    ])),
    level('spend-base', x0, x1, y0, dollars(0)),
    level('spend-max', x0, x1, y1, dollars(max))),
  el('path', { class: 'spend-line', d }),
  el('g', { class: 'pts' }, ...points.map((p) => el('circle', { class: 'pt', 'data-at': p.at, 'data-cost': String(p.cost_usd), cx: s.x(p.at), cy: y(p.cost_usd), r: 2.5 },
    el('title', {}, text(`${clock.time(p.at)} ${dollars(p.cost_usd)} spent so far`))))));
}

/** A level across the chart, labelled with its dollars in the label column. */
function level(cls: string, x0: number, x1: number, at: number, label: string): Markup {
  return el('g', { class: cls },
    el('line', { x1: x0, x2: x1, y1: at, y2: at }),
    el('text', { x: x0 - 6, y: at + 4, 'text-anchor': 'end', class: 'tick-label' }, text(label)));
}
