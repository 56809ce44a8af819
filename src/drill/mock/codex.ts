/**
 * The Codex half of the mock model server: the Responses API as Codex 0.171.0 calls it with
 * `openai_base_url = "http://127.0.0.1:<port>/v1"` and an API key `mock-<account>` in auth.json.
 *
 * Paths it calls: `GET /v1/responses` with `Upgrade: websocket` first (answered 426 by
 * `handleCodexWebsocket`, after which Codex uses HTTP at once instead of retrying five times),
 * then `POST /v1/responses` (`handleCodex`), for the lane's turns and for its own thread-title
 * request (answered here without the brain or the quota script). No models list, no other path.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { codexRateHeaders, codexSse, codexUsageLimitBody, estimateTokens } from './codexEvents.js';
import { parseCodexRequest, type CodexShellTool } from './codexRequest.js';
import { SWARM_PROTOCOL, type MockAction, type MockDeps, type MockHandler, type MockRecord } from './types.js';

/** The account a request authenticates as: `Authorization: Bearer mock-<account>` (null: none). */
export function codexAccount(authorization: string | undefined): string | null {
  const match = /^Bearer mock-(\S+)$/.exec(authorization ?? '');
  return match ? match[1]! : null;
}

const header = (req: IncomingMessage, name: string): string => {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const apiError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, code, param: null } });

/** The WebSocket transport Codex tries first: declined with 426 Upgrade Required, so it falls back to HTTP. */
export const handleCodexWebsocket: MockHandler = (req, _body, res, deps) => {
  const path = req.url ?? '';
  deps.record({ vendor: 'codex', account: codexAccount(header(req, 'authorization')) ?? '', path, status: 426 });
  res.writeHead(426, { 'content-type': 'text/plain', connection: 'close' });
  res.end('the mock speaks HTTP server-sent events only');
};

export const handleCodex: MockHandler = (req, body, res, deps) => {
  if (req.method === 'GET') return handleCodexWebsocket(req, body, res, deps);
  const path = req.url ?? '';
  const account = codexAccount(header(req, 'authorization'));
  if (account === null) {
    deps.record({ vendor: 'codex', account: '', path, status: 401 });
    return json(res, 401, apiError('the mock expects the API key mock-<account> (auth.json OPENAI_API_KEY)', 'invalid_request_error', 'invalid_api_key'));
  }
  const request = parseCodexRequest(body, header(req, 'x-codex-turn-metadata'));
  if ('error' in request) {
    deps.record({ vendor: 'codex', account, path, status: 400 });
    return json(res, 400, apiError(request.error, 'invalid_request_error'));
  }
  const inputTokens = estimateTokens(JSON.stringify(body).length);
  if (request.side === 'title') return reply(res, deps, { account, path: `${path} (codex thread title)`, action: { kind: 'say', text: 'Swarm lane' }, tool: null, headers: {}, inputTokens });
  // What the turn carried, for the evidence: a resumed session sends its earlier turns (or a previous response id).
  const carried = {
    entries: request.conversation.entries, protocol: SWARM_PROTOCOL.test(request.conversation.system),
    ...(request.previousResponseId === null ? {} : { previousResponseId: request.previousResponseId }),
  };
  const reading = deps.rates(account);
  const headers = codexRateHeaders(reading);
  if (reading.rejected) {
    deps.record({ vendor: 'codex', account, path, status: 429, ...carried });
    return json(res, 429, codexUsageLimitBody(reading, Math.floor(Date.now() / 1000)), headers);
  }
  const action = deps.brain({ account, conversation: request.conversation, ...(reading.previousFiveHourUsed === undefined ? {} : { sentUsed: reading.previousFiveHourUsed }) });
  if (action.kind === 'shell' && request.tool === null) {
    deps.record({ vendor: 'codex', account, path, action, status: 400, ...carried });
    return json(res, 400, apiError('the brain asked for a shell command, but the request offers no exec_command, shell or exec tool', 'invalid_request_error'));
  }
  reply(res, deps, { account, path, action, tool: request.tool, headers, inputTokens, carried });
};

function reply(
  res: ServerResponse,
  deps: MockDeps,
  r: { account: string; path: string; action: MockAction; tool: CodexShellTool | null; headers: Record<string, string>; inputTokens: number; carried?: Pick<MockRecord, 'entries' | 'previousResponseId' | 'protocol'> },
): void {
  const id = randomUUID().replaceAll('-', '');
  deps.record({ vendor: 'codex', account: r.account, path: r.path, action: r.action, status: 200, ...r.carried });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...r.headers });
  res.end(codexSse(r.action, r.tool, { response: `resp_${id}`, call: `call_${id}` }, r.inputTokens));
}
