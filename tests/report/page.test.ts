import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE, writeNight } from '../../bench/night.mjs';
import { readReportInput } from '../../src/adapters/reportInput.js';
import { dollars } from '../../src/core/ledger/ledger.js';
import { buildFacts } from '../../src/core/report/facts.js';
import { MAX_POINTS } from '../../src/core/report/spend.js';
import { renderReportPage } from '../../src/report/page.js';
import { ROOT, tempDir } from '../helpers/swarm.js';

const POOL = { vendors: new Map([['sim-a1', 'anthropic-sim'], ['sim-a2', 'anthropic-sim'], ['sim-a3', 'anthropic-sim'], ['sim-o1', 'openai-sim'], ['sim-o2', 'openai-sim'], ['sim-o3', 'openai-sim']]), thresholds: { low: 25, critical: 10, contextPressure: 60 } };
const count = (html: string, pattern: RegExp) => [...html.matchAll(new RegExp(pattern, 'g'))].length;
/** The body rows of the table in <section id=…>. */
const tableRows = (html: string, id: string) => {
  const section = new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  return count(/<tbody>[\s\S]*<\/tbody>/.exec(section)?.[0] ?? '', /<tr>/);
};
/** The markup of one timeline row. */
const row = (html: string, lane: string) => {
  const start = html.indexOf(`<g class="row" data-lane="${lane}"`);
  const next = html.indexOf('<g class="row"', start + 1);
  return html.slice(start, next < 0 ? html.indexOf('</svg>', start) : next);
};

describe('the page of the shipped demo run', () => {
  const facts = buildFacts(readReportInput(join(ROOT, 'tests', 'fixtures', 'report', 'demo'), 'plans/demo', POOL));
  const html = renderReportPage(facts, { relativeTo: '/repo', timeZone: 'Europe/Berlin' });

  it('is one self-contained page: no fetch, one inline script allowed by its hash', () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).not.toMatch(/\b(src|href)=/);
    expect(html).not.toMatch(/url\((?!#hatch\))/);
    expect(count(html, /<script/)).toBe(1);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; [^"]*script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;">/);
  });

  it('has a timeline row per lane and the lead, a bar per generation labelled with its account, coloured by vendor', () => {
    expect([...html.matchAll(/<g class="row" data-lane="([^"]+)" data-role="(\w+)"/g)].map((m) => [m[1], m[2]])).toEqual([
      ['lead', 'lead'], ['lane-a', 'lane'], ['lane-b', 'lane'], ['lane-c', 'lane'],
    ]);
    expect(count(html, /<g class="gen /)).toBe(6);
    const a = row(html, 'lane-a');
    expect(a).toContain('>g1 @sim-a2</text>');
    expect(a).toContain('>g2 @sim-o2</text>');
    const fills = [...a.matchAll(/<rect [^>]*fill="(#[0-9a-f]+)"/g)].map((m) => m[1]);
    expect(fills).toHaveLength(2);
    expect(fills[0]).not.toBe(fills[1]); // anthropic-sim, then openai-sim
    expect(row(html, 'lead')).toContain('lead-b g2 @sim-o3 (openai-sim)');
  });

  it('draws the handoffs, the epochs, the capacity with its thresholds, in local time', () => {
    expect(count(html, /<g class="handoff accepted"/)).toBe(2);
    expect(row(html, 'lane-a')).toContain('>capacity_low</text>');
    expect([...html.matchAll(/<g class="epoch" data-epoch="(\d)">/g)].map((m) => m[1])).toEqual(['1', '2']);
    expect(html).toContain('>epoch 2 · lead-b</text>');
    expect(count(html, /<line class="thr-low"/)).toBe(4);
    expect(count(html, /<line class="thr-critical"/)).toBe(4);
    expect(count(html, /<path class="cap" d="M/)).toBe(4);
    expect(html).toContain('local time (UTC+01:00)');
    expect(html).toContain('2026-12-01 12:58:23'); // 11:58:23Z in Berlin
  });

  it('has the summary and the tables: handoffs with packet paths, no escalations, every gate', () => {
    expect(html).toMatch(/<b>outcome: <\/b>plan done/);
    expect(html).toMatch(/<b>lanes done: <\/b>3 of 3/);
    expect(html).toMatch(/<b>accounts used: <\/b>sim-a1, sim-a2, sim-a3, sim-o1, sim-o2, sim-o3/);
    expect(tableRows(html, 'handoffs')).toBe(2);
    expect(html).toContain('<code>plans/demo/analysis_results/handoff/lane-a-g1-20261201T115830Z.yaml</code>');
    expect(tableRows(html, 'gates')).toBe(3);
    expect(html).toContain('<code>grep -qx &#39;hello from lane-a&#39; greeting.txt</code>');
    expect(html).toContain('<p class="empty">No escalations.</p>');
    expect(tableRows(html, 'lanes')).toBe(4);
  });
});

describe('the page of a generated night (a lead and 64 lanes × 8 generations)', () => {
  const t = tempDir('swarm-night-');
  afterAll(() => t.cleanup());
  const night = writeNight(t.dir, { hostile: true, usage: true });
  const facts = buildFacts(readReportInput(t.dir, 'plans/night', POOL));
  const html = renderReportPage(facts, { relativeTo: t.dir, timeZone: 'UTC' });

  it('comes from about 10,000 journal lines and stays under 2 MB', () => {
    expect(night.journalLines).toBeGreaterThan(9000);
    expect(Buffer.byteLength(html)).toBeLessThan(2 * 1024 * 1024);
  });

  it('has 65 rows, a bar per generation, every kind of handoff and mark, and full tables', () => {
    expect(count(html, /<g class="row" /)).toBe(65);
    expect(count(html, /<g class="gen /)).toBe(64 * 8 + 3);
    expect(count(html, /<g class="gen end-stopped"/)).toBe(1);
    expect(count(html, /<g class="handoff /)).toBe(64 * 7 + 1 + 2); // 7 a lane, lane-11 stopped at its 8th, the lead handed over and was taken over
    expect(count(html, /<g class="handoff accepted degraded"/)).toBe(2); // lane-03 lost its pane; the lead was taken over
    expect(count(html, /<g class="handoff accepted has-rejected"/)).toBe(1);
    expect(count(html, /<g class="handoff accepted has-waiting"/)).toBe(1);
    expect(count(html, /<g class="handoff stopped"/)).toBe(1);
    expect(count(html, /<path class="rejected"/)).toBe(1);
    expect(count(html, /<rect class="waiting"/)).toBe(1);
    expect(count(html, /<path class="escalation"/)).toBe(1);
    expect(count(html, /<circle class="answer"/)).toBe(1);
    expect([...html.matchAll(/<g class="epoch" data-epoch="(\d)">/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
    expect(tableRows(html, 'handoffs')).toBe(facts.handoffs.length);
    expect(tableRows(html, 'escalations')).toBe(1);
    expect(tableRows(html, 'gates')).toBe(64); // one a lane, none for lane-11 (stopped), two for lane-13 (failed, then passed)
    expect(html).toMatch(/<b>outcome: <\/b>stopped short: lane-11 is stopped/);
  });

  it('has the night\'s spend: the chart\'s points, a row per generation that told its usage, the sums, the total', () => {
    expect(count(html, /<svg [^>]*class="spend"/)).toBe(1);
    expect(count(html, /<circle class="pt" /)).toBe(MAX_POINTS);
    const spend = /<section id="spend">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    const generations = spend.slice(spend.indexOf('<table><thead>'));
    expect(count(/<tbody>[\s\S]*<\/tbody>/.exec(generations)?.[0] ?? '', /<tr>/)).toBe(facts.spend.generations.length);
    expect(facts.spend.generations.length).toBeGreaterThan(500);
    expect(count(spend, /<table id="spend-lanes" class="sums">/)).toBe(1);
    expect(html).toContain(`<b>spent: </b>${dollars(facts.summary.spent_usd!)}</span>`);
  });

  it('escapes everything an agent wrote: reports, packet fields, escalations, answers, lane names', () => {
    // HOSTILE went into lane-01's report and packet, lane-09's escalation and its answer; lane 2 is named lane-<b>02</b>.
    expect(count(html, /<script/)).toBe(1);
    expect(count(html, /<\/svg>/)).toBe(count(html, /<svg[\s>]/));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>02</b>');
    expect(html).toContain('lane-&lt;b&gt;02&lt;/b&gt;');
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const escaped = '&lt;script&gt;document.body.dataset.pwned=&#39;script&#39;&lt;/script&gt;&lt;/svg&gt;&lt;img src=x onerror=&quot;document.body.dataset.pwned=&#39;img&#39;&quot;&gt; &quot;quotes&quot; &#39;single&#39; red';
    expect(count(html, new RegExp(escaped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))).toBeGreaterThanOrEqual(4);
    expect(HOSTILE).toContain('<script>');
  });
});

describe('the reviews table (SPEC 10.6)', () => {
  const e = (time: string, event: string, more: Record<string, unknown>) => ({ ts: `2025-06-15T${time}Z`, type: 'delegation' as const, event, lane: 'lane-a', generation: 1, epoch: 1, ...more });
  const journal = [
    e('09:00:00.000', 'lane_started', { account: 'sim-a1' }),
    e('09:10:05.000', 'review_requested', { round: 1 }),
    e('09:10:06.000', 'reviewer_leased', { round: 1, reviewer_generation: 1, account: 'sim-o1' }),
    e('09:12:00.000', 'review_verdict', { round: 1, reviewer_generation: 1, account: 'sim-o1', verdict: 'changes', what: '<script>alert(1)</script> add a test' }),
  ];
  const html = renderReportPage(buildFacts({ plan: 'p', journal, inbox: [], lead: null, packets: new Map(), ...POOL }), { relativeTo: '/repo', timeZone: 'UTC' });

  it('has a row a round, the reviewer with its vendor, and the changes asked for as text', () => {
    expect(tableRows(html, 'reviews')).toBe(1);
    const section = /<section id="reviews">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    expect(section).toContain('g1 @sim-o1/openai-sim');
    expect(section).toContain('&lt;script&gt;alert(1)&lt;/script&gt; add a test');
    expect(section).not.toContain('<script>');
  });

  it('says so when no lane was reviewed', () => {
    const demo = renderReportPage(buildFacts(readReportInput(join(ROOT, 'tests', 'fixtures', 'report', 'demo'), 'plans/demo', POOL)), { relativeTo: '/repo', timeZone: 'UTC' });
    expect(demo).toContain('No lane was reviewed.');
  });
});
