import { afterEach, describe, expect, it } from 'vitest';
import { claudeAccount, claudeRateHeaders, claudeSse } from '../../../src/drill/mock/claude.js';
import { blockText, parseClaudeRequest } from '../../../src/drill/mock/claudeRequest.js';
import { startMockServer, type MockServer } from '../../../src/drill/mock/server.js';
import type { MockAction, MockDeps, MockRateReading, MockTurn } from '../../../src/drill/mock/types.js';

const READING: MockRateReading = { fiveHourUsed: 42.5, weekUsed: 7, fiveHourResetsAt: 1_800_000_000, weekResetsAt: 1_800_500_000, rejected: false };

/** Claude Code's request: a system-reminder block beside the prompt, a tool call and its result. */
const BODY = {
  model: 'claude-opus-4-8',
  stream: true,
  system: [{ type: 'text', text: 'You are Claude Code.' }, { type: 'text', text: '# swarm protocol: you are lane-a, a lane of swarm "p"' }],
  tools: [{ name: 'Bash', input_schema: {} }, { name: 'Read', input_schema: {} }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }, { type: 'text', text: 'You are lane-a.' }] },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'Running: ls' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls', description: 'd' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }], is_error: false }] },
    { role: 'user', content: 'plain string' },
  ],
};

describe('parseClaudeRequest', () => {
  it('flattens the messages into the conversation', () => {
    const r = parseClaudeRequest(BODY);
    expect(r).toMatchObject({ shellTool: 'Bash', side: false, stream: true, model: 'claude-opus-4-8' });
    expect(r.conversation.system).toBe('You are Claude Code.\n# swarm protocol: you are lane-a, a lane of swarm "p"');
    expect(r.conversation.entries).toEqual([
      { role: 'user', text: '<system-reminder>x</system-reminder>' },
      { role: 'user', text: 'You are lane-a.' },
      { role: 'assistant', text: 'Running: ls' },
      { role: 'tool_call', id: 'toolu_1', command: 'ls' },
      { role: 'tool_result', id: 'toolu_1', output: 'a.txt', isError: false },
      { role: 'user', text: 'plain string' },
    ]);
  });

  it.each([
    ['no body', undefined],
    ['not an object', 'x'],
    ['no tools (a side request)', { messages: [{ role: 'user', content: 'title?' }] }],
  ])('%s: a side request, never a throw', (_n, body) => {
    expect(parseClaudeRequest(body)).toMatchObject({ side: true, shellTool: null, model: 'claude-mock' });
  });

  it.each([
    ['', ''],
    ['s', 's'],
    [[{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }], 'a\nb'],
    [42, ''],
  ])('blockText(%j)', (content, want) => expect(blockText(content)).toBe(want));
});

describe('claude headers and events', () => {
  it.each([
    [{ authorization: 'Bearer mock-c1' }, 'c1'],
    [{ 'x-api-key': 'mock-c2' }, 'c2'],
    [{ authorization: 'Bearer sk-real' }, null],
    [{}, null],
  ])('claudeAccount(%j)', (headers, want) => expect(claudeAccount(headers)).toBe(want));

  it('the rate-limit headers: utilization 0–1, resets in epoch seconds', () => {
    expect(claudeRateHeaders(READING)).toMatchObject({
      'anthropic-ratelimit-unified-status': 'allowed',
      'anthropic-ratelimit-unified-5h-utilization': '0.4250',
      'anthropic-ratelimit-unified-5h-reset': '1800000000',
      'anthropic-ratelimit-unified-7d-utilization': '0.0700',
      'anthropic-ratelimit-unified-7d-reset': '1800500000',
    });
    expect(claudeRateHeaders({ ...READING, rejected: true })['anthropic-ratelimit-unified-status']).toBe('rejected');
  });

  const events = (sse: string) => sse.trim().split('\n\n').map((block) => {
    const [event, data] = block.split('\n');
    return { event: event!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) as Record<string, unknown> };
  });
  const opts = { model: 'm', inputTokens: 10, toolId: 'toolu_x', shellTool: 'Bash' };

  it('a shell action: text, then a Bash tool_use with its input as input_json_delta, stop_reason tool_use', () => {
    const e = events(claudeSse({ kind: 'shell', command: 'swarm capacity --self --json' }, opts));
    expect(e.map((x) => x.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(e[4]!.data.content_block).toEqual({ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {} });
    expect(JSON.parse((e[5]!.data.delta as { partial_json: string }).partial_json)).toMatchObject({ command: 'swarm capacity --self --json' });
    expect(e[7]!.data.delta).toMatchObject({ stop_reason: 'tool_use' });
  });

  it('a say action: one text block, stop_reason end_turn', () => {
    const e = events(claudeSse({ kind: 'say', text: 'done' }, opts));
    expect(e.filter((x) => x.event === 'content_block_start')).toHaveLength(1);
    expect(e[2]!.data.delta).toEqual({ type: 'text_delta', text: 'done' });
    expect(e.at(-2)!.data.delta).toMatchObject({ stop_reason: 'end_turn' });
  });
});

describe('the mock server, Claude routes (HTTP on 127.0.0.1)', () => {
  let server: MockServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  const start = async (reading: MockRateReading) => {
    const turns: MockTurn[] = [];
    const records: Parameters<MockDeps['record']>[0][] = [];
    const action: MockAction = { kind: 'shell', command: 'ls' };
    server = await startMockServer({ brain: (t) => (turns.push(t), action), rates: () => reading, record: (r) => records.push(r) });
    return { turns, records, url: server.url };
  };
  const post = (url: string, path: string, body: unknown, token = 'mock-c1') =>
    fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('POST /v1/messages streams the action with the reading in the headers', async () => {
    const { turns, records, url } = await start(READING);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await post(url, '/v1/messages?beta=true', BODY);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('anthropic-ratelimit-unified-5h-utilization')).toBe('0.4250');
    expect(await res.text()).toContain('"name":"Bash"');
    expect(turns[0]).toMatchObject({ account: 'c1' });
    // What the turn carried is recorded: a resumed session is told from a fresh one by it.
    expect(records).toEqual([{ vendor: 'claude', account: 'c1', path: '/v1/messages', action: { kind: 'shell', command: 'ls' }, status: 200, entries: turns[0]!.conversation.entries, protocol: true }]);
    expect(records[0]!.entries!.map((e) => e.role)).toEqual(['user', 'user', 'assistant', 'tool_call', 'tool_result', 'user']);
  });

  it('a rejected reading is a 429 rate_limit_error, status rejected, the brain not asked', async () => {
    const { turns, url } = await start({ ...READING, rejected: true });
    const res = await post(url, '/v1/messages', BODY);
    expect(res.status).toBe(429);
    expect(res.headers.get('anthropic-ratelimit-unified-status')).toBe('rejected');
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(turns).toEqual([]);
  });

  it('count_tokens, models, a side request, a stranger, a bad body and an unknown route', async () => {
    const { turns, url } = await start(READING);
    expect(await (await post(url, '/v1/messages/count_tokens', BODY)).json()).toMatchObject({ input_tokens: expect.any(Number) });
    expect(await (await fetch(`${url}/v1/models?limit=100`, { headers: { authorization: 'Bearer mock-c1' } })).json()).toMatchObject({ data: [expect.objectContaining({ type: 'model' })] });
    const side = await post(url, '/v1/messages', { stream: false, messages: [{ role: 'user', content: 'title?' }] });
    expect(await side.json()).toMatchObject({ type: 'message', content: [{ type: 'text' }] });
    expect((await post(url, '/v1/messages', BODY, 'sk-real')).status).toBe(401);
    expect((await fetch(`${url}/v1/messages`, { method: 'POST', body: '{not json' })).status).toBe(400);
    expect((await fetch(`${url}/v2/nothing`)).status).toBe(404);
    expect(turns).toEqual([]);
  });
});
