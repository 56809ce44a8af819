/**
 * The page's tables: what each generation spent (with the night's spend chart), every handoff, every
 * escalation with the developer's answer verbatim, every gate, every review round, the lanes. Pure.
 */
import type { ReportFacts } from '../core/report/facts.js';
import { dollars, spendText, type Figures, type Tokens } from '../core/ledger/ledger.js';
import type { Clock } from './clock.js';
import { duration } from './clock.js';
import { el, join, Markup, text } from './markup.js';
import { spendChart } from './spendChart.js';

type Cell = Markup | string;

/** A section of one table; `top`, when there are rows, stands between its heading and the table. */
export function table(id: string, caption: string, head: readonly string[], rows: ReadonlyArray<readonly Cell[]>, empty: string, top: readonly Markup[] = []): Markup {
  if (rows.length === 0) return el('section', { id }, el('h2', {}, text(caption)), el('p', { class: 'empty' }, text(empty)));
  return el('section', { id },
    el('h2', {}, text(`${caption} (${rows.length})`)),
    ...top,
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

/**
 * What the night spent (SPEC 10.7): the chart of its cumulative cost, the sums per lane, account and
 * vendor, then a row per generation. Money only through the ledger's formatters: every view shows
 * the same cents.
 */
export function spendSection(facts: ReportFacts, clock: Clock): Markup {
  const at = (ts: string | null) => (ts ? clock.time(ts) : '');
  const said = (f: Figures) => spendText(f) ?? '—';
  const rows = facts.spend.generations.map((g) => [
    g.lane, g.agent === g.lane ? '' : g.agent, `g${g.generation}`, `${g.account ?? '?'}${g.vendor ? `/${g.vendor}` : ''}`,
    at(g.started), at(g.ended), g.end?.replace('_', ' ') ?? '', String(g.turns), tokens(g.tokens),
    g.cost_usd === null ? '—' : dollars(g.cost_usd),
  ]);
  const s = facts.spend;
  const sums = el('div', { class: 'spend-sums' },
    sumTable('spend-lanes', 'by lane', ['lane', 'spent'], s.lanes.map((l) => [l.lane, said(l)])),
    sumTable('spend-accounts', 'by account', ['account', 'vendor', 'spent'], s.accounts.map((a) => [a.account, a.vendor ?? '?', said(a)])),
    sumTable('spend-vendors', 'by vendor', ['vendor', 'spent'], s.vendors.map((v) => [v.vendor, said(v)])));
  return table('spend', 'Spend', ['lane', 'agent', 'gen', 'account', 'started', 'ended', 'how it ended', 'turns', 'tokens', 'cost'], rows,
    'No agent told its usage.', [el('div', { class: 'scroll' }, spendChart(facts, clock)), sums]);
}

/** A small table of sums; none when nothing was summed (no account or vendor known). */
function sumTable(id: string, caption: string, head: readonly string[], rows: ReadonlyArray<readonly string[]>): Markup {
  if (rows.length === 0) return join([]);
  return el('table', { id, class: 'sums' },
    el('caption', {}, text(caption)),
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, text(h))))),
    el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((c) => el('td', {}, text(c)))))));
}

/** `12,000 in / 1,200 out`, and the cache's part when the agent told it. */
function tokens(t: Tokens): string {
  const n = (v: number | null) => (v === null ? '?' : v.toLocaleString('en-US'));
  const io = t.input === null && t.output === null ? '—' : `${n(t.input)} in / ${n(t.output)} out`;
  return t.cache_read === null && t.cache_write === null ? io : `${io} (cache ${n(t.cache_read)} read / ${n(t.cache_write)} written)`;
}
