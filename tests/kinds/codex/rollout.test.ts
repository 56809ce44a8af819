import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRollout, ROLLOUT_START, type RolloutState } from '../../../src/kinds/codex/rollout.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/codex/${name}.jsonl`, import.meta.url), 'utf8');
const TID = '019a9776-0a34-7842-8627-112b63d66e90';
const NOW = Date.parse('2026-11-30T07:30:00.000Z');
const iso = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString();
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const whole = (text: string): string => text.slice(0, text.lastIndexOf('\n') + 1);

describe('readRollout: fixtures, read whole', () => {
  it.each<[string, Partial<RolloutState>]>([
    ['rollout-current', {
      sessionId: TID, window: 475_000, contextTokens: 193_500, hardLimit: null, turnsCompleted: 1,
      // The thread's token totals, for the ledger (SPEC 10.7): input includes the cached.
      totals: { input: 380_000, cached: 300_000, output: 7000 },
      reading: { state: 'unknown', remainingPct: 57.5, contextPct: 40.7, resetsAt: iso(1796114187) },
    }],
    ['rollout-resets-in-seconds', {
      sessionId: TID, contextTokens: 50_000,
      // 81% used, resets 3600 s after the line's own timestamp (07:00:08)
      reading: { state: 'unknown', remainingPct: 19, contextPct: 10.5, resetsAt: '2026-11-30T08:00:08.000Z' },
    }],
    ['rollout-flat', {
      // primary_used_percent 17, secondary_used_percent 64: the secondary binds
      reading: { state: 'unknown', remainingPct: 36, contextPct: 20, resetsAt: '2026-12-01T07:00:08.000Z' },
    }],
    ['rollout-null-limits', { reading: { state: 'unknown', remainingPct: null, contextPct: 5, resetsAt: null } }],
    ['rollout-usage-limit', {
      hardLimit: 'usage_limit', turnsCompleted: 1,
      reading: { state: 'unknown', remainingPct: 0, contextPct: 0.2, resetsAt: iso(1796114187) },
    }],
  ])('%s', (name, expected) => {
    const text = fixture(name);
    const state = readRollout(text, 0, null, NOW);
    expect(state).toMatchObject(expected);
    expect(state.offset).toBe(bytes(whole(text)));
  });

  it('the torn last line is not consumed: the offset stops before it', () => {
    const text = fixture('rollout-current');
    const state = readRollout(text, 0, null, NOW);
    expect(text.slice(whole(text).length)).toMatch(/^\{"timestamp".*"token_co$/);
    expect(state.offset).toBeLessThan(bytes(text));
  });
});

describe('readRollout: incremental', () => {
  const text = `${fixture('rollout-current').replace(/\n[^\n]*$/, '\n')}${JSON.stringify({
    timestamp: '2026-11-30T07:00:12.000Z', type: 'response_item', payload: { type: 'message', content: [{ text: 'naïve — ✓ · 日本' }] },
  })}\n`;
  const once = readRollout(text, 0, null, NOW);

  it.each([1, 17, 200, 1000, 2500, text.length - 3])('split after character %i: the same state as one read', (cut) => {
    const buffer = Buffer.from(text, 'utf8');
    const first = readRollout(text.slice(0, cut), 0, null, NOW);
    const rest = buffer.subarray(first.offset).toString('utf8');
    expect(readRollout(rest, first.offset, first, NOW)).toEqual(once);
  });

  it('reads byte by byte through multi-byte characters', () => {
    const buffer = Buffer.from(text, 'utf8');
    let state: RolloutState = ROLLOUT_START;
    for (let end = 1; end <= buffer.length; end += 97) {
      state = readRollout(buffer.subarray(state.offset, end).toString('utf8'), state.offset, state, NOW);
    }
    state = readRollout(buffer.subarray(state.offset).toString('utf8'), state.offset, state, NOW);
    expect(state).toEqual(once);
  });

  it('a chunk without a whole line changes nothing', () => {
    expect(readRollout('{"type":"event_msg","pay', 120, once, NOW)).toEqual({ ...once, offset: 120 });
  });

  it('a chunk without a token_count keeps the last reading', () => {
    const line = `${JSON.stringify({ type: 'response_item', payload: { type: 'message' } })}\n`;
    expect(readRollout(line, once.offset, once, NOW)).toEqual({ ...once, offset: once.offset + bytes(line) });
  });

  it('the first session_meta is the lane thread; a later one does not replace it', () => {
    const line = `${JSON.stringify({ type: 'session_meta', payload: { id: 'other' } })}\n`;
    expect(readRollout(line, once.offset, once, NOW).sessionId).toBe(TID);
  });
});

describe('readRollout: edges', () => {
  const line = (payload: Record<string, unknown>, timestamp = '2026-11-30T07:00:00.000Z'): string =>
    `${JSON.stringify({ timestamp, type: 'event_msg', payload })}\n`;
  const limits = (primary: unknown, secondary: unknown = null): string =>
    line({ type: 'token_count', info: null, rate_limits: { primary, secondary } });
  const read = (text: string, previous: RolloutState | null = null): RolloutState => readRollout(text, 0, previous, NOW);
  const limited = read(line({ type: 'task_complete', error: { codex_error_info: 'usage_limit_exceeded' } }));

  it.each<[string, string, Partial<RolloutState> & { remainingPct?: number | null; resetsAt?: string | null }]>([
    ['empty', '', { offset: 0, sessionId: null, turnsCompleted: 0 }],
    ['blank lines and CRLF', '\r\n\n  \r\n', { offset: 7 }],
    ['not JSON', 'hello\nworld\n', { offset: 12, sessionId: null }],
    ['CRLF and trailing spaces on a line', `${limits({ used_percent: 30, resets_at: 1796114187 }).trimEnd()}  \r\n`, { remainingPct: 70 }],
    ['used_percent above 100: spent', limits({ used_percent: 150 }), { remainingPct: 0 }],
    ['used_percent below 0: no reading', limits({ used_percent: -1 }), { remainingPct: null }],
    ['used_percent "NaN": no reading', limits({ used_percent: 'NaN' }), { remainingPct: null }],
    ['primary null, secondary known', limits(null, { used_percent: 70, resets_at: 1796500000 }), { remainingPct: 30, resetsAt: iso(1796500000) }],
    ['rate_limits of the wrong type', line({ type: 'token_count', rate_limits: 'high' }), { remainingPct: null }],
    ['resets_in_seconds without a line timestamp: from now', `${JSON.stringify({ type: 'event_msg', payload: { type: 'token_count', rate_limits: { primary: { used_percent: 5, resets_in_seconds: 60 } } } })}\n`, { resetsAt: '2026-11-30T07:31:00.000Z' }],
    ['model_context_window of the wrong type', line({ type: 'token_count', info: { model_context_window: '475000', last_token_usage: { total_tokens: 1000 } } }), { window: null, contextTokens: 1000 }],
    ['last_token_usage without total_tokens: input + output', line({ type: 'token_count', info: { last_token_usage: { input_tokens: 900, output_tokens: 100 } } }), { contextTokens: 1000 }],
    ['task_started gives the window', line({ type: 'task_started', model_context_window: 272_000 }), { window: 272_000 }],
    ['escape codes inside strings do not matter', `${JSON.stringify({ type: 'session_meta', payload: { id: '\u001b[1mabc' } })}\n`, { sessionId: '\u001b[1mabc' }],
    ['an error event at the usage limit', line({ type: 'error', message: "You've hit your usage limit.", codex_error_info: 'usage_limit_exceeded' }), { hardLimit: 'usage_limit', turnsCompleted: 0 }],
    ['codex_error_info as an object', line({ type: 'task_complete', error: { codex_error_info: { usage_limit_exceeded: {} } } }), { hardLimit: 'usage_limit' }],
    ['context_window_exceeded: overflow', line({ type: 'task_complete', error: { codex_error_info: 'context_window_exceeded' } }), { hardLimit: 'overflow' }],
    ['another error: no hard limit', line({ type: 'task_complete', error: { message: 'stream disconnected', codex_error_info: { http_connection_failed: { status: null } } } }), { hardLimit: null }],
  ])('%s', (_name, text, expected) => {
    const state = read(text);
    expect({ ...state, remainingPct: state.reading.remainingPct, resetsAt: state.reading.resetsAt }).toMatchObject(expected);
  });

  it('a later turn that completes without an error clears the hard limit; an unrelated error event does not', () => {
    expect(limited.hardLimit).toBe('usage_limit');
    expect(read(line({ type: 'error', message: 'reconnecting' }), limited).hardLimit).toBe('usage_limit');
    expect(read(line({ type: 'task_complete', last_agent_message: 'ok' }), limited)).toMatchObject({ hardLimit: null, turnsCompleted: 2 });
  });

  it('rate_limits null after a known reading: unknown again (the latest token_count decides)', () => {
    const known = read(limits({ used_percent: 30 }));
    expect(known.reading.remainingPct).toBe(70);
    expect(read(line({ type: 'token_count', info: null, rate_limits: null }), known).reading.remainingPct).toBeNull();
  });
});
