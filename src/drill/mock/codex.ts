/**
 * Placeholder for Codex's Responses API (issue 14): the other half is written apart and replaces this
 * file; until then every Codex request is answered 501.
 */
import type { MockHandler } from './types.js';

const notYet: MockHandler = (req, _body, res, deps) => {
  deps.record({ vendor: 'codex', account: '', path: req.url ?? '', status: 501 });
  res.writeHead(501, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the mock has no Codex half yet' } }));
};

export const handleCodex: MockHandler = notYet;
export const handleCodexWebsocket: MockHandler = notYet;
