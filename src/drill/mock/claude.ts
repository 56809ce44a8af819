/**
 * The Claude half of the mock model server: the Messages API as Claude Code 2.1.197 calls it with
 * `ANTHROPIC_BASE_URL=http://127.0.0.1:<port>` and the token `mock-<account>`
 * (`CLAUDE_CODE_OAUTH_TOKEN`, a `Bearer`, or `x-api-key`).
 *
 * - `POST /v1/messages`: the agent's turn. The account's reading (rates) goes out as the
 *   `anthropic-ratelimit-unified-*` headers; a rejected reading is a 429 `rate_limit_error`; else the
 *   brain's action streams back as server-sent events (a text block, then for a shell action a
 *   `tool_use` block with `input_json_delta`; stop_reason tool_use | end_turn). The request's
 *   conversation goes into the record (what a resumed session sent: `swarm drill --real`'s resume item).
 * - Side requests (no tools offered: title, topic, quota check) get a short text, no brain, no reading.
 * - `POST /v1/messages/count_tokens` and `GET /v1/models` answer what the CLI needs to go on.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseClaudeRequest } from './claudeRequest.js';
import { SWARM_PROTOCOL, type MockAction, type MockHandler, type MockRateReading } from './types.js';

/** The account a request authenticates as: a `Bearer mock-<account>` or `x-api-key: mock-<account>`. */
export function claudeAccount(headers: IncomingMessage['headers']): string | null {
  const auth = typeof headers.authorization === 'string' ? headers.authorization.replace(/^Bearer\s+/i, '') : '';
  const key = typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : '';
  const match = /^mock-(\S+)$/.exec((auth || key).trim());
  return match ? match[1]! : null;
}

/** The rate-limit headers of one reading (utilization 0–1, resets in epoch seconds). */
export function claudeRateHeaders(r: MockRateReading): Record<string, string> {
  const status = r.rejected ? 'rejected' : 'allowed';
  return {
    'anthropic-ratelimit-unified-status': status,
    'anthropic-ratelimit-unified-5h-status': r.rejected ? 'rejected' : 'allowed',
    'anthropic-ratelimit-unified-5h-utilization': (r.fiveHourUsed / 100).toFixed(4),
    'anthropic-ratelimit-unified-5h-reset': String(r.fiveHourResetsAt),
    'anthropic-ratelimit-unified-7d-status': 'allowed',
    'anthropic-ratelimit-unified-7d-utilization': (r.weekUsed / 100).toFixed(4),
    'anthropic-ratelimit-unified-7d-reset': String(r.weekResetsAt),
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
    'anthropic-ratelimit-unified-reset': String(r.fiveHourResetsAt),
  };
}

/** The server-sent events of one reply: the action as content blocks, then the stop. */
export function claudeSse(action: MockAction, opts: { model: string; inputTokens: number; toolId: string; shellTool: string | null }): string {
  const events: [string, unknown][] = [];
  const usage = { input_tokens: opts.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
  events.push(['message_start', { type: 'message_start', message: { id: `msg_${opts.toolId}`, type: 'message', role: 'assistant', model: opts.model, content: [], stop_reason: null, stop_sequence: null, usage } }]);
  const shell = action.kind === 'shell' && opts.shellTool !== null;
  const text = action.kind === 'say' ? action.text : `Running: ${action.command}`;
  events.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }]);
  events.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }]);
  events.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  if (shell) {
    const input = JSON.stringify({ command: action.command, description: 'swarm drill step' });
    events.push(['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: opts.toolId, name: opts.shellTool, input: {} } }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: input } }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index: 1 }]);
  }
  const output = Math.max(1, Math.ceil(text.length / 4));
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: shell ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: output } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function reply(res: ServerResponse, action: MockAction, stream: boolean, opts: Parameters<typeof claudeSse>[1], headers: Record<string, string>): void {
  if (stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers }).end(claudeSse(action, opts));
    return;
  }
  const text = action.kind === 'say' ? action.text : `Running: ${action.command}`;
  json(res, 200, { id: `msg_${opts.toolId}`, type: 'message', role: 'assistant', model: opts.model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: opts.inputTokens, output_tokens: 1 } }, headers);
}

export const handleClaude: MockHandler = (req, body, res, deps) => {
  const path = (req.url ?? '').split('?')[0]!;
  const account = claudeAccount(req.headers);
  if (req.method === 'GET') {
    deps.record({ vendor: 'claude', account: account ?? '', path, status: 200 });
    return json(res, 200, { data: [{ type: 'model', id: 'claude-mock', display_name: 'Claude (mock)', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: 'claude-mock', last_id: 'claude-mock' });
  }
  const inputTokens = Math.max(1, Math.ceil(JSON.stringify(body ?? '').length / 4));
  if (path.endsWith('/count_tokens')) return json(res, 200, { input_tokens: inputTokens });
  if (account === null) {
    deps.record({ vendor: 'claude', account: '', path, status: 401 });
    return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'the mock expects the token mock-<account>' } });
  }
  const request = parseClaudeRequest(body);
  const opts = { model: request.model, inputTokens, toolId: `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`, shellTool: request.shellTool };
  if (request.side) return reply(res, { kind: 'say', text: 'Swarm lane' }, request.stream, opts, {});
  const reading = deps.rates(account);
  const headers = claudeRateHeaders(reading);
  if (reading.rejected) {
    deps.record({ vendor: 'claude', account, path, status: 429, entries: request.conversation.entries, protocol: SWARM_PROTOCOL.test(request.conversation.system) });
    return json(res, 429, { type: 'error', error: { type: 'rate_limit_error', message: "You've hit your session limit" } }, { ...headers, 'x-should-retry': 'false' });
  }
  const action = deps.brain({ account, conversation: request.conversation, ...(reading.previousFiveHourUsed === undefined ? {} : { sentUsed: reading.previousFiveHourUsed }) });
  deps.record({ vendor: 'claude', account, path, action, status: 200, entries: request.conversation.entries, protocol: SWARM_PROTOCOL.test(request.conversation.system) });
  reply(res, action, request.stream, opts, headers);
};
