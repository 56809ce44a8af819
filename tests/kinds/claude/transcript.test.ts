import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTranscriptTail, type TranscriptTail } from '../../../src/kinds/claude/transcript.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/claude/${name}.jsonl`, import.meta.url), 'utf8');
const NONE: TranscriptTail = { contextTokens: null, contextPct: null, model: null, hardLimit: null };

describe('readTranscriptTail: fixtures', () => {
  it.each<[string, number | null, TranscriptTail]>([
    // a2: 12 + 2280 + 81918; the side chains (190k, 150k), the synthetic entry, the overloaded API error and the torn last line are skipped
    ['transcript-main', 200_000, { contextTokens: 84_210, contextPct: 42.1, model: 'claude-sonnet-4-6', hardLimit: null }],
    ['transcript-main', null, { contextTokens: 84_210, contextPct: null, model: 'claude-sonnet-4-6', hardLimit: null }],
    ['transcript-main', 1_000_000, { contextTokens: 84_210, contextPct: 8.4, model: 'claude-sonnet-4-6', hardLimit: null }],
    // CRLF line ends; the last entry is an API error with rate_limit
    ['transcript-rate-limit', 200_000, { contextTokens: 84_210, contextPct: 42.1, model: 'claude-sonnet-4-6', hardLimit: 'usage_limit' }],
    ['transcript-auth', 200_000, { contextTokens: 25_010, contextPct: 12.5, model: 'claude-sonnet-4-6', hardLimit: 'login' }],
    // a real reply after the rate-limit error: the limit has passed
    ['transcript-limit-passed', 200_000, { contextTokens: 91_004, contextPct: 45.5, model: 'claude-sonnet-4-6', hardLimit: null }],
    // compact_boundary after the last reply: context unknown until the next one
    ['transcript-compacted', 200_000, { contextTokens: null, contextPct: null, model: 'claude-sonnet-4-6', hardLimit: null }],
  ])('%s (window %s)', (name, window, expected) => {
    expect(readTranscriptTail(fixture(name), window)).toEqual(expected);
  });
});

describe('readTranscriptTail: edges', () => {
  const reply = (usage: unknown, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ type: 'assistant', isSidechain: false, message: { model: 'claude-sonnet-4-6', usage }, ...extra });
  const u = { input_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 900 };
  it.each<[string, string, Partial<TranscriptTail>]>([
    ['empty', '', NONE],
    ['blank lines only', '\n\r\n  \n', NONE],
    ['not JSON', 'hello\nworld', NONE],
    ['a torn first line (tail read from the middle)', `_tokens":3}}}\n${reply(u)}\n`, { contextTokens: 1000 }],
    ['no trailing newline', reply(u), { contextTokens: 1000 }],
    ['CRLF and trailing spaces', `${reply(u)}   \r\n\r\n`, { contextTokens: 1000, contextPct: 0.5 }],
    ['usage of the wrong type', reply('lots'), NONE],
    ['usage fields of the wrong type count as absent', reply({ input_tokens: '100', cache_read_input_tokens: 50 }), { contextTokens: 50 }],
    ['negative tokens count as 0', reply({ input_tokens: -100, cache_read_input_tokens: 50 }), { contextTokens: 50 }],
    ['a side chain only', reply(u, { isSidechain: true }), NONE],
    ['a user entry with usage is not a reply', JSON.stringify({ type: 'user', message: { usage: u } }), NONE],
    ['an API error without an error field is no limit', reply(u, { isApiErrorMessage: true }), NONE],
    ['an API error of the wrong type is no limit', reply(u, { isApiErrorMessage: true, error: 429 }), NONE],
    ['an API error with an overflow text', reply(u, { isApiErrorMessage: true, error: 'invalid_request', message: { model: '<synthetic>', content: [{ type: 'text', text: 'Prompt is too long' }] } }), { hardLimit: 'overflow' }],
    ['a billing error', reply(u, { isApiErrorMessage: true, error: 'billing_error' }), { hardLimit: 'payment' }],
    ['a rate limit, then an overloaded error: still limited', `${reply(u, { isApiErrorMessage: true, error: 'rate_limit' })}\n${reply(u, { isApiErrorMessage: true, error: 'overloaded' })}`, { hardLimit: 'usage_limit' }],
    ['a side-chain API error is no limit', reply(u, { isApiErrorMessage: true, error: 'rate_limit', isSidechain: true }), NONE],
    ['escape codes inside strings do not matter', reply(u, { message: { model: '\u001b[31mclaude\u001b[0m', usage: u } }), { contextTokens: 1000, model: '\u001b[31mclaude\u001b[0m' }],
    ['tokens above the window: 100%', reply({ input_tokens: 300_000 }), { contextPct: 100 }],
  ])('%s', (_name, text, expected) => {
    expect(readTranscriptTail(text, 200_000)).toMatchObject(expected);
  });

  it('NaN and a zero window give no %', () => {
    expect(readTranscriptTail(reply(u), Number.NaN).contextPct).toBeNull();
    expect(readTranscriptTail(reply(u), 0).contextPct).toBeNull();
  });
});
