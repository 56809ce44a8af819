/** The engine's saved state: a file that is not a state is told apart (issue 10 item 21), never taken for none. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepCorrupt, loadState, parseState, readState } from '../../src/runtime/engineState.js';

const GOOD = { version: 1, lanes: {}, order: [], timers: [], pending: [] };

describe('parseState', () => {
  it.each([
    ['empty', '', /^not JSON/],
    ['cut short', '{"version":1,"lanes":{', /^not JSON/],
    ['spaces only', '   \n', /^not JSON/],
    ['an array', '[]', /^not a JSON object/],
    ['null', 'null', /^not a JSON object/],
    ['another version', '{"version":2,"lanes":{}}', /^version 2, not 1/],
    ['no version', '{"lanes":{}}', /^version null, not 1/],
    ['no lanes', '{"version":1,"order":[],"timers":[],"pending":[]}', /^no lanes/],
    ['NUL bytes (a torn write)', '\u0000\u0000\u0000', /^not JSON/],
  ])('%s: corrupt', (_name, text, why) => {
    const read = parseState(text);
    expect(read.kind).toBe('corrupt');
    expect(read.kind === 'corrupt' ? read.why : '').toMatch(why);
  });

  it.each([
    ['one line', JSON.stringify(GOOD)],
    ['a trailing line break and spaces', `${JSON.stringify(GOOD)}\n  `],
    ['CRLF', `${JSON.stringify(GOOD, null, 1).replace(/\n/g, '\r\n')}\r\n`],
  ])('%s: a state', (_name, text) => {
    expect(parseState(text)).toMatchObject({ kind: 'ok', state: GOOD });
  });
});

describe('a ledger read back (SPEC 10.7)', () => {
  const g = { generation: 1, account: 'c1', vendor: null, started: 1, ended: null, end: null, turns: 2, processes: [], context_pct_at_end: null, capacity_start: null, capacity_end: null };
  it('is kept as saved; an agent whose entries are not the fold\'s shape is left out, the others kept', () => {
    const read = (ledger: unknown) => parseState(JSON.stringify({ ...GOOD, ledger }));
    expect(read({ 'lane-a': [g] })).toMatchObject({ kind: 'ok', state: { ledger: { 'lane-a': [g] } } });
    expect(read({ 'lane-a': [g], 'lane-b': 'x', 'lane-c': [{ generation: '1' }], 'lane-d': [{ generation: 1, processes: {} }] })).toMatchObject({ kind: 'ok', state: { ledger: { 'lane-a': [g] } } });
    const odd = read({ 'lane-b': 'x' });
    expect(odd.kind === 'ok' ? odd.state.ledger : 'corrupt').toEqual({});
    for (const bad of [[], 'x', null, 5]) {
      const r = read(bad);
      expect(r.kind === 'ok' ? r.state.ledger : 'corrupt').toEqual({});
    }
    const none = parseState(JSON.stringify(GOOD));
    expect(none.kind === 'ok' ? none.state.ledger : 'corrupt').toBeUndefined();
  });
});

describe('an older state file', () => {
  // Issue 11: before gate runs were records, a gate in flight was `gatePending: true`.
  it('a lane saved with gatePending: true loads with a gate in flight; false loads with none', () => {
    const lane = (name: string, gatePending: boolean) => ({ name, generation: 2, lastActivity: 5, state: 'working', gatePending });
    const text = JSON.stringify({ ...GOOD, lanes: { a: lane('a', true), b: lane('b', false) }, order: ['a', 'b'] });
    const read = parseState(text);
    const lanes = read.kind === 'ok' ? read.state.lanes : {};
    expect(lanes.a).toEqual({ name: 'a', generation: 2, lastActivity: 5, state: 'working', gate: { id: 'a/g2/gate/saved', command: 'done_when', since: 5 } });
    expect(lanes.b).toEqual({ name: 'b', generation: 2, lastActivity: 5, state: 'working', gate: null });
  });
});

describe('the state file', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('none, a state, or corrupt; a corrupt one is moved aside with its bytes kept', () => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-state-'));
    const path = join(dir, 'state.json');
    expect(readState(path)).toEqual({ kind: 'none' });
    writeFileSync(path, '{"version":1,"lan');
    expect(readState(path).kind).toBe('corrupt');
    expect(loadState(path)).toBeNull();
    const kept = keepCorrupt(path, new Date('2025-01-02T03:04:05.678Z'));
    expect(kept).toBe(join(dir, 'state.corrupt-20250102T030405Z.json'));
    expect(readdirSync(dir)).toEqual(['state.corrupt-20250102T030405Z.json']);
    expect(readFileSync(kept, 'utf8')).toBe('{"version":1,"lan');
  });
});
