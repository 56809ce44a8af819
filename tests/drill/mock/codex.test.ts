import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codexAccount, handleCodex } from '../../../src/drill/mock/codex.js';
import type { MockAction, MockDeps, MockRateReading, MockTurn } from '../../../src/drill/mock/types.js';

const OK: MockRateReading = { fiveHourUsed: 50, weekUsed: 10, fiveHourResetsAt: 2_000_000_000, weekResetsAt: 2_000_500_000, rejected: false };
const CODE_MODE = { type: 'additional_tools', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }] }] };
const prompt = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

let server: Server;
let base = '';
let state: { reading: MockRateReading; action: MockAction; turns: MockTurn[]; readings: string[]; records: Parameters<MockDeps['record']>[0][] };
const deps: MockDeps = {
  brain: (turn) => (state.turns.push(turn), state.action),
  rates: (account) => (state.readings.push(account), state.reading),
  record: (entry) => state.records.push(entry),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => void handleCodex(req, text === '' ? undefined : JSON.parse(text), res, deps));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  state = { reading: OK, action: { kind: 'shell', command: 'ls' }, turns: [], readings: [], records: [] };
});

const post = (body: unknown, headers: Record<string, string> = { authorization: 'Bearer mock-o1' }) =>
  fetch(`${base}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('handleCodex', () => {
  it('a turn: the brain\'s action as events, with the reading\'s rate-limit headers, recorded', async () => {
    const res = await post({ input: [CODE_MODE, prompt('make it')] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-codex-primary-used-percent')).toBe('50');
    expect(res.headers.get('x-codex-secondary-reset-at')).toBe('2000500000');
    const body = await res.text();
    expect(body).toMatch(/^event: response\.created\n/);
    expect(body).toContain('"type":"custom_tool_call"');
    expect(body).toMatch(/event: response\.completed\ndata: .*\n\n$/);
    expect(state.turns).toEqual([{ account: 'o1', conversation: { system: '', entries: [{ role: 'user', text: 'make it' }] } }]);
    expect(state.readings).toEqual(['o1']);
    expect(state.records).toEqual([{ vendor: 'codex', account: 'o1', path: '/v1/responses', action: { kind: 'shell', command: 'ls' }, status: 200, entries: [{ role: 'user', text: 'make it' }], protocol: false }]);
  });

  it('a turn that continues a stored response: its previous_response_id recorded with what it carried', async () => {
    await post({ input: [CODE_MODE, prompt('go on')], previous_response_id: 'resp_9' });
    expect(state.records).toEqual([{ vendor: 'codex', account: 'o1', path: '/v1/responses', action: { kind: 'shell', command: 'ls' }, status: 200, entries: [{ role: 'user', text: 'go on' }], protocol: false, previousResponseId: 'resp_9' }]);
  });

  it('a rejected reading: 429 usage_limit_reached with the headers, and the brain is not asked', async () => {
    state.reading = { ...OK, fiveHourUsed: 100, rejected: true };
    const res = await post({ input: [CODE_MODE, prompt('make it')] });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-codex-primary-used-percent')).toBe('100');
    expect(await res.json()).toMatchObject({ error: { type: 'usage_limit_reached', resets_at: 2_000_000_000 } });
    expect(state.turns).toEqual([]);
    expect(state.records).toEqual([{ vendor: 'codex', account: 'o1', path: '/v1/responses', status: 429, entries: [{ role: 'user', text: 'make it' }], protocol: false }]);
  });

  it('Codex\'s thread-title request: a title, without the brain or a reading', async () => {
    const res = await post({ input: [CODE_MODE, prompt('x')] }, { authorization: 'Bearer mock-o1', 'x-codex-turn-metadata': '{"thread_source":"thread_title"}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-codex-primary-used-percent')).toBeNull();
    expect(await res.text()).toContain('"delta":"Swarm lane"');
    expect(state.turns).toEqual([]);
    expect(state.readings).toEqual([]);
    expect(state.records).toEqual([{ vendor: 'codex', account: 'o1', path: '/v1/responses (codex thread title)', action: { kind: 'say', text: 'Swarm lane' }, status: 200 }]);
  });

  it('the WebSocket upgrade Codex tries first: 426, so it uses HTTP', async () => {
    const res = await fetch(`${base}/v1/responses`, { headers: { authorization: 'Bearer mock-o1' } });
    expect(res.status).toBe(426);
    expect(state.records).toEqual([{ vendor: 'codex', account: 'o1', path: '/v1/responses', status: 426 }]);
  });

  it.each([
    ['no key', {}, 401, 'invalid_api_key'],
    ['a key not of the mock', { authorization: 'Bearer sk-real' }, 401, 'invalid_api_key'],
  ])('%s: 401 saying which key it expects', async (_what, headers, status, code) => {
    const res = await post({ input: [] }, headers);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code, message: expect.stringContaining('mock-<account>') } });
    expect(state.records).toEqual([{ vendor: 'codex', account: '', path: '/v1/responses', status }]);
  });

  it('a body with no input: 400 naming what is missing', async () => {
    const res = await post({ model: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'the request body has no `input` array' } });
  });

  it('a shell action when the request offers no shell tool: 400, recorded with the action', async () => {
    const res = await post({ input: [prompt('x')] });
    expect(res.status).toBe(400);
    expect(state.records).toEqual([{ vendor: 'codex', account: 'o1', path: '/v1/responses', action: { kind: 'shell', command: 'ls' }, status: 400, entries: [{ role: 'user', text: 'x' }], protocol: false }]);
  });
});

describe('codexAccount', () => {
  it.each([
    ['Bearer mock-o1', 'o1'],
    ['Bearer mock-codex-2', 'codex-2'],
    ['Bearer sk-abc', null],
    ['mock-o1', null],
    ['Bearer mock-', null],
    [undefined, null],
  ])('%j → %j', (auth, account) => {
    expect(codexAccount(auth)).toBe(account);
  });
});
