import { describe, expect, it } from 'vitest';
import type { InboxRecord } from '../../src/core/protocol/inbox.js';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import { buildFacts } from '../../src/core/report/facts.js';
import { clockIn } from '../../src/report/clock.js';
import { renderReportPage } from '../../src/report/page.js';
import { spendChart } from '../../src/report/spendChart.js';

// A half-hour night (01:00–01:30 UTC): the lead and lane-a on Anthropic accounts, lane-a's reviewer on an
// OpenAI one that tells tokens only. Its cost is $0.10, $0.50, $1.35, then $2.105 at 01:21.
const e = (time: string, event: string, lane: string | null, generation: number | null, more: Record<string, unknown> = {}): JournalEntry =>
  ({ ts: `2026-12-01T${time}Z`, type: 'observation', event, lane, generation, epoch: 1, ...more });
const usage = (time: string, from: string, generation: number, cost: unknown, input: number, more: Partial<InboxRecord> = {}): InboxRecord => ({
  kind: 'usage', ts: `2026-12-01T${time}Z`, from, role: 'lane', account: null, generation, epoch: 1, run: 1,
  session_id: `${from}-g${generation}`, cost_usd: cost as number | null, tokens: { input, output: input / 10, cache_read: null, cache_write: null }, ...more,
} as InboxRecord);
const journal = [
  e('01:00:00', 'lead_claimed', 'lead', 1, { account: 'c2' }),
  e('01:00:01', 'lane_started', 'lead', 1, { account: 'c2' }),
  e('01:00:02', 'lane_started', 'lane-a', 1, { account: 'c1' }),
  e('01:20:00', 'successor_spawned', 'lane-a', 1, { for_generation: 2, account: 'c2' }),
  e('01:20:05', 'packet_accepted', 'lane-a', 2, { account: 'c2', from_generation: 1 }),
  e('01:20:05', 'generation_spent', 'lane-a', 1, { account: 'c1', end: 'handed_off', started: '2026-12-01T01:00:02.000Z', ended: '2026-12-01T01:20:05.000Z' }),
  e('01:30:00', 'lane_result', 'lane-a', 2, { result: 'done' }),
];
const inbox = [
  usage('01:05:00', 'lead', 1, 0.1, 1000, { role: 'lead' }),
  usage('01:10:00', 'lane-a', 1, 0.4, 4000),
  usage('01:15:00', 'lane-a', 1, 1.25, 9000, { tokens: { input: 9000, output: 900, cache_read: 50_000, cache_write: 3000 } }),
  usage('01:21:00', 'lane-a', 2, 0.755, 2000),
  usage('01:22:00', 'lane-a.review', 1, null, 30_000, { role: 'reviewer', account: 'o1' }),
];
const POOL = { vendors: new Map([['c1', 'anthropic'], ['c2', 'anthropic'], ['o1', 'openai']]), thresholds: { low: 25, critical: 10, contextPressure: 60 } };
const factsOf = (records: InboxRecord[]) => buildFacts({ plan: 'p', journal, inbox: records, lead: null, packets: new Map(), ...POOL });
const clock = clockIn('UTC', 0);
const points = (svg: string) => [...svg.matchAll(/<circle class="pt" data-at="([^"]*)" data-cost="([^"]*)" cx="([^"]*)" cy="([^"]*)" r="2.5"><title>([^<]*)<\/title><\/circle>/g)].map((m) => m.slice(1));
/** The markup of <section id=…> (its first </section>: sections are not nested). */
const section = (html: string, id: string) => new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
/** The body rows of the first <table> in `markup` whose open tag matches `open`, as cell texts. */
const rows = (markup: string, open = '<table>') => {
  const at = markup.indexOf(open);
  const body = at < 0 ? '' : (/<tbody>([\s\S]*?)<\/tbody>/.exec(markup.slice(at))?.[1] ?? '');
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]));
};

describe('the spend chart (SPEC 10.7): the night\'s cumulative cost', () => {
  const svg = spendChart(factsOf(inbox), clock).html;

  it('has its scale on the root: the timeline\'s time axis, $0 at the bottom and the most spent at the top', () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="spend" width="1200" height="152" /);
    expect(svg).toContain(`data-t0="${Date.parse('2026-12-01T01:00:00Z')}" data-t1="${Date.parse('2026-12-01T01:30:00Z')}" data-x0="170" data-x1="1184" data-y0="134" data-y1="14" data-max="2.105"`);
    expect(svg).toContain('aria-label="cumulative spend over the night: $2.11 in all"');
  });

  it('a point at each change, where its time and its cost say, told to the cent in its tooltip', () => {
    // x = 170 + (t − 01:00) / 30 min × 1014; y = 134 − cost / 2.105 × 120.
    expect(points(svg)).toEqual([
      ['2026-12-01T01:05:00Z', '0.1', '339', '128.3', '01:05:00 $0.10 spent so far'],
      ['2026-12-01T01:10:00Z', '0.5', '508', '105.5', '01:10:00 $0.50 spent so far'],
      ['2026-12-01T01:15:00Z', '1.35', '677', '57', '01:15:00 $1.35 spent so far'],
      ['2026-12-01T01:21:00Z', '2.105', '879.8', '14', '01:21:00 $2.11 spent so far'],
    ]);
  });

  it('a step line: $0 from the start, level until each report, up to its figure, level to the end', () => {
    expect(svg).toContain('<path class="spend-line" d="M170 134H339V128.3H508V105.5H677V57H879.8V14H1184"></path>');
  });

  it('labels $0, the most spent and the total with the ledger\'s dollars (half up: $2.105 is $2.11)', () => {
    expect(svg).toContain('<g class="spend-base"><line x1="170" x2="1184" y1="134" y2="134"></line><text x="164" y="138" text-anchor="end" class="tick-label">$0.00</text></g>');
    expect(svg).toContain('<g class="spend-max"><line x1="170" x2="1184" y1="14" y2="14"></line><text x="164" y="18" text-anchor="end" class="tick-label">$2.11</text></g>');
    expect(svg).toContain('>spent $2.11</text>');
    expect(svg).toContain('>01:15:00</text>'); // the time axis, in the page's clock
  });

  it('no cost told (tokens only, or nothing): no chart, a line saying so', () => {
    for (const records of [[], inbox.filter((r) => r.kind === 'usage' && r.cost_usd === null)]) {
      expect(spendChart(factsOf(records), clock).html).toBe('<p class="empty">No agent told a cost: no spend to chart.</p>');
    }
  });

  it('all told $0: drawn flat on the baseline, not divided by zero', () => {
    const flat = spendChart(factsOf([usage('01:05:00', 'lane-a', 1, 0, 10)]), clock).html;
    expect(points(flat)).toEqual([['2026-12-01T01:05:00Z', '0', '339', '134', '01:05:00 $0.00 spent so far']]);
    expect(flat).toContain('data-max="0"');
  });

  it('draws only times and numbers: a record\'s time is escaped, a cost that is no number is no point', () => {
    const hostile = spendChart(factsOf([
      ...inbox.slice(0, 1),
      usage('01:06:00', 'lane-a', 1, '<b>9</b>', 10),
      { ...usage('01:07:00', 'lane-a', 1, 0.2, 20), ts: '2026-12-01T01:07:00Z"><script>alert(1)</script>' } as InboxRecord,
    ]), clock).html;
    expect(hostile).not.toContain('<script');
    expect(hostile).not.toContain('<b>');
    expect(points(hostile).map((p) => [p[0], p[1], p[4]])).toEqual([
      ['2026-12-01T01:05:00Z', '0.1', '01:05:00 $0.10 spent so far'],
      ['2026-12-01T01:07:00Z&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;', '0.3', '? $0.30 spent so far'],
    ]);
  });
});

describe('the page\'s spend section', () => {
  const html = renderReportPage(factsOf(inbox), { timeZone: 'UTC' });
  const spend = section(html, 'spend');

  it('stands after the timeline, before the handoffs, with the chart at its top', () => {
    const [timeline, at, handoffs] = ['<svg xmlns="http://www.w3.org/2000/svg" class="timeline"', '<section id="spend">', '<section id="handoffs">'].map((s) => html.indexOf(s)) as [number, number, number];
    expect(timeline).toBeGreaterThan(0);
    expect(at).toBeGreaterThan(timeline);
    expect(handoffs).toBeGreaterThan(at);
    expect(spend).toMatch(/^<h2>Spend \(4\)<\/h2><div class="scroll"><svg [^>]*class="spend"/);
  });

  it('a row per generation: lane, agent when not the lane\'s own, account/vendor, times, how it ended, turns, tokens, cost or —', () => {
    expect(rows(spend, '<table><thead>')).toEqual([
      ['lane-a', '', 'g1', 'c1/anthropic', '01:00:02', '01:20:05', 'handed off', '0', '9,000 in / 900 out (cache 50,000 read / 3,000 written)', '$1.25'],
      ['lane-a', '', 'g2', 'c2/anthropic', '', '', '', '0', '2,000 in / 200 out', '$0.76'],
      ['lane-a', 'lane-a.review', 'g1', 'o1/openai', '', '', '', '0', '30,000 in / 3,000 out', '—'],
      ['lead', '', 'g1', 'c2/anthropic', '', '', '', '0', '1,000 in / 100 out', '$0.10'],
    ]);
  });

  it('sums per lane, account and vendor in the ledger\'s words: cents half up, tokens where no cost was told', () => {
    expect(rows(spend, '<table id="spend-lanes"')).toEqual([['lane-a', '$2.01'], ['lead', '$0.10']]); // 2.005: $2.01, not toFixed's 2.00
    expect(rows(spend, '<table id="spend-accounts"')).toEqual([['c1', 'anthropic', '$1.25'], ['c2', 'anthropic', '$0.86'], ['o1', 'openai', '33k tok']]);
    expect(rows(spend, '<table id="spend-vendors"')).toEqual([['anthropic', '$2.11'], ['openai', '33k tok']]);
  });

  it('the summary line says what the night spent, or — when no agent told a cost', () => {
    expect(html).toContain('<span class="item" data-key="spent"><b>spent: </b>$2.11</span>');
    const none = renderReportPage(factsOf([]), { timeZone: 'UTC' });
    expect(none).toContain('<span class="item" data-key="spent"><b>spent: </b>—</span>');
    expect(section(none, 'spend')).toBe('<h2>Spend</h2><p class="empty">No agent told its usage.</p>');
  });

  it('tokens told but no cost: the tables, and a line for the chart', () => {
    const tokensOnly = section(renderReportPage(factsOf(inbox.slice(4)), { timeZone: 'UTC' }), 'spend');
    expect(tokensOnly).toContain('<p class="empty">No agent told a cost: no spend to chart.</p>');
    expect(tokensOnly).not.toContain('<svg');
    expect(rows(tokensOnly, '<table id="spend-vendors"')).toEqual([['openai', '33k tok']]);
  });
});
