/**
 * `swarm report --html` in a real headless browser (Debian's chromium over the DevTools pipe):
 * the page of the shipped demo run and of a hostile generated night renders with no console
 * errors, its timeline rows and bars and its spend chart's points stand where the data (`--json`)
 * says, it reads with JavaScript off, and markup an agent wrote ran nothing.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNight } from '../../bench/night.mjs';
import { dollars } from '../../src/core/ledger/ledger.js';
import type { ReportFacts } from '../../src/core/report/facts.js';
import { openPage, type Page } from '../helpers/chromium.js';
import { ROOT, swarm, tempDir } from '../helpers/swarm.js';

interface Drawn {
  svg: { left: number; top: number; t0: number; t1: number; x0: number; x1: number };
  rows: Array<{ lane: string; top: number; bottom: number; bars: Array<{ generation: number; left: number; right: number; top: number; bottom: number }> }>;
}

const DRAWN = `(() => {
  const svg = document.querySelector('svg.timeline');
  const box = svg.getBoundingClientRect();
  const d = (name) => Number(svg.getAttribute('data-' + name));
  return {
    svg: { left: box.left, top: box.top, t0: d('t0'), t1: d('t1'), x0: d('x0'), x1: d('x1') },
    rows: [...svg.querySelectorAll('g.row')].map((row) => {
      const r = row.querySelector('.row-rule').getBoundingClientRect();
      return {
        lane: row.getAttribute('data-lane'), top: row.getBoundingClientRect().top, bottom: r.top,
        bars: [...row.querySelectorAll('g.gen')].map((g) => {
          const b = g.querySelector('rect').getBoundingClientRect();
          return { generation: Number(g.getAttribute('data-generation')), left: b.left, right: b.right, top: b.top, bottom: b.bottom };
        }),
      };
    }),
  };
})()`;

/** The page's drawing agrees with the facts: rows in order, one band each, bars where the times say. */
function expectDrawnAsData(drawn: Drawn, facts: ReportFacts): void {
  const { svg } = drawn;
  expect(svg.t0).toBe(Date.parse(facts.started_at!));
  expect(svg.t1).toBe(Date.parse(facts.ended_at!));
  const x = (iso: string) => svg.left + svg.x0 + ((Date.parse(iso) - svg.t0) / (svg.t1 - svg.t0)) * (svg.x1 - svg.x0);
  expect(drawn.rows.map((r) => r.lane)).toEqual(facts.lanes.map((l) => l.name));
  drawn.rows.forEach((row, i) => {
    if (i > 0) expect(row.top).toBeGreaterThanOrEqual(drawn.rows[i - 1]!.bottom);
    const lane = facts.lanes[i]!;
    expect(row.bars.map((b) => b.generation)).toEqual(lane.generations.map((g) => g.generation));
    row.bars.forEach((bar, k) => {
      const g = lane.generations[k]!;
      expect(bar.top).toBeGreaterThanOrEqual(row.top);
      expect(bar.bottom).toBeLessThanOrEqual(row.bottom);
      expect(Math.abs(bar.left - x(g.started_at))).toBeLessThan(1.5);
      expect(Math.abs(bar.right - Math.max(x(g.ended_at), bar.left + 2))).toBeLessThan(1.5);
    });
  });
}

interface Spent {
  svg: { left: number; top: number; t0: number; t1: number; x0: number; x1: number; y0: number; y1: number; max: number };
  timeline: { t0: number; t1: number; x0: number; x1: number };
  /** The $0 and the most-spent levels: where each stands (px from the svg's top) and what its label says. */
  levels: Array<{ at: number; label: string }>;
  points: Array<{ at: string; cost: number; x: number; y: number; tip: string | null }>;
}

const SPENT = `(() => {
  const svg = document.querySelector('svg.spend');
  const box = svg.getBoundingClientRect();
  const d = (el, name) => Number(el.getAttribute('data-' + name));
  const line = document.querySelector('svg.timeline');
  const mid = (e) => { const b = e.getBoundingClientRect(); return { x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 }; };
  return {
    svg: { left: box.left, top: box.top, t0: d(svg, 't0'), t1: d(svg, 't1'), x0: d(svg, 'x0'), x1: d(svg, 'x1'), y0: d(svg, 'y0'), y1: d(svg, 'y1'), max: d(svg, 'max') },
    timeline: { t0: d(line, 't0'), t1: d(line, 't1'), x0: d(line, 'x0'), x1: d(line, 'x1') },
    levels: ['.spend-base', '.spend-max'].map((c) => ({ at: mid(svg.querySelector(c + ' line')).y - box.top, label: svg.querySelector(c + ' text').textContent })),
    points: [...svg.querySelectorAll('circle.pt')].map((c) => ({ at: c.getAttribute('data-at'), cost: d(c, 'cost'), ...mid(c), tip: c.getAttribute('data-tip') })),
  };
})()`;

/** The spend chart agrees with the facts: on the timeline's time axis, $0 to the most spent, each point where its time and cost say. */
function expectSpentAsData(drawn: Spent, facts: ReportFacts): void {
  const { svg } = drawn;
  const costs = facts.spend.cumulative;
  const max = Math.max(...costs.map((c) => c.cost_usd));
  expect([svg.t0, svg.t1]).toEqual([Date.parse(facts.started_at!), Date.parse(facts.ended_at!)]);
  expect({ t0: svg.t0, t1: svg.t1, x0: svg.x0, x1: svg.x1 }).toEqual(drawn.timeline);
  expect(svg.max).toBe(max);
  expect(drawn.levels.map((l) => l.label)).toEqual(['$0.00', dollars(max)]);
  expect(Math.abs(drawn.levels[0]!.at - svg.y0)).toBeLessThan(1.5);
  expect(Math.abs(drawn.levels[1]!.at - svg.y1)).toBeLessThan(1.5);
  expect(drawn.points.map((p) => [p.at, p.cost])).toEqual(costs.map((c) => [c.at, c.cost_usd]));
  const x = (iso: string) => svg.left + svg.x0 + ((Date.parse(iso) - svg.t0) / (svg.t1 - svg.t0)) * (svg.x1 - svg.x0);
  const y = (usd: number) => svg.top + svg.y0 - (usd / max) * (svg.y0 - svg.y1);
  for (const p of drawn.points) {
    expect(Math.abs(p.x - x(p.at))).toBeLessThan(1.5);
    expect(Math.abs(p.y - y(p.cost))).toBeLessThan(1.5);
  }
}

describe('swarm report --html in a headless browser', () => {
  let page: Page;
  const t = tempDir('swarm-report-e2e-');
  const demo = join(t.dir, 'demo', 'plans', 'demo');
  const night = join(t.dir, 'night', 'plans', 'night');
  const env = (plan: string) => ({ env: { SWARM_PLAN: plan, TZ: 'UTC' }, cwd: t.dir });

  beforeAll(async () => {
    cpSync(join(ROOT, 'tests', 'fixtures', 'report', 'demo'), demo, { recursive: true });
    writeNight(night, { hostile: true, usage: true });
    page = await openPage();
  }, 60_000);

  afterAll(async () => {
    await page?.close();
    t.cleanup();
  });

  it('reports console errors when there are some (the check below is not blind)', async () => {
    await page.open(`data:text/html,<script>console.error('seen')</script><script>undefined.x</script>`);
    expect(page.errors).toEqual([expect.stringContaining('console.error: seen'), expect.stringContaining('exception: TypeError')]);
  });

  it('the demo run: no console errors, rows and bars where the data says, readable with JavaScript off', async () => {
    const made = await swarm(['report', '--html'], env(demo));
    expect(made.code, made.stderr).toBe(0);
    const facts = JSON.parse((await swarm(['report', '--json'], env(demo))).stdout) as ReportFacts;
    await page.open(`file://${join(demo, 'analysis_results', 'report.html')}`);
    expect(page.errors).toEqual([]);
    expectDrawnAsData(await page.evaluate<Drawn>(DRAWN), facts);
    expect(await page.evaluate<number>("document.querySelectorAll('svg.timeline [data-tip]').length")).toBeGreaterThan(10); // the hover script ran

    const shot = await page.screenshot();
    expect(shot.subarray(1, 4).toString()).toBe('PNG');

    await page.scripts(false);
    await page.open(`file://${join(demo, 'analysis_results', 'report.html')}`);
    expect(await page.evaluate<number>("document.querySelectorAll('svg.timeline title').length")).toBeGreaterThan(10); // native tooltips
    expect(await page.evaluate<number>("document.querySelectorAll('#handoffs tbody tr').length")).toBe(2);
    await page.scripts(true);
  });

  it('two runs in one plan: only the last run is drawn and its timeline ends where it ended; what needs you comes first; a log link opens its log', async () => {
    const plan = join(t.dir, 'runs', 'plans', 'demo');
    cpSync(join(ROOT, 'tests', 'fixtures', 'report', 'demo'), plan, { recursive: true });
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ type: 'observation', generation: null, epoch: 3, ...o })}\n`;
    appendFileSync(join(plan, 'journal.jsonl'), [
      line({ ts: '2026-12-01T12:10:00.000Z', event: 'run_started', lane: null, run: 2, heads: {} }),
      line({ ts: '2026-12-01T12:10:01.000Z', type: 'delegation', event: 'lane_started', lane: 'lane-a', generation: 1, account: 'sim-a3' }),
      line({ ts: '2026-12-01T12:10:05.000Z', type: 'intervention', event: 'escalation', lane: 'lane-a', generation: 1, class: 'decision', what: 'which greeting?' }),
      line({ ts: '2026-12-01T12:11:00.000Z', type: 'intervention', event: 'swarm_down', lane: null, panes: 2, leases: 1 }),
      line({ ts: '2026-12-01T12:30:00.000Z', event: 'agent_exited', lane: 'lane-a', generation: 1, paneId: '%2', status: 0, last_lines: [] }),
    ].join(''));
    mkdirSync(join(plan, '.swarm', 'logs', 'run-2'), { recursive: true });
    writeFileSync(join(plan, '.swarm', 'logs', 'run-2', 'lane-a-g1.log'), 'lane-a g1: the greeting is still to be chosen\n');
    const made = await swarm(['report', '--html'], env(plan));
    expect(made.code, made.stderr).toBe(0);
    const facts = JSON.parse((await swarm(['report', '--json'], env(plan))).stdout) as ReportFacts;
    expect([facts.run, facts.ended_at]).toEqual([2, '2026-12-01T12:11:00.000Z']);
    await page.open(`file://${join(plan, 'analysis_results', 'report.html')}`);
    expect(page.errors).toEqual([]);
    const drawn = await page.evaluate<Drawn>(DRAWN);
    expect(drawn.rows.map((r) => r.lane)).toEqual(['lane-a']); // run 1's lead, lane-b and lane-c are not drawn
    expectDrawnAsData(drawn, facts);
    expect(await page.evaluate<number>("document.querySelectorAll('#handoffs tbody tr').length")).toBe(0);
    const first = await page.evaluate<string>("[...document.querySelectorAll('body > section, body > div, body > p')].map((e) => e.id || e.className).join(' ')");
    expect(first.indexOf('needs-you')).toBeLessThan(first.indexOf('scroll'));
    expect(await page.evaluate<string>("document.querySelector('#needs-you').textContent")).toContain('which greeting?');
    const href = await page.evaluate<string>("document.querySelector('#results a.log').href");
    await page.open(href);
    expect(await page.evaluate<string>('document.body.textContent')).toContain('the greeting is still to be chosen');
  });

  it('a hostile night: the markup agents wrote shows as text and ran nothing', async () => {
    const made = await swarm(['report', '--html'], env(night));
    expect(made.code, made.stderr).toBe(0);
    const html = readFileSync(join(night, 'analysis_results', 'report.html'), 'utf8');
    expect(html.length).toBeLessThan(2 * 1024 * 1024);
    await page.open(`file://${join(night, 'analysis_results', 'report.html')}`);
    // A script that had been let in would have run, or been refused by the CSP — an error either way.
    expect(page.errors).toEqual([]);
    expect(await page.evaluate<string | null>('document.body.dataset.pwned ?? null')).toBeNull();
    expect(await page.evaluate<number>('document.scripts.length')).toBe(1);
    expect(await page.evaluate<number>("document.querySelectorAll('img, iframe, object, embed').length")).toBe(0);
    expect(await page.evaluate<number>("document.querySelectorAll('svg.timeline g.row').length")).toBe(65);
    const escalation = await page.evaluate<string>("document.querySelector('#escalations tbody').textContent");
    expect(escalation).toContain("<script>document.body.dataset.pwned='script'</script></svg><img src=x");
    expect(await page.evaluate<string>("document.querySelector('[data-lane=\"lane-<b>02</b>\"] .lane-name').textContent")).toBe('lane-<b>02</b>');
    const facts = JSON.parse((await swarm(['report', '--json'], env(night))).stdout) as ReportFacts;
    expectDrawnAsData(await page.evaluate<Drawn>(DRAWN), facts);
  });

  it('a night with usage: the spend chart\'s points stand where --json\'s spend.cumulative says, each with its tooltip', async () => {
    const made = await swarm(['report', '--html'], env(night));
    expect(made.code, made.stderr).toBe(0);
    const facts = JSON.parse((await swarm(['report', '--json'], env(night))).stdout) as ReportFacts;
    expect(facts.spend.cumulative.length).toBeGreaterThan(100);
    await page.open(`file://${join(night, 'analysis_results', 'report.html')}`);
    expect(page.errors).toEqual([]);
    const drawn = await page.evaluate<Spent>(SPENT);
    expectSpentAsData(drawn, facts);
    const last = facts.spend.cumulative.at(-1)!;
    expect(drawn.points.at(-1)!.tip).toBe(`${last.at.slice(11, 19)} ${dollars(last.cost_usd)} spent so far`); // the hover script took it (TZ=UTC)
    expect(await page.evaluate<number>("document.querySelectorAll('#spend > table tbody tr').length")).toBe(facts.spend.generations.length);
    expect(await page.evaluate<string>("document.querySelector('[data-key=spent]').textContent")).toBe(`spent: ${dollars(facts.summary.spent_usd!)}`);
  });
});
