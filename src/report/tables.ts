/** The page's tables: every handoff, every escalation with the developer's answer verbatim, every gate, every review round, the lanes. Pure. */
import type { ReportFacts } from '../core/report/facts.js';
import type { Clock } from './clock.js';
import { duration } from './clock.js';
import { el, Markup, text } from './markup.js';

type Cell = Markup | string;

export function table(id: string, caption: string, head: readonly string[], rows: ReadonlyArray<readonly Cell[]>, empty: string): Markup {
  if (rows.length === 0) return el('section', { id }, el('h2', {}, text(caption)), el('p', { class: 'empty' }, text(empty)));
  return el('section', { id },
    el('h2', {}, text(`${caption} (${rows.length})`)),
    el('table', {},
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, text(h))))),
      el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((c) => el('td', {}, c instanceof Markup ? c : text(c))))))));
}

export const pre = (value: string | null) => (value ? el('pre', {}, text(value)) : text(''));

export function tables(facts: ReportFacts, clock: Clock, rel: (path: string | null) => string): Markup[] {
  const at = (ts: string | null) => (ts ? clock.time(ts) : '');
  const handoffs = facts.handoffs.map((h) => [
    h.lane,
    `g${h.from_generation ?? '?'} @${h.from_account ?? '?'}`,
    h.to_generation === null ? '' : `g${h.to_generation} @${h.to_account ?? '?'}`,
    h.reason ?? '',
    [h.state, h.degraded ? 'degraded' : '', h.rejected.length ? `${h.rejected.length} rejected` : '', h.waiting.length ? 'waited' : ''].filter(Boolean).join(', '),
    at(h.reported_at), at(h.accepted_at), duration(h.turnaround_ms),
    el('code', {}, text(rel(h.packet))),
    pre(h.doing),
  ]);
  const escalations = facts.escalations.map((e) => [
    at(e.at), e.lane ?? '', e.generation === null ? '' : `g${e.generation}`, e.class ?? '(no escalation)', pre(e.what),
    e.answers.length ? el('div', {}, ...e.answers.map((a) => el('blockquote', { class: 'answer-text' }, el('span', { class: 'when' }, text(`${at(a.at)} `)), pre(a.text)))) : '',
    at(e.resolved_at),
  ]);
  const gates = facts.gates.map((g) => [
    g.lane, g.generation === null ? '' : `g${g.generation}`, el('code', {}, text(g.command)), at(g.started_at), at(g.ended_at),
    g.passed === null ? 'running' : g.passed ? 'passed' : 'failed', pre(g.output),
  ]);
  const reviews = facts.reviews.map((r) => [
    r.lane, String(r.round), at(r.requested_at),
    r.reviewers.map((x) => `g${x.generation} @${x.account ?? '?'}${x.vendor ? `/${x.vendor}` : ''}${x.failed ? ` (failed: ${x.failed})` : ''}`).join('; '),
    r.verdict ?? 'under review', pre(r.what), at(r.verdict_at),
  ]);
  const lanes = facts.lanes.map((l) => [
    l.name, l.role, l.state, String(l.generations.length),
    [...new Set(l.generations.map((g) => g.account ?? '?'))].join(', '), pre(l.last_report),
  ]);
  return [
    table('handoffs', 'Handoffs', ['lane', 'from', 'to', 'reason', 'state', 'reported', 'accepted', 'turnaround', 'packet', 'doing'], handoffs, 'No handoffs.'),
    table('escalations', 'Escalations', ['at', 'lane', 'gen', 'class', 'what', 'developer answered (verbatim)', 'resolved'], escalations, 'No escalations.'),
    table('gates', 'Gates', ['lane', 'gen', 'command', 'started', 'ended', 'result', 'output'], gates, 'No gates ran.'),
    table('reviews', 'Reviews', ['lane', 'round', 'asked', 'reviewers', 'verdict', 'changes asked for', 'said'], reviews, 'No lane was reviewed.'),
    table('lanes', 'Lanes', ['name', 'role', 'state', 'generations', 'accounts', 'last report'], lanes, 'No lanes started.'),
  ];
}
