import { describe, expect, it } from 'vitest';
import { codexRateHeaders, codexSse, codexUsageLimitBody, estimateTokens, execScript, shellCallItem } from '../../../src/drill/mock/codexEvents.js';
import type { MockRateReading } from '../../../src/drill/mock/types.js';

const READING: MockRateReading = { fiveHourUsed: 42.5, weekUsed: 13, fiveHourResetsAt: 1_796_114_187, weekResetsAt: 1_796_600_000, rejected: false };

/** Server-sent events back into [event name, data] pairs, checking each event is one `event:` and one `data:` line. */
function events(sse: string): [string, Record<string, unknown>][] {
  expect(sse.endsWith('\n\n')).toBe(true);
  return sse.slice(0, -2).split('\n\n').map((block) => {
    const lines = block.split('\n');
    expect(lines).toHaveLength(2);
    const data = JSON.parse(lines[1]!.replace(/^data: /, '')) as Record<string, unknown>;
    expect(lines[0]).toBe(`event: ${String(data.type)}`);
    return [String(data.type), data];
  });
}

describe('codexRateHeaders', () => {
  it('the reading as Codex 0.171.0 reads it into token_count.rate_limits', () => {
    expect(codexRateHeaders(READING)).toEqual({
      'x-codex-primary-used-percent': '42.5',
      'x-codex-primary-window-minutes': '300',
      'x-codex-primary-reset-at': '1796114187',
      'x-codex-secondary-used-percent': '13',
      'x-codex-secondary-window-minutes': '10080',
      'x-codex-secondary-reset-at': '1796600000',
    });
  });
});

describe('codexUsageLimitBody', () => {
  it.each([
    ['the five hours spent', { ...READING, fiveHourUsed: 100, rejected: true }, 1_796_114_187],
    ['the week spent', { ...READING, weekUsed: 100, rejected: true }, 1_796_600_000],
  ])('%s: resets at that window\'s reset', (_what, reading, resetsAt) => {
    expect(JSON.parse(codexUsageLimitBody(reading, 1_796_110_000))).toEqual({
      error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'pro', resets_at: resetsAt, resets_in_seconds: resetsAt - 1_796_110_000 },
    });
  });

  it('a reset already past: zero seconds to wait, never negative', () => {
    expect(JSON.parse(codexUsageLimitBody(READING, 1_800_000_000)).error.resets_in_seconds).toBe(0);
  });
});

describe('codexSse', () => {
  const ids = { response: 'resp_1', call: 'call_1' };

  it.each(['done', '', 'two\nlines', 'crlf\r\nend', 'trailing   ', '\u001b[31mansi\u001b[0m'])('a message %j: created, added, one text delta, done, completed with usage', (text) => {
    const out = events(codexSse({ kind: 'say', text }, 'code_exec', ids, 100));
    expect(out.map(([type]) => type)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done', 'response.completed']);
    expect(out[2]![1]).toMatchObject({ item_id: 'msg_call_1', delta: text });
    expect(out[3]![1].item).toEqual({ type: 'message', id: 'msg_call_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
    const outputTokens = estimateTokens(text.length);
    expect(out[4]![1]).toEqual({
      type: 'response.completed',
      response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 100 + outputTokens } },
    });
  });

  it('a shell command through code mode\'s exec: one custom_tool_call item, added then done, no text', () => {
    const out = events(codexSse({ kind: 'shell', command: 'echo hi > marker.txt' }, 'code_exec', ids, 10));
    expect(out.map(([type]) => type)).toEqual(['response.created', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(out[1]![1].item).toEqual({ type: 'custom_tool_call', id: 'ctc_call_1', call_id: 'call_1', name: 'exec', input: execScript('echo hi > marker.txt'), status: 'completed' });
  });

  it('a shell command with no shell tool offered: said as text instead', () => {
    const out = events(codexSse({ kind: 'shell', command: 'ls' }, null, ids, 10));
    expect(out[2]![1].delta).toBe('(the mock has no shell tool to run: ls)');
  });
});

describe('shellCallItem', () => {
  it.each([
    ['exec_command', {}, { cmd: 'make test' }],
    ['exec_command', { escalate: 'outside' }, { cmd: 'make test', sandbox_permissions: 'require_escalated', justification: 'outside' }],
    ['shell', {}, { command: ['bash', '-lc', 'make test'] }],
    ['shell', { escalate: 'outside' }, { command: ['bash', '-lc', 'make test'], sandbox_permissions: 'require_escalated', justification: 'outside' }],
  ] as const)('%s %j', (tool, extra, args) => {
    const item = shellCallItem({ kind: 'shell', command: 'make test', ...extra }, tool, 'c1');
    expect(item).toMatchObject({ type: 'function_call', call_id: 'c1', name: tool });
    expect(JSON.parse(item.arguments as string)).toEqual(args);
  });

  it('code mode: the escalation rides in the exec_command call of the script', () => {
    const item = shellCallItem({ kind: 'shell', command: 'touch /var/tmp/x', escalate: 'Write "outside"' }, 'code_exec', 'c1');
    expect(item.input).toContain('tools.exec_command({ cmd: "touch /var/tmp/x", sandbox_permissions: "require_escalated", justification: "Write \\"outside\\"", yield_time_ms: 30000 })');
  });
});

describe('execScript', () => {
  it('starts with the pragma that lets it wait up to 10 minutes, and prints one marker line', () => {
    const script = execScript('ls');
    expect(script.split('\n')[0]).toBe('// @exec: {"yield_time_ms": 600000}');
    expect(script).toContain('text(JSON.stringify({ exit_code: r.exit_code ?? null, output }));');
    expect(script).toContain('tools.write_stdin({ session_id: r.session_id, yield_time_ms: 30000 })');
  });
});
