/**
 * `swarm report --html`: one self-contained page — inline CSS and SVG, no fetch, no external
 * script; readable with JavaScript off (SVG <title>s are the tooltips). The one inline script only
 * turns those titles into a nicer hover box; the Content-Security-Policy allows that script by its
 * hash and nothing else, so even markup that slipped past escaping could not run. Pure.
 */
import { createHash } from 'node:crypto';
import type { ReportFacts } from '../core/report/facts.js';
import { dollars } from '../core/ledger/ledger.js';
import { clockIn } from './clock.js';
import { el, text, trusted, type Markup } from './markup.js';
import { spendSection, tables } from './tables.js';
import { needsYou, results } from './results.js';
import { timeline } from './timeline.js';
import { CSS, HOVER_SCRIPT, PALETTE } from './style.js';

export interface PageOptions {
  /** Paths under this folder are shown relative to it. */
  relativeTo?: string | undefined;
  /** IANA zone for the clock labels; the runtime's own when unset. */
  timeZone?: string | undefined;
  /** Where a saved pane log (plan-relative path) is linked from the page; null or unset: not linked. */
  logHref?: (path: string) => string | null;
}

export function renderReportPage(facts: ReportFacts, options: PageOptions = {}): string {
  const clock = clockIn(options.timeZone, Date.parse(facts.started_at ?? ''));
  const vendors = [...new Set(facts.lanes.flatMap((l) => l.generations.map((g) => g.vendor ?? '')))].sort();
  const colours = new Map(vendors.map((v, i) => [v, v === '' ? '#9e9e9e' : (PALETTE[i % PALETTE.length] ?? '#9e9e9e')]));
  const rel = (path: string | null) => {
    if (!path) return '';
    const base = options.relativeTo;
    return base && path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
  };
  const hash = createHash('sha256').update(HOVER_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'`;
  const page = el('html', { lang: 'en' },
    el('head', {},
      el('meta', { charset: 'utf-8' }),
      el('meta', { 'http-equiv': 'Content-Security-Policy', content: csp }),
      el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      el('title', {}, text(`swarm report — plan ${facts.plan}`)),
      el('style', {}, trusted(CSS))),
    el('body', {},
      el('h1', {}, text(`swarm report — plan ${facts.plan}`)),
      summary(facts, clock),
      needsYou(facts, clock),
      results(facts, options.logHref ?? (() => null)),
      legend(colours),
      el('div', { class: 'scroll' }, timeline(facts, clock, colours)),
      spendSection(facts, clock),
      ...tables(facts, clock, rel),
      el('div', { id: 'tip', hidden: true }),
      el('script', {}, trusted(HOVER_SCRIPT))));
  return `<!doctype html>\n${page.html}\n`;
}

function summary(facts: ReportFacts, clock: ReturnType<typeof clockIn>): Markup {
  const s = facts.summary;
  const o = facts.outcome;
  const run = typeof facts.run === 'number' ? facts.runs.find((r) => r.run === facts.run) : undefined;
  const outcome = o.state === 'done' ? 'plan done' : o.state === 'stopped_short' ? `stopped short: ${o.why ?? 'no reason recorded'}` : run?.outcome === 'down' ? 'ended by swarm down' : 'not finished';
  const runText = facts.run === 'all' ? `all ${facts.runs.length}` : facts.run === null ? '—' : `${facts.run} of ${facts.runs.length}`;
  const items: Array<[string, string]> = [
    ['plan', facts.plan],
    ['run', runText],
    ['started', facts.started_at ? clock.dateTime(facts.started_at) : '—'],
    ['ended', facts.ended_at ? clock.dateTime(facts.ended_at) : '—'],
    ['outcome', outcome],
    ['lanes done', `${s.lanes_done} of ${s.lanes}`],
    ['handoffs', `${s.handoffs}${s.degraded ? ` (${s.degraded} degraded)` : ''}${s.rejected ? `, ${s.rejected} packet(s) rejected` : ''}`],
    ['escalations', `${s.escalations}${s.answered ? ` (${s.answered} answered)` : ''}`],
    ['accounts used', s.accounts.join(', ') || '—'],
    ['spent', s.spent_usd === null ? '—' : dollars(s.spent_usd)],
  ];
  return el('p', { class: `summary outcome-${o.state}` },
    ...items.map(([k, v]) => el('span', { class: 'item', 'data-key': k }, el('b', {}, text(`${k}: `)), text(v))),
    el('span', { class: 'item' }, text(`times in local time (${clock.zone})`)));
}

function legend(colours: ReadonlyMap<string, string>): Markup {
  const items = [...colours].map(([vendor, colour]) =>
    el('span', { class: 'key' }, el('svg', { width: 12, height: 12, 'aria-hidden': 'true' }, el('rect', { width: 12, height: 12, rx: 2, fill: colour })), text(` ${vendor || 'vendor unknown'}`)));
  return el('p', { class: 'legend' }, ...items,
    el('span', { class: 'key' }, text('▼ escalation · ● developer answer · ├─┤ handoff, report → acceptance · ✕ packet rejected · hatched: waiting for a reset · solid line: capacity %, dashed: context %')));
}
