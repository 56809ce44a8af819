/**
 * The host relay's wire: frames encoded one a line and read back from chunks split anywhere; lines
 * that are no frame (empty, CRLF, trailing spaces, escape codes, a banner, oversize, torn) told, never
 * thrown; every field of every frame checked.
 */
import { describe, expect, it } from 'vitest';
import { chunksOf, encodeFrame, FrameReader, MAX_CHUNK, MAX_LINE, parseToEngine, parseToHost, RELAY_PROTOCOL, type Decoded, type ToEngine, type ToHost } from '../../../src/core/host/relay.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const FACTS = { hostname: 'box', pidns: 'pid:[4026531836]', home: '/home/u', env: { PATH: '/usr/bin' }, node: '/usr/bin/node', bin: '/opt/swarm/bin/swarm.cjs', version: '0.1.0', protocol: RELAY_PROTOCOL, shared: false };

/** Every line of `input` pushed in chunks of `size` bytes, then the end. */
function readAll<F>(reader: FrameReader<F>, input: Uint8Array, size: number): Decoded<F>[] {
  const out: Decoded<F>[] = [];
  for (let at = 0; at < input.length; at += size) out.push(...reader.push(input.subarray(at, at + size)));
  return [...out, ...reader.end()];
}

const TO_HOST: ToHost[] = [
  { t: 'hello', v: RELAY_PROTOCOL, token: 'a1b2', host: 'box' },
  { t: 'have', sizes: { '.swarm/spool/r1/a-g1/records.jsonl': 120 }, digests: { '.swarm/capacity/c1.json': 'ab'.repeat(32) } },
  { t: 'go' },
  { t: 'write', id: 7, path: '.swarm/mailbox/lane-a.md', at: 0, data: bytes('hello ü\n'), last: true, mode: 0o600 },
  { t: 'write', id: 8, path: 'PLAN.md', at: 0, data: new Uint8Array(0), last: true, mode: 0o644 },
  { t: 'stat', id: 9, pid: 4242 },
  { t: 'git', id: 10, checkout: '/srv/lane b' },
  { t: 'tmux', id: 13, args: ['-L', 'swarm-box', 'split-window', '-e', 'X=a b\n"c"', ';', 'select-pane'] },
  { t: 'resend', path: '.swarm/spool/r1/a-g1/records.jsonl', from: 17 },
];

const TO_ENGINE: ToEngine[] = [
  { t: 'hello', facts: FACTS },
  { t: 'hello', facts: { ...FACTS, pidns: null, home: null, shared: true } },
  { t: 'append', path: '.swarm/spool/r1/a-g1/records.jsonl', at: 3, data: bytes('{"a":1}\n{"b"') },
  { t: 'file', path: 'analysis_results/handoff/a-g1.yaml', at: 0, data: bytes('x: 1\n'), last: true, mode: 0o600 },
  { t: 'wrote', id: 7, error: null },
  { t: 'wrote', id: 8, error: 'PLAN.md: EACCES' },
  { t: 'proc', id: 9, proc: { pid: 4242, startTicks: 99 } },
  { t: 'proc', id: 10, proc: null },
  { t: 'git', id: 11, state: { repo: '/srv/a', branch: 'main', head: 'ab'.repeat(20), pushed: null, uncommitted: ['a b.txt', 'ü'] }, error: null },
  { t: 'git', id: 12, state: null, error: 'spawnSync git ENOENT' },
  { t: 'ran', id: 13, code: 0, stdout: '%3 123 @1\n', stderr: '' },
  { t: 'ran', id: 14, code: null, stdout: '', stderr: 'spawn tmux ENOENT' },
  { t: 'problem', message: 'a second hello' },
];

describe('encodeFrame and FrameReader: every frame back as it was, however the bytes are split', () => {
  const wire = (frames: (ToHost | ToEngine)[]) => bytes(frames.map(encodeFrame).join(''));
  it.each([1, 2, 3, 7, 64, 100_000])('chunks of %i bytes', (size) => {
    expect(readAll(new FrameReader(parseToHost), wire(TO_HOST), size)).toEqual(TO_HOST.map((frame) => ({ frame: normal(frame) })));
    expect(readAll(new FrameReader(parseToEngine), wire(TO_ENGINE), size)).toEqual(TO_ENGINE.map((frame) => ({ frame: normal(frame) })));
  });

  it('each frame is one line of ASCII-safe JSON, its bytes as base64', () => {
    const line = encodeFrame({ t: 'append', path: 'p.jsonl', at: 0, data: Buffer.from([0, 10, 13, 27, 255]) });
    expect(line).toBe('{"t":"append","path":"p.jsonl","at":0,"data":"AAoNG/8="}\n');
  });

  it('a slice of a larger buffer sends only its own bytes', () => {
    const big = Buffer.from('0123456789');
    expect(encodeFrame({ t: 'append', path: 'p.jsonl', at: 0, data: big.subarray(3, 5) })).toContain(`"data":"${Buffer.from('34').toString('base64')}"`);
  });
});

/** A decoded frame compares by value: its data as a plain Buffer. */
function normal<F extends ToHost | ToEngine>(frame: F): F {
  return 'data' in frame ? { ...frame, data: Buffer.from(frame.data) } : frame;
}

describe('FrameReader: lines that are no frame', () => {
  const good = encodeFrame({ t: 'go' });
  it.each<[string, string, string | RegExp]>([
    ['an empty line', '\n', 'an empty line'],
    ['CRLF', '{"t":"go"}\r\n', /^a line ending in CRLF: /],
    ['trailing spaces', '{"t":"go"}  \n', /^not a frame: /],
    ['leading spaces', '  {"t":"go"}\n', /^not a frame: /],
    ['an escape code before the frame', '\u001b[0m{"t":"go"}\n', /^not a frame: "\\u001b\[0m/],
    ['a login banner', 'Welcome to Ubuntu 24.04\n', 'not a frame: "Welcome to Ubuntu 24.04"'],
    ['a JSON array', '[1,2]\n', /^not a frame: /],
    ['broken JSON', '{"t":"go"\n', /^not a frame: /],
    ['JSON with a raw control character', '{"t":"go","x":"\u001b"}\n', /^not JSON: /],
    ['an unknown type', '{"t":"sudo"}\n', /^an unknown frame: /],
    ['no type', '{"v":1}\n', /^an unknown frame: /],
    ['invalid UTF-8', '\u00ff\n', 'a line that is not UTF-8'],
  ])('%s', (_what, line, bad) => {
    const input = line === '\u00ff\n' ? Buffer.from([0xff, 0x7b, 10]) : bytes(line);
    const out = readAll(new FrameReader(parseToHost), Buffer.concat([input, bytes(good)]), 5);
    expect(out).toHaveLength(2);
    expect('bad' in out[0]! ? out[0].bad : out[0]).toEqual(bad instanceof RegExp ? expect.stringMatching(bad) : bad);
    expect(out[1]).toEqual({ frame: { t: 'go' } }); // the next line is read as ever
  });

  it('empty input: nothing', () => {
    expect(readAll(new FrameReader(parseToHost), new Uint8Array(0), 1)).toEqual([]);
  });

  it('a last line without its newline is told at the end', () => {
    expect(readAll(new FrameReader(parseToHost), bytes('{"t":"go"}'), 4)).toEqual([{ bad: 'a last line without its newline' }]);
  });

  it('an oversize line is dropped as it comes (never held whole), told once, and the next line read', () => {
    const reader = new FrameReader(parseToHost);
    const out: Decoded<ToHost>[] = [];
    const piece = bytes('x'.repeat(64 * 1024));
    for (let held = 0; held <= MAX_LINE + piece.length; held += piece.length) out.push(...reader.push(piece));
    expect(out).toEqual([]);
    expect((reader as unknown as { held: number }).held).toBe(0);
    out.push(...reader.push(bytes(`tail\n${good}`)));
    expect(out).toEqual([{ bad: `a line longer than ${MAX_LINE} bytes` }, { frame: { t: 'go' } }]);
  });

  it('a message shows at most 80 characters of the line', () => {
    const [out] = readAll(new FrameReader(parseToHost), bytes(`${'y'.repeat(500)}\n`), 1000);
    expect(out).toEqual({ bad: `not a frame: "${'y'.repeat(80)}…"` });
  });
});

describe('parseToHost and parseToEngine: each field checked', () => {
  const b64 = (n: number) => Buffer.alloc(n, 1).toString('base64');
  it.each<[string, Record<string, unknown>]>([
    ['hello without a token', { t: 'hello', v: 1, host: 'box' }],
    ['hello with a host name holding a slash', { t: 'hello', v: 1, token: 't', host: '../x' }],
    ['hello with a negative version', { t: 'hello', v: -1, token: 't', host: 'box' }],
    ['have with a negative size', { t: 'have', sizes: { a: -1 }, digests: {} }],
    ['have with a digest that is no sha256', { t: 'have', sizes: {}, digests: { a: 'xyz' } }],
    ['have with sizes as an array', { t: 'have', sizes: [1], digests: {} }],
    ['write with data that is no base64', { t: 'write', id: 1, path: 'PLAN.md', at: 0, data: 'a*b=', last: true, mode: 420 }],
    ['write with base64 padding in the middle', { t: 'write', id: 1, path: 'PLAN.md', at: 0, data: 'QQ==QQ==', last: true, mode: 420 }],
    ['write with more than a chunk of data', { t: 'write', id: 1, path: 'PLAN.md', at: 0, data: b64(MAX_CHUNK + 3), last: true, mode: 420 }],
    ['write with a setuid mode', { t: 'write', id: 1, path: 'PLAN.md', at: 0, data: '', last: true, mode: 0o4755 }],
    ['write with a fractional offset', { t: 'write', id: 1, path: 'PLAN.md', at: 1.5, data: '', last: true, mode: 420 }],
    ['write with last as a string', { t: 'write', id: 1, path: 'PLAN.md', at: 0, data: '', last: 'yes', mode: 420 }],
    ['stat of a pid as a string', { t: 'stat', id: 1, pid: '12' }],
    ['resend without from', { t: 'resend', path: 'a.jsonl' }],
    ['git of a relative checkout', { t: 'git', id: 1, checkout: 'srv/a' }],
    ['tmux without args', { t: 'tmux', id: 1, args: [] }],
    ['tmux with an arg that is no string', { t: 'tmux', id: 1, args: ['-L', 3] }],
    ['tmux with args as one string', { t: 'tmux', id: 1, args: 'kill-server' }],
  ])('to the host: %s', (_what, value) => {
    expect(typeof parseToHost(value)).toBe('string');
  });

  it('a write of exactly a chunk is one', () => {
    const frame = parseToHost({ t: 'write', id: 1, path: 'PLAN.md', at: 0, data: b64(MAX_CHUNK), last: true, mode: 420 });
    expect(typeof frame === 'object' && frame.t === 'write' && frame.data.length).toBe(MAX_CHUNK);
  });

  it.each<[string, Record<string, unknown>]>([
    ['hello without facts', { t: 'hello' }],
    ['hello with facts missing the protocol', { t: 'hello', facts: { ...FACTS, protocol: undefined } }],
    ['hello with an env value that is no string', { t: 'hello', facts: { ...FACTS, env: { A: 1 } } }],
    ['append without an offset', { t: 'append', path: 'a.jsonl', data: '' }],
    ['file without a mode', { t: 'file', path: 'a', at: 0, data: '', last: true }],
    ['wrote with an error that is a number', { t: 'wrote', id: 1, error: 3 }],
    ['proc with a pid and no start time', { t: 'proc', id: 1, proc: { pid: 3 } }],
    ['proc without proc', { t: 'proc', id: 1 }],
    ['problem without a message', { t: 'problem' }],
    ['git with both a state and an error', { t: 'git', id: 1, state: { repo: null, branch: null, head: null, pushed: null, uncommitted: [] }, error: 'x' }],
    ['git with neither', { t: 'git', id: 1, state: null, error: null }],
    ['ran with a fractional code', { t: 'ran', id: 1, code: 1.5, stdout: '', stderr: '' }],
    ['ran without stderr', { t: 'ran', id: 1, code: 0, stdout: '' }],
    ['git with an uncommitted path that is no string', { t: 'git', id: 1, state: { repo: null, branch: null, head: null, pushed: null, uncommitted: [1] }, error: null }],
  ])('to the engine: %s', (_what, value) => {
    expect(typeof parseToEngine(value)).toBe('string');
  });

  it('a hello keeps only the facts it knows', () => {
    expect(parseToEngine({ t: 'hello', facts: { ...FACTS, extra: 'x' } })).toEqual({ t: 'hello', facts: FACTS });
  });
});

describe('chunksOf', () => {
  it.each<[number, [number, number, boolean][]]>([
    [0, [[0, 0, true]]],
    [5, [[0, 5, true]]],
    [MAX_CHUNK, [[0, MAX_CHUNK, true]]],
    [MAX_CHUNK + 1, [[0, MAX_CHUNK, false], [MAX_CHUNK, 1, true]]],
    [2 * MAX_CHUNK + 7, [[0, MAX_CHUNK, false], [MAX_CHUNK, MAX_CHUNK, false], [2 * MAX_CHUNK, 7, true]]],
  ])('%i bytes', (size, pieces) => {
    expect(chunksOf(new Uint8Array(size)).map((p) => [p.at, p.data.length, p.last])).toEqual(pieces);
  });
});
