import { describe, expect, it } from 'vitest';
import {
  agentFigures, dollars, endGeneration, spendText, figuresOf, foldTurn, foldUsage, generationFigures, generationView, ledgerFigures, MAX_PROCESSES,
  startGeneration, type Figures, type Ledger, type UsageFact,
} from '../../../src/core/ledger/ledger.js';

const cost = (usd: number | null, input: number | null = null, output: number | null = null): Figures => ({
  cost_usd: usd, tokens: { input, output, cache_read: null, cache_write: null },
});
const fact = (session: string, figures: Figures, over: Partial<UsageFact> = {}): UsageFact => ({
  agent: 'lane-a', generation: 1, account: 'c1', vendor: 'anthropic', session, figures, ...over,
});
const fold = (facts: UsageFact[], from: Ledger = {}): Ledger => facts.reduce(foldUsage, from);
const g1 = (ledger: Ledger) => ledger['lane-a']!.find((g) => g.generation === 1)!;

describe('the ledger fold (SPEC 10.7: per process the last counts, a generation sums its processes)', () => {
  it.each<[string, UsageFact[], number | null]>([
    ['one process: 0.10, 0.25, 0.40 are 0.40', [fact('s1', cost(0.1)), fact('s1', cost(0.25)), fact('s1', cost(0.4))], 0.4],
    ['a second process adds its own last: 0.40 + 0.30', [fact('s1', cost(0.1)), fact('s1', cost(0.4)), fact('s2', cost(0.2)), fact('s2', cost(0.3))], 0.7],
    ['processes told in turns keep each its own last', [fact('s1', cost(0.1)), fact('s2', cost(0.2)), fact('s1', cost(0.5)), fact('s2', cost(0.3))], 0.8],
    ['a falling cost is a new run of the process: the run before counts', [fact('s1', cost(0.4)), fact('s1', cost(0.05)), fact('s1', cost(0.1))], 0.5],
    ['a cost never told is null (Codex)', [fact('t1', cost(null, 100, 5)), fact('t1', cost(null, 300, 9))], null],
    ['no float dust: 0.1 + 0.2', [fact('s1', cost(0.1)), fact('s2', cost(0.2))], 0.3],
    ['a record without a session id is one process of its own', [fact('', cost(0.1)), fact('', cost(0.3)), fact('s1', cost(0.2))], 0.5],
  ])('%s', (_name, facts, usd) => {
    expect(generationFigures(g1(fold(facts))).cost_usd).toBe(usd);
  });

  it('sums tokens per kind, null where no process told one', () => {
    const l = fold([fact('s1', cost(0.1, 100, 10)), fact('s1', cost(0.2, 250, 20)), fact('s2', cost(null, 50, null))]);
    expect(generationFigures(g1(l)).tokens).toEqual({ input: 300, output: 20, cache_read: null, cache_write: null });
  });

  it('a token count that falls starts a new run too (a restart with the same session id and no cost)', () => {
    const l = fold([fact('t', cost(null, 1000, 10)), fact('t', cost(null, 200, 2))]);
    expect(generationFigures(g1(l)).tokens.input).toBe(1200);
  });

  it('the same record read again (a spool re-read after a crash) changes nothing: the very same ledger', () => {
    const once = fold([fact('s1', cost(0.1)), fact('s1', cost(0.4)), fact('s2', cost(0.3))]);
    expect(fold([fact('s1', cost(0.4)), fact('s2', cost(0.3))], once)).toBe(once);
  });

  it('figures an agent wrote are data: negative, NaN, strings, Infinity are not reports', () => {
    expect(figuresOf(-1, { input: 'x', output: Number.NaN, cache_read: Infinity, cache_write: 3 })).toEqual({
      cost_usd: null, tokens: { input: null, output: null, cache_read: null, cache_write: 3 },
    });
    expect(figuresOf('0.5', null)).toEqual({ cost_usd: null, tokens: { input: null, output: null, cache_read: null, cache_write: null } });
    expect(figuresOf(0, [])).toEqual({ cost_usd: 0, tokens: { input: null, output: null, cache_read: null, cache_write: null } });
  });

  it(`keeps at most ${MAX_PROCESSES} processes a generation: an agent cannot grow the state without bound`, () => {
    const many = Array.from({ length: MAX_PROCESSES + 5 }, (_, i) => fact(`s${i}`, cost(1)));
    const l = fold(many);
    expect(g1(l).processes).toHaveLength(MAX_PROCESSES);
    expect(generationFigures(g1(l)).cost_usd).toBe(MAX_PROCESSES);
  });

  it('generations and agents are kept apart; the run sums them all', () => {
    const l = fold([
      fact('a1', cost(1.25)), fact('a2', cost(0.5), { generation: 2 }),
      fact('b1', cost(2), { agent: 'lane-b' }), fact('r1', cost(0.05), { agent: 'lane-a.review', account: 'o1', vendor: 'openai' }),
    ]);
    expect(l['lane-a']!.map((g) => g.generation)).toEqual([1, 2]);
    expect(agentFigures(l['lane-a']).cost_usd).toBe(1.75);
    expect(ledgerFigures(l).cost_usd).toBe(3.8);
    expect(ledgerFigures(undefined).cost_usd).toBeNull();
  });

  it('turns are the highest number heard: numbered turn ends read twice count once; a usage record may count them too', () => {
    let l: Ledger = {};
    for (const n of [1, 2, 2, 3, 1]) l = foldTurn(l, 'lane-a', 1, n, 'c1', 'anthropic');
    expect(g1(l).turns).toBe(3);
    expect(foldTurn(l, 'lane-a', 1, 3, 'c1', null)).toBe(l);
    expect(foldTurn(l, 'lane-a', 1, -4, 'c1', null)).toBe(l);
    l = foldUsage(l, fact('t', cost(null, 1, 1), { turns: 7 }));
    expect(g1(l).turns).toBe(7);
  });

  it.each<[number, string]>([[0, '$0.00'], [0.004, '$0.00'], [0.005, '$0.01'], [2.005, '$2.01'], [1.005, '$1.01'], [0.4821, '$0.48'], [1234.5, '$1234.50']])(
    'dollars(%s) is %s: to the cent, half up on the decimal figure', (usd, text) => {
      expect(dollars(usd)).toBe(text);
    },
  );

  it('a spend is told in dollars, else in tokens, else not at all', () => {
    expect(spendText(cost(0.4821, 1, 1))).toBe('$0.48');
    expect(spendText(cost(null, 412_000, 9000))).toBe('421k tok');
    expect(spendText(cost(null, 1_200_000, 300_000))).toBe('1.5M tok');
    expect(spendText(cost(null, 12, null))).toBe('12 tok');
    expect(spendText(cost(null))).toBeNull();
  });

  it('a start and an end are kept once, the first', () => {
    let l = startGeneration({}, 'lane-a', 1, { now: 1000, account: 'c1', vendor: 'anthropic', capacity: 80 });
    l = startGeneration(l, 'lane-a', 1, { now: 5000, account: 'c2', vendor: 'x', capacity: 10 });
    l = endGeneration(l, 'lane-a', 1, { now: 9000, end: 'handed_off', account: 'c1', vendor: 'anthropic', context: 71, capacity: 12 });
    const again = endGeneration(l, 'lane-a', 1, { now: 9999, end: 'lost', account: 'c1', vendor: null, context: 1, capacity: 1 });
    expect(again).toBe(l);
    l = foldUsage(l, fact('s1', cost(0.42, 10, 2)));
    expect(generationView(g1(l))).toEqual({
      generation: 1, session_id: 's1', account: 'c1', vendor: 'anthropic', started: new Date(1000).toISOString(), ended: new Date(9000).toISOString(),
      end: 'handed_off', turns: 0, tokens: { input: 10, output: 2, cache_read: null, cache_write: null }, cost_usd: 0.42,
      context_pct_at_end: 71, capacity_start: 80, capacity_end: 12,
    });
  });
});
