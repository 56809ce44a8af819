/**
 * The mock model server of `swarm drill --real`: one HTTP server on 127.0.0.1, a free port, that answers Claude
 * Code's Messages API (claude.ts) and Codex's Responses API (codex.ts) as the scripted agent decides
 * (brain.ts), with each account's quota from its script (rates.ts). Ended with `close()`.
 *
 * The account is the one the request's credential names (`mock-<account>`, see each handler). Unknown
 * routes answer 404; a body that is not JSON, 400.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleClaude } from './claude.js';
import { handleCodex, handleCodexWebsocket } from './codex.js';
import type { MockDeps, MockHandler } from './types.js';

export interface MockServer {
  /** `http://127.0.0.1:<port>` (no trailing slash, no /v1). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The handler for a method and path (query left out), or null. */
export function route(method: string, path: string): MockHandler | null {
  const bare = path.split('?')[0]!.replace(/\/+$/, '');
  if (method === 'POST' && (bare === '/v1/messages' || bare === '/v1/messages/count_tokens')) return handleClaude;
  if (method === 'GET' && bare.startsWith('/v1/models')) return handleClaude;
  if (bare === '/v1/responses') return method === 'POST' ? handleCodex : handleCodexWebsocket;
  return null;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serve(req: IncomingMessage, res: ServerResponse, deps: MockDeps): Promise<void> {
  const handler = route(req.method ?? 'GET', req.url ?? '/');
  const text = await readBody(req);
  if (handler === null) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'not_found_error', message: `no route ${req.method ?? ''} ${req.url ?? ''}` } }));
    return;
  }
  let body: unknown;
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'body is not JSON' } }));
    return;
  }
  await handler(req, body, res, deps);
}

export async function startMockServer(deps: MockDeps): Promise<MockServer> {
  const server = createServer((req, res) => {
    serve(req, res, deps).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: (error as Error).message } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
