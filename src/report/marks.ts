/**
 * What happens on a timeline row besides its bars: each handoff from report to acceptance (degraded,
 * rejected packets and `waiting` visible as such), escalations (▼) and the developer's answers (●). Pure.
 */
import type { Handoff, Lane, ReportFacts } from '../core/report/facts.js';
import type { Clock } from './clock.js';
import { duration } from './clock.js';
import { el, join, text, type Markup } from './markup.js';
import type { Scale } from './scale.js';

const LINE_Y = 27;

export function rowMarks(facts: ReportFacts, lane: Lane, s: Scale, clock: Clock): Markup {
  const handoffs = facts.handoffs.filter((h) => h.lane === lane.name).map((h) => handoff(facts, h, s, clock));
  const escalations = facts.escalations.filter((e) => e.lane === lane.name).map((e) => {
    const parts: Markup[] = [];
    if (e.class !== null) {
      const x = s.x(e.at);
      parts.push(el('path', { class: 'escalation', 'data-at': e.at, d: `M${r(x - 5)} 0 L${r(x + 5)} 0 L${r(x)} 8 Z` },
        el('title', {}, text(`${clock.time(e.at)} escalation: blocked ${e.class}: ${e.what ?? ''}${e.resolved_at ? ` (resolved ${clock.time(e.resolved_at)})` : ''}`))));
    }
    for (const a of e.answers) {
      parts.push(el('circle', { class: 'answer', 'data-at': a.at, cx: s.x(a.at), cy: 4, r: 3.5 },
        el('title', {}, text(`${clock.time(a.at)} the developer answered: ${a.text}`))));
    }
    return join(parts);
  });
  return el('g', { class: 'marks' }, ...handoffs, ...escalations);
}

function handoff(facts: ReportFacts, h: Handoff, s: Scale, clock: Clock): Markup {
  const from = s.x(h.reported_at);
  const end = h.accepted_at ?? facts.ended_at ?? h.reported_at;
  const to = Math.max(from + 2, s.x(end));
  const kind = [h.state, h.degraded ? 'degraded' : '', h.rejected.length ? 'has-rejected' : '', h.waiting.length ? 'has-waiting' : ''].filter(Boolean).join(' ');
  const label = `${h.degraded ? 'degraded ' : ''}${h.reason ?? 'handoff'}`;
  const tip = `${h.lane} g${h.from_generation ?? '?'} @${h.from_account ?? '?'} → ${h.to_generation === null ? h.state : `g${h.to_generation} @${h.to_account ?? '?'}`}: ` +
    `${label}, reported ${clock.time(h.reported_at)}${h.accepted_at ? `, accepted ${clock.time(h.accepted_at)} (${duration(h.turnaround_ms)})` : ''}` +
    `${h.rejected.length ? `, ${h.rejected.length} packet(s) rejected` : ''}${h.waiting.length ? ', waited for a reset' : ''}`;
  const waits = h.waiting.map((w, i) => {
    const until = h.waiting[i + 1]?.at ?? h.spawned_at ?? end;
    const x = s.x(w.at);
    return el('rect', { class: 'waiting', x, y: LINE_Y - 4, width: Math.max(2, s.x(until) - x), height: 8, fill: 'url(#hatch)' },
      el('title', {}, text(`${clock.time(w.at)} waiting: ${w.why ?? 'no account has headroom'}${w.resets_at ? ` (reset ${clock.time(w.resets_at)})` : ''}`)));
  });
  const rejected = h.rejected.map((x) => {
    const cx = s.x(x.at);
    return el('path', { class: 'rejected', 'data-at': x.at, d: `M${r(cx - 3)} ${LINE_Y - 3} L${r(cx + 3)} ${LINE_Y + 3} M${r(cx - 3)} ${LINE_Y + 3} L${r(cx + 3)} ${LINE_Y - 3}` },
      el('title', {}, text(`${clock.time(x.at)} packet rejected: ${x.reasons.join('; ')}`)));
  });
  return el('g', { class: `handoff ${kind}`, 'data-reported': h.reported_at, 'data-accepted': h.accepted_at ?? '' },
    el('path', { class: 'handoff-span', d: `M${r(from)} ${LINE_Y - 4} L${r(from)} ${LINE_Y + 4} M${r(from)} ${LINE_Y} L${r(to)} ${LINE_Y} M${r(to)} ${LINE_Y - 4} L${r(to)} ${LINE_Y + 4}` },
      el('title', {}, text(tip))),
    ...waits, ...rejected,
    el('text', { x: from + 3, y: LINE_Y + 9, class: 'handoff-label' }, text(label)));
}

function r(n: number): string {
  return String(Math.round(n * 10) / 10);
}
