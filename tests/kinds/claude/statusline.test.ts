import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assess } from '../../../src/core/capacity/capacity.js';
import { KIT_DEFAULTS } from '../../../src/core/capacity/thresholds.js';
import { formatStatusLine, parseStatusLine, type StatusLine, type StatusLineView } from '../../../src/kinds/claude/statusline.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/claude/${name}.json`, import.meta.url), 'utf8');
const iso = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString();
const SID = '5f3b2c1e-8a4d-4e6f-9b7a-2c1d0e9f8a7b';

function parsed(text: string): StatusLine {
  const result = parseStatusLine(text);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('parseStatusLine: fixtures', () => {
  it('before the first reply: no rate_limits, used_percentage null → all unknown', () => {
    expect(parsed(fixture('statusline-before-first-reply'))).toEqual({
      reading: { state: 'unknown', remainingPct: null, contextPct: null, resetsAt: null, contextTokens: null, window: 200_000 },
      window: 200_000,
      contextTokens: null,
      model: 'claude-sonnet-4-6',
      sessionId: SID,
      transcriptPath: `/home/dev/.claude-work2/projects/-work-wt-demo/${SID}.jsonl`,
      spend: { costUsd: 0, input: 0, output: 0 },
    });
  });

  it('what the process spent (SPEC 10.7): cost.total_cost_usd and the cumulative input and output tokens', () => {
    expect(parsed(fixture('statusline-after-reply')).spend).toEqual({ costUsd: 0.4821, input: 84_210, output: 3120 });
    expect(parsed(fixture('statusline-1m')).spend).toEqual({ costUsd: 0, input: 412_000, output: 9000 });
    // Absent, of the wrong type or negative: not reported.
    expect(parsed('{"cost":{"total_cost_usd":"1.5"},"context_window":{"total_input_tokens":-3}}').spend).toEqual({ costUsd: null, input: null, output: null });
    expect(parsed('{}').spend).toEqual({ costUsd: null, input: null, output: null });
  });

  it('after a reply: the five-hour window binds (63.5% used), context 42%', () => {
    const s = parsed(fixture('statusline-after-reply'));
    expect(s.reading).toEqual({ state: 'unknown', remainingPct: 36.5, contextPct: 42, resetsAt: iso(1796114187), contextTokens: 12 + 2280 + 81918, window: 200_000 });
    expect(s.contextTokens).toBe(12 + 2280 + 81918);
  });

  it('the seven-day window binds when it is the more used', () => {
    expect(parsed(fixture('statusline-weekly-binding')).reading).toMatchObject({ remainingPct: 9, resetsAt: iso(1796500000) });
  });

  it('a 1M model: window 1,000,000; a null seven_day is left out', () => {
    const s = parsed(fixture('statusline-1m'));
    expect(s).toMatchObject({ window: 1_000_000, model: 'claude-opus-4-8[1m]', contextTokens: 412_008 });
    expect(s.reading).toEqual({ state: 'unknown', remainingPct: 92, contextPct: 41.2, resetsAt: iso(1796114187), contextTokens: 412_008, window: 1_000_000 });
  });

  it('an API-key login (no rate_limits after the reply): capacity unknown, context known', () => {
    expect(parsed(fixture('statusline-api-key')).reading).toMatchObject({ state: 'unknown', remainingPct: null, contextPct: 42, resetsAt: null });
  });

  it('through assess: unknown before the first reply (never ok); after it the % decides', () => {
    const context = { contextPressure: 60, window: 200_000, headroom: 50_000 };
    const before = assess('work2', parsed(fixture('statusline-before-first-reply')).reading, new Map(), KIT_DEFAULTS, context);
    expect(before).toMatchObject({ state: 'unknown', remaining_pct: null, decision: 'continue' });
    const weekly = assess('work2', parsed(fixture('statusline-weekly-binding')).reading, new Map(), KIT_DEFAULTS, context);
    expect(weekly).toMatchObject({ state: 'critical', remaining_pct: 9, decision: 'handoff_now' });
  });

  it('CRLF line ends and trailing spaces in the piped JSON', () => {
    const text = fixture('statusline-after-reply').replace(/\n/g, '  \r\n');
    expect(parsed(text)).toEqual(parsed(fixture('statusline-after-reply')));
  });
});

describe('parseStatusLine: edges', () => {
  it.each<[string, string, RegExp]>([
    ['empty input', '', /empty status line JSON/],
    ['only blanks', '  \r\n ', /empty status line JSON/],
    ['not JSON', 'claude-sonnet 42%', /status line JSON is not JSON: got "claude-sonnet 42%"/],
    ['NaN', '{"context_window":{"used_percentage":NaN}}', /not JSON/],
    ['a list', '[{"session_id":"x"}]', /must be a JSON object, got a list/],
    ['a torn object', '{"session_id":"x","model":{', /not JSON/],
  ])('%s → a typed error', (_name, text, error) => {
    const result = parseStatusLine(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  type Expect = Partial<StatusLine['reading']> & { window?: number | null; model?: string | null; sessionId?: string | null };
  const rl = (five: unknown, seven: unknown = null): string => JSON.stringify({ rate_limits: { five_hour: five, seven_day: seven } });
  it.each<[string, string, Expect]>([
    ['an empty object: everything unknown', '{}', { remainingPct: null, contextPct: null, resetsAt: null, window: null, model: null, sessionId: null }],
    ['rate_limits null', '{"rate_limits":null}', { remainingPct: null }],
    ['rate_limits of the wrong type', '{"rate_limits":"high"}', { remainingPct: null }],
    ['a window of the wrong type', rl('63%'), { remainingPct: null }],
    ['used_percentage as a string', rl({ used_percentage: '63', resets_at: 1796114187 }), { remainingPct: null, resetsAt: null }],
    ['used_percentage null', rl({ used_percentage: null, resets_at: 1796114187 }), { remainingPct: null, resetsAt: null }],
    ['used_percentage above 100: spent', rl({ used_percentage: 130, resets_at: 1796114187 }), { remainingPct: 0, resetsAt: iso(1796114187) }],
    ['used_percentage below 0: no reading', rl({ used_percentage: -3, resets_at: 1796114187 }), { remainingPct: null }],
    ['resets_at missing: the % stands', rl({ used_percentage: 50 }), { remainingPct: 50, resetsAt: null }],
    ['resets_at as ISO text', rl({ used_percentage: 50, resets_at: '2026-12-01T08:36:27Z' }), { resetsAt: '2026-12-01T08:36:27.000Z' }],
    ['resets_at nonsense', rl({ used_percentage: 50, resets_at: 'soon' }), { remainingPct: 50, resetsAt: null }],
    ['context above 100 counts as full', '{"context_window":{"used_percentage":130}}', { contextPct: 100 }],
    ['context below 0 is no reading', '{"context_window":{"used_percentage":-1}}', { contextPct: null }],
    ['context null but current_usage known', '{"context_window":{"used_percentage":null,"context_window_size":200000,"current_usage":{"input_tokens":100000}}}', { contextPct: 50 }],
    ['context_window_size 0 is no window', '{"context_window":{"context_window_size":0}}', { window: null }],
    ['context_window_size as a string', '{"context_window":{"context_window_size":"200000"}}', { window: null }],
    ['model without an id', '{"model":{"display_name":"Opus"}}', { model: null }],
    ['model as a string', '{"model":"opus"}', { model: null }],
    ['escape codes inside strings are kept in ids (compared, not shown)', '{"session_id":"\\u001b[31mabc\\u001b[0m"}', { sessionId: '\u001b[31mabc\u001b[0m' }],
    ['trailing spaces around ids are trimmed', '{"session_id":"  abc  "}', { sessionId: 'abc' }],
  ])('%s', (_name, text, expected) => {
    const s = parsed(text);
    expect({ ...s.reading, window: s.window, model: s.model, sessionId: s.sessionId }).toMatchObject(expected);
  });
});

describe('formatStatusLine', () => {
  const view = (verdict: Partial<StatusLineView['verdict']>, extra: Partial<StatusLineView> = {}): StatusLineView => ({
    lane: 'lane-a', generation: 2, account: 'work2',
    verdict: { state: 'ok', remaining_pct: 64, context_pct: 41, decision: 'continue', ...verdict }, ...extra,
  });
  it.each<[string, StatusLineView, string]>([
    ['all known', view({}), 'lane-a g2 @work2 · capacity ok 64% · context 41%'],
    ['unknown capacity, no context', view({ state: 'unknown', remaining_pct: null, context_pct: null }), 'lane-a g2 @work2 · capacity unknown'],
    ['low: hand off soon', view({ state: 'low', remaining_pct: 22, decision: 'handoff_soon' }), 'lane-a g2 @work2 · capacity low 22% · context 41% · hand off soon'],
    ['critical: hand off now', view({ state: 'critical', remaining_pct: 8, decision: 'handoff_now' }), 'lane-a g2 @work2 · capacity critical 8% · context 41% · hand off now'],
    ['no account', view({}, { account: null }), 'lane-a g2 · capacity ok 64% · context 41%'],
    ['an account given with its @', view({}, { account: '@work2' }), 'lane-a g2 @work2 · capacity ok 64% · context 41%'],
    ['escapes and line breaks never reach the footer', view({}, { lane: 'lane-a\u001b[2J\nx' }), 'lane-a x g2 @work2 · capacity ok 64% · context 41%'],
  ])('%s', (_name, v, expected) => {
    expect(formatStatusLine(v)).toBe(expected);
  });
});
