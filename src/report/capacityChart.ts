/**
 * Under each timeline row: its remaining capacity % (solid) and context % (dashed) over time, with
 * the low and critical thresholds (and the context-pressure line) drawn. Pure.
 */
import type { Lane, Reading, ReportFacts } from '../core/report/facts.js';
import { el, text, type Markup } from './markup.js';
import type { Scale } from './scale.js';

export const CHART_TOP = 42;
const H = 34;

export function capacityChart(facts: ReportFacts, lane: Lane, s: Scale): Markup {
  const t = facts.thresholds;
  const y = (pct: number) => H - (Math.min(100, Math.max(0, pct)) / 100) * H;
  const x0 = s.x(s.t0);
  const x1 = s.x(s.t1);
  const line = (pct: number, cls: string, what: string) =>
    el('line', { class: cls, x1: x0, x2: x1, y1: y(pct), y2: y(pct) }, el('title', {}, text(`${what} ${pct}%`)));
  const last = lane.capacity.findLast((c) => c.remaining_pct !== null);
  return el('g', { class: 'capacity', 'data-readings': lane.capacity.length },
    el('rect', { class: 'chart-frame', x: x0, y: 0, width: x1 - x0, height: H }),
    line(t.capacity_low, 'thr-low', 'capacity low at'),
    line(t.capacity_critical, 'thr-critical', 'capacity critical at'),
    line(t.context_pressure, 'thr-context', 'context pressure at'),
    trace('cap', path(lane.capacity, (c) => c.remaining_pct, s, y)),
    trace('ctx', path(lane.capacity, (c) => c.context_pct, s, y)),
    el('text', { x: 6, y: 21, class: 'chart-label' },
      text(last ? `capacity ${last.remaining_pct}%${last.context_pct !== null ? ` · ctx ${last.context_pct}%` : ''}` : 'capacity: no reading')),
  );
}

function trace(cls: string, d: string): Markup {
  return d === '' ? text('') : el('path', { class: cls, d });
}

/** A line through the readings; a generation change or a missing value starts a new segment. */
function path(readings: readonly Reading[], value: (r: Reading) => number | null, s: Scale, y: (pct: number) => number): string {
  let d = '';
  let prev: Reading | null = null;
  for (const r of readings) {
    const v = value(r);
    if (v === null) {
      prev = null;
      continue;
    }
    const move = prev === null || prev.generation !== r.generation;
    d += `${move ? 'M' : 'L'}${Math.round(s.x(r.at) * 10) / 10} ${Math.round(y(v) * 10) / 10}`;
    prev = r;
  }
  return d;
}
