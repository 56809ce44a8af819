import { describe, expect, it } from 'vitest';
import type { InboxRecord } from '../../../src/core/protocol/inbox.js';
import type { JournalEntry } from '../../../src/core/protocol/journal.js';
import { buildFacts, spendFacts, type ReportInput } from '../../../src/core/report/facts.js';
import { buildReport } from '../../../src/core/report/report.js';
import { MAX_POINTS } from '../../../src/core/report/spend.js';

const VENDORS = new Map([['c1', 'anthropic'], ['c2', 'anthropic'], ['o1', 'openai']]);
const e = (time: string, event: string, lane: string | null, generation: number | null, more: Record<string, unknown> = {}): JournalEntry =>
  ({ ts: `2026-12-01T${time}Z`, type: 'observation', event, lane, generation, epoch: 1, ...more });
const usage = (time: string, from: string, generation: number, account: string, cost: number | null, input: number, session = `${from}-g${generation}`, role: 'lane' | 'lead' | 'reviewer' = 'lane'): InboxRecord => ({
  kind: 'usage', ts: `2026-12-01T${time}Z`, from, role, account, generation, epoch: 1, run: 1,
  session_id: session, cost_usd: cost, tokens: { input, output: Math.round(input / 10), cache_read: null, cache_write: null },
});
const turn = (time: string, from: string, generation: number, n: number): InboxRecord => ({
  kind: 'hook', ts: `2026-12-01T${time}Z`, from, role: 'lane', account: 'c1', generation, epoch: 1, run: 1,
  event: 'Stop', meaning: 'turn_end', detail: '', session_id: null, transcript_path: null, resets_at: null, turn: n,
});

const journal = [
  e('01:00:00', 'lead_claimed', 'lead', 1, { account: 'c2' }),
  e('01:00:01', 'lane_started', 'lead', 1, { account: 'c2' }),
  e('01:00:02', 'lane_started', 'lane-a', 1, { account: 'c1' }),
  e('01:20:00', 'successor_spawned', 'lane-a', 1, { for_generation: 2, account: 'c2' }),
  e('01:20:05', 'packet_accepted', 'lane-a', 2, { account: 'c2', from_generation: 1 }),
  e('01:20:05', 'generation_spent', 'lane-a', 1, { account: 'c1', end: 'handed_off', started: '2026-12-01T01:00:02.000Z', ended: '2026-12-01T01:20:05.000Z', context_pct_at_end: 71, capacity_start: 90, capacity_end: 8, cost_usd: 1.25 }),
];
const inbox = [
  usage('01:05:00', 'lead', 1, 'c2', 0.1, 1000, 'L', 'lead'),
  usage('01:10:00', 'lane-a', 1, 'c1', 0.4, 4000),
  turn('01:10:01', 'lane-a', 1, 1),
  usage('01:15:00', 'lane-a', 1, 'c1', 1.25, 9000),
  turn('01:15:01', 'lane-a', 1, 2),
  turn('01:15:01', 'lane-a', 1, 2),
  usage('01:21:00', 'lane-a', 2, 'c2', 0.755, 2000),
  usage('01:22:00', 'lane-a.review', 1, 'o1', null, 30_000, 'R', 'reviewer'),
];
const input = (over: Partial<ReportInput> = {}): ReportInput => ({
  plan: 'p', journal, inbox, lead: null, packets: new Map(), vendors: VENDORS, thresholds: { low: 25, critical: 10, contextPressure: 60 }, ...over,
});

describe('the report\'s spend (SPEC 10.7): the agents\' usage records, folded as the engine folds them', () => {
  const spend = buildFacts(input()).spend;

  it('each generation: its session, turns, tokens and cost; how it ended and its context at the end from its generation_spent line', () => {
    expect(spend.generations.map((g) => [g.lane, g.agent, g.generation, g.account, g.vendor, g.cost_usd, g.turns, g.end])).toEqual([
      ['lane-a', 'lane-a', 1, 'c1', 'anthropic', 1.25, 2, 'handed_off'],
      ['lane-a', 'lane-a', 2, 'c2', 'anthropic', 0.755, 0, null],
      ['lane-a', 'lane-a.review', 1, 'o1', 'openai', null, 0, null],
      ['lead', 'lead', 1, 'c2', 'anthropic', 0.1, 0, null],
    ]);
    expect(spend.generations[0]).toMatchObject({ session_id: 'lane-a-g1', context_pct_at_end: 71, capacity_start: 90, capacity_end: 8, tokens: { input: 9000, output: 900 } });
  });

  it('sums per lane (its reviewers with it), per account and per vendor; a vendor telling no cost counts in tokens', () => {
    expect(spend.total).toEqual({ cost_usd: 2.105, tokens: { input: 42_000, output: 4200, cache_read: null, cache_write: null } });
    expect(spend.lanes.map((l) => [l.lane, l.cost_usd, l.tokens.input])).toEqual([['lane-a', 2.005, 41_000], ['lead', 0.1, 1000]]);
    expect(spend.accounts.map((a) => [a.account, a.vendor, a.cost_usd])).toEqual([['c1', 'anthropic', 1.25], ['c2', 'anthropic', 0.855], ['o1', 'openai', null]]);
    expect(spend.vendors.map((v) => [v.vendor, v.cost_usd, v.tokens.input])).toEqual([['anthropic', 2.105, 12_000], ['openai', null, 30_000]]);
  });

  it('the night\'s cumulative cost after each change, for the chart', () => {
    expect(spend.cumulative).toEqual([
      { at: '2026-12-01T01:05:00Z', cost_usd: 0.1 }, { at: '2026-12-01T01:10:00Z', cost_usd: 0.5 },
      { at: '2026-12-01T01:15:00Z', cost_usd: 1.35 }, { at: '2026-12-01T01:21:00Z', cost_usd: 2.105 },
    ]);
  });

  it(`keeps at most ${MAX_POINTS} points of a long night, the first and the last`, () => {
    const many = Array.from({ length: 1000 }, (_, i) => usage(`02:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, 'lane-a', 1, 'c1', (i + 1) / 100, i + 1));
    const c = buildFacts(input({ inbox: many })).spend.cumulative;
    expect(c).toHaveLength(MAX_POINTS);
    expect(c[0]!.cost_usd).toBe(0.01);
    expect(c.at(-1)!.cost_usd).toBe(10);
  });

  it('no usage told: nothing, and the text report says so', () => {
    const none = spendFacts(input({ inbox: [] }));
    expect(none).toMatchObject({ generations: [], total: { cost_usd: null }, cumulative: [] });
    expect(buildReport(journal, { plan: 'p', spend: none })).toContain('\nspend: not reported (no agent told its usage)\n');
  });

  it('the text report: the total, per lane, account and vendor, then each generation', () => {
    const text = buildReport(journal, { plan: 'p', spend: spendFacts(input()) });
    expect(text.slice(text.indexOf('\nspend:') + 1).split('\n')).toEqual([
      'spend: $2.11 over 4 generations',
      '  by lane: lane-a $2.01 · lead $0.10',
      '  by account: c1/anthropic $1.25 · c2/anthropic $0.86 · o1/openai 33k tok',
      '  by vendor: anthropic $2.11 · openai 33k tok',
      '  lane-a g1 @c1, $1.25, 2 turns, 9900 tokens, handed off, context 71% at the end',
      '  lane-a g2 @c2, $0.76, 2200 tokens, running',
      '  lane-a.review g1 @o1, 33k tok, running',
      '  lead g1 @c2, $0.10, 1100 tokens, running',
      '',
    ]);
  });
});
