import { describe, expect, it } from 'vitest';
import { assess, worse, type ContextSettings, type RawReading, type Verdict } from '../../../src/core/capacity/capacity.js';
import type { CapacityState } from '../../../src/core/protocol/protocol.js';
import { KIT_DEFAULTS, parseCaps, resolveCapacityThresholds } from '../../../src/core/capacity/thresholds.js';

const thresholds = resolveCapacityThresholds({}, {});
const context: ContextSettings = { contextPressure: 60, window: 1_000_000, headroom: 50_000 };
const noCaps = new Map<string, number>();

const reading = (state: CapacityState, remainingPct: number | null, extra: Partial<RawReading> = {}): RawReading =>
  ({ state, remainingPct, contextPct: null, resetsAt: null, ...extra });
const verdict = (state: CapacityState, remaining_pct: number | null, decision: Verdict['decision'], extra: Partial<Verdict> = {}): Verdict =>
  ({ state, remaining_pct, context_pct: null, resets_at: null, decision, ...extra });

describe('thresholds used here', () => {
  it('are the kit defaults', () => {
    expect(thresholds).toEqual(KIT_DEFAULTS);
  });
});

describe('assess', () => {
  it.each<[string, RawReading | null, Verdict]>([
    ['no reading: unknown, continue', null, verdict('unknown', null, 'continue')],
    ['an unknown reading without a % stays unknown', reading('unknown', null), verdict('unknown', null, 'continue')],
    ['ok with headroom', reading('ok', 64), verdict('ok', 64, 'continue')],
    ['a reported state without a % stands', reading('ok', null), verdict('ok', null, 'continue')],
    ['a reported low without a %', reading('low', null), verdict('low', null, 'handoff_soon')],
    ['a reported critical without a %', reading('critical', null), verdict('critical', null, 'handoff_now')],
    ['unknown with a %: the % decides', reading('unknown', 64), verdict('ok', 64, 'continue')],
    ['unknown with a low %', reading('unknown', 20), verdict('low', 20, 'handoff_soon')],
    ['reported critical with a high % stays critical', reading('critical', 80), verdict('critical', 80, 'handoff_now')],
    ['reported low with a high % stays low', reading('low', 80), verdict('low', 80, 'handoff_soon')],
    ['reported critical with a low % stays critical', reading('critical', 20), verdict('critical', 20, 'handoff_now')],
    ['ok with a low % becomes low', reading('ok', 20), verdict('low', 20, 'handoff_soon')],
    ['ok at exactly low becomes low', reading('ok', 25), verdict('low', 25, 'handoff_soon')],
    ['ok just above low stays ok', reading('ok', 25.1), verdict('ok', 25.1, 'continue')],
    ['ok at exactly critical becomes critical', reading('ok', 10), verdict('critical', 10, 'handoff_now')],
    ['ok with a critical % becomes critical', reading('ok', 3), verdict('critical', 3, 'handoff_now')],
    ['low with a critical % becomes critical', reading('low', 0), verdict('critical', 0, 'handoff_now')],
    ['resets_at is passed through', reading('critical', 2, { resetsAt: '2025-01-02T15:00:00Z' }),
      verdict('critical', 2, 'handoff_now', { resets_at: '2025-01-02T15:00:00Z' })],
    ['context % is passed through', reading('ok', 64, { contextPct: 41 }), verdict('ok', 64, 'continue', { context_pct: 41 })],
  ])('%s', (_name, raw, expected) => {
    expect(assess('work2', raw, noCaps, thresholds, context)).toEqual(expected);
  });

  it.each<[string, string, RawReading | null, string, Verdict]>([
    ['a cap lowers ok to low', 'work2', reading('ok', 64), '@work2=20', verdict('low', 20, 'handoff_soon')],
    ['a cap lowers ok to critical', 'work2', reading('ok', 64), '@work2=5', verdict('critical', 5, 'handoff_now')],
    ['a cap never raises', 'work2', reading('ok', 30), '@work2=80', verdict('ok', 30, 'continue')],
    ['a cap never raises a critical reading', 'work2', reading('critical', 4), '@work2=50', verdict('critical', 4, 'handoff_now')],
    ['a cap of another account does nothing', 'work2', reading('ok', 64), '@work3=5', verdict('ok', 64, 'continue')],
    ['the account may be given with @', '@work2', reading('ok', 64), '@work2=5', verdict('critical', 5, 'handoff_now')],
    ['the lower of two caps', 'work2', reading('ok', 64), '@work2=20,@work2=8', verdict('critical', 8, 'handoff_now')],
    ['a cap gives no reading where there is none', 'work2', null, '@work2=5', verdict('unknown', null, 'continue')],
    ['a capped % is shown while a worse reported state stands', 'work2', reading('critical', 90), '@work2=50', verdict('critical', 50, 'handoff_now')],
  ])('%s', (_name, account, raw, caps, expected) => {
    expect(assess(account, raw, parseCaps(caps), thresholds, context)).toEqual(expected);
  });

  it.each<[string, RawReading | null, Verdict]>([
    ['context at the pressure line: handoff now', reading('ok', 64, { contextPct: 60 }), verdict('ok', 64, 'handoff_now', { context_pct: 60 })],
    ['context past the pressure line', reading('ok', 64, { contextPct: 95 }), verdict('ok', 64, 'handoff_now', { context_pct: 95 })],
    ['context 10 points below: handoff soon', reading('ok', 64, { contextPct: 50 }), verdict('ok', 64, 'handoff_soon', { context_pct: 50 })],
    ['context just under that: continue', reading('ok', 64, { contextPct: 49 }), verdict('ok', 64, 'continue', { context_pct: 49 })],
    ['context pressure with unknown capacity', reading('unknown', null, { contextPct: 70 }), verdict('unknown', null, 'handoff_now', { context_pct: 70 })],
    ['context pressure beats low', reading('ok', 20, { contextPct: 61 }), verdict('low', 20, 'handoff_now', { context_pct: 61 })],
  ])('%s', (_name, raw, expected) => {
    expect(assess('work2', raw, noCaps, thresholds, context)).toEqual(expected);
  });

  it('uses the thresholds given (env overrides resolved by the caller)', () => {
    const strict = resolveCapacityThresholds({ low: 30, critical: 5 }, { AGENTKIT_CAPACITY_LOW: '50', AGENTKIT_CAPACITY_CRITICAL: '40' });
    expect(assess('work2', reading('ok', 45), noCaps, strict, context)).toEqual(verdict('low', 45, 'handoff_soon'));
    expect(assess('work2', reading('ok', 40), noCaps, strict, context)).toEqual(verdict('critical', 40, 'handoff_now'));
    expect(assess('work2', reading('ok', 51), noCaps, strict, context)).toEqual(verdict('ok', 51, 'continue'));
  });

  it('uses the context pressure given', () => {
    const at80 = { ...context, contextPressure: 80 };
    expect(assess('work2', reading('ok', 64, { contextPct: 75 }), noCaps, thresholds, at80).decision).toBe('handoff_soon');
    expect(assess('work2', reading('ok', 64, { contextPct: 80 }), noCaps, thresholds, at80).decision).toBe('handoff_now');
  });
});

describe('worse', () => {
  it.each<[CapacityState, CapacityState, CapacityState]>([
    ['ok', 'ok', 'ok'],
    ['ok', 'low', 'low'],
    ['low', 'ok', 'low'],
    ['low', 'critical', 'critical'],
    ['critical', 'ok', 'critical'],
    ['unknown', 'ok', 'ok'],
    ['ok', 'unknown', 'ok'],
    ['unknown', 'critical', 'critical'],
    ['unknown', 'unknown', 'unknown'],
  ])('worse(%s, %s) = %s', (a, b, expected) => {
    expect(worse(a, b)).toBe(expected);
  });
});

describe('the context lines take effect (SPEC 10.7): at and warn_at from the tokens in context now, beside context_pressure', () => {
  // headroom 50,000: at = window - 50,000, warn_at = at - 20,000; context_pressure 60 % (soon at 50 %).
  const context = (window: number) => ({ contextPressure: 60, window, headroom: 50_000 });
  const reading = (tokens: number | null, window: number) => ({
    state: 'ok' as const, remainingPct: 80, resetsAt: null, contextTokens: tokens, contextPct: tokens === null ? null : Math.round((tokens / window) * 1000) / 10,
  });
  const decision = (tokens: number | null, window: number) => assess('w', reading(tokens, window), new Map(), { low: 25, critical: 10 }, context(window)).decision;

  it.each<[string, number, number | null, string]>([
    // 100k: at 50,000 (50 %), warn_at 30,000 (30 %): the token lines come before the % (60 %, soon at 50 %).
    ['100k, 29,999 tokens (30 %)', 100_000, 29_999, 'continue'],
    ['100k, warn_at 30,000 (30 %)', 100_000, 30_000, 'handoff_soon'],
    ['100k, at 50,000 (50 %)', 100_000, 50_000, 'handoff_now'],
    // 200k: at 150,000 (75 %), warn_at 130,000 (65 %): the % comes first (soon at 100,000, now at 120,000).
    ['200k, 99,000 tokens (49.5 %)', 200_000, 99_000, 'continue'],
    ['200k, 100,000 (50 %): context_pressure - 10', 200_000, 100_000, 'handoff_soon'],
    ['200k, 120,000 (60 %): context_pressure', 200_000, 120_000, 'handoff_now'],
    // 1M: at 950,000, warn_at 930,000: the % comes long before.
    ['1M, 490,000 (49 %)', 1_000_000, 490_000, 'continue'],
    ['1M, 600,000 (60 %)', 1_000_000, 600_000, 'handoff_now'],
    // 125k is where the two meet: at 75,000 = 60 %.
    ['125k, 75,000 (60 %): both lines at once', 125_000, 75_000, 'handoff_now'],
    ['no token count: the % alone', 100_000, null, 'continue'],
  ])('%s', (_name, window, tokens, expected) => {
    expect(decision(tokens, window)).toBe(expected);
  });

  it('tokens without a % (a source that gives only tokens) still decide', () => {
    const verdict = assess('w', { state: 'ok', remainingPct: 80, resetsAt: null, contextPct: null, contextTokens: 55_000 }, new Map(), { low: 25, critical: 10 }, context(100_000));
    expect(verdict.decision).toBe('handoff_now');
  });
});
