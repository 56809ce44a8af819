import { describe, expect, it } from 'vitest';
import { inboxLine, parseInboxChunk, type InboxChunk, type InboxRecord } from '../../src/core/inbox.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytesOf = (text: string): number => encode(text).length;

const message: InboxRecord = {
  kind: 'message', ts: '2025-01-02T03:04:05.000Z', from: 'lane-a', role: 'lane', account: 'work2',
  generation: 1, epoch: 1, to: 'lead', text: 'done\ncapacity=ok 64% @work2', cwd: '/repo',
};
const accept: InboxRecord = {
  kind: 'accept', ts: '2025-01-02T03:04:06.000Z', from: 'lane-a', role: 'lane', account: 'work3',
  generation: 2, epoch: 1, packet: '/repo/plans/demo/analysis_results/handoff/lane-a-g1.yaml',
};
const answer: InboxRecord = {
  kind: 'answer', ts: '2025-01-02T03:04:07.000Z', from: 'developer', role: 'developer', account: null,
  generation: null, epoch: null, to: 'lane-b', text: 'yes, go ahead — ünïcödé ✓ 🚀',
};
const lead: InboxRecord = {
  kind: 'lead', ts: '2025-01-02T03:04:08.000Z', from: 'lead', role: 'lead', account: 'work1',
  generation: 1, epoch: 1, action: 'handover', to: 'lead-b', packet: '/p.yaml', new_epoch: 2,
};
const capacity: InboxRecord = {
  kind: 'capacity', ts: '2025-01-02T03:04:09.000Z', from: 'lane-a', role: 'lane', account: 'work2',
  generation: 1, epoch: 1, state: 'low', remaining_pct: 20, context_pct: 41, resets_at: null,
  decision: 'handoff_soon', source: 'report',
};
const laneAdd: InboxRecord = {
  kind: 'lane', ts: '2025-01-02T03:04:10.000Z', from: 'lead', role: 'lead', account: 'work1',
  generation: 1, epoch: 2, action: 'add', name: 'lane-c', task: 'Step 4', checkout: '/repo-c', lane_kind: null, command: null,
};

const line = (r: InboxRecord): string => inboxLine(r);
const empty: InboxChunk = { records: [], bad: [], consumed: 0 };

describe('inboxLine', () => {
  it('is the record as one JSON line ending in a newline', () => {
    expect(inboxLine(accept)).toBe(`${JSON.stringify(accept)}\n`);
    expect(inboxLine(message).split('\n')).toHaveLength(2); // the text's newline is escaped
  });
});

describe('parseInboxChunk', () => {
  it.each<[string, string, InboxChunk]>([
    ['empty', '', empty],
    ['a lone newline', '\n', { records: [], bad: [], consumed: 1 }],
    ['whitespace only, terminated', '   \t \n', { records: [], bad: [], consumed: 6 }],
    ['whitespace only, torn', '   ', empty],
    ['one line', line(message), { records: [message], bad: [], consumed: bytesOf(line(message)) }],
    ['every kind', [message, accept, answer, lead, capacity, laneAdd].map(line).join(''),
      { records: [message, accept, answer, lead, capacity, laneAdd], bad: [], consumed: bytesOf([message, accept, answer, lead, capacity, laneAdd].map(line).join('')) }],
    ['torn last line is not consumed', `${line(message)}{"kind":"accept","ts":"2025`,
      { records: [message], bad: [], consumed: bytesOf(line(message)) }],
    ['a torn only line', '{"kind":"message"', empty],
    ['a whole record without its newline is not yet written', JSON.stringify(accept), empty],
    ['blank lines between records', `\n${line(message)}\n\n  \n${line(accept)}`,
      { records: [message, accept], bad: [], consumed: bytesOf(`\n${line(message)}\n\n  \n${line(accept)}`) }],
    ['leading and trailing spaces around a record', `  ${JSON.stringify(accept)}  \n`,
      { records: [accept], bad: [], consumed: bytesOf(`  ${JSON.stringify(accept)}  \n`) }],
    ['CRLF line ends', `${JSON.stringify(message)}\r\n${JSON.stringify(accept)}\r\n`,
      { records: [message, accept], bad: [], consumed: bytesOf(`${JSON.stringify(message)}\r\n${JSON.stringify(accept)}\r\n`) }],
    ['CRLF with a torn last line', `${JSON.stringify(accept)}\r\n{"kind":"ans`,
      { records: [accept], bad: [], consumed: bytesOf(`${JSON.stringify(accept)}\r\n`) }],
    ['multi-byte UTF-8', line(answer), { records: [answer], bad: [], consumed: bytesOf(line(answer)) }],
  ])('%s', (_name, text, expected) => {
    expect(parseInboxChunk(encode(text))).toEqual(expected);
  });

  it('counts bytes, not characters, for multi-byte text', () => {
    const text = line(answer);
    const chunk = parseInboxChunk(encode(text));
    expect(chunk.consumed).toBe(encode(text).length);
    expect(chunk.consumed).toBeGreaterThan(text.length);
  });

  it('does not consume a last line torn inside a multi-byte character', () => {
    const whole = encode(line(answer));
    const cut = whole.indexOf(0xf0); // the first byte of 🚀 (4 bytes)
    expect(cut).toBeGreaterThan(0);
    const bytes = new Uint8Array([...encode(line(accept)), ...whole.subarray(0, cut + 2)]);
    expect(parseInboxChunk(bytes)).toEqual({ records: [accept], bad: [], consumed: bytesOf(line(accept)) });
    // Reading on from `consumed` once the rest is written yields the record whole.
    expect(parseInboxChunk(whole)).toEqual({ records: [answer], bad: [], consumed: whole.length });
  });

  it('reads a chunk taken from an offset as the engine does', () => {
    const all = encode([message, accept, answer].map(line).join(''));
    const first = parseInboxChunk(all.subarray(0, bytesOf(line(message)) + 10));
    expect(first).toEqual({ records: [message], bad: [], consumed: bytesOf(line(message)) });
    expect(parseInboxChunk(all.subarray(first.consumed))).toEqual({
      records: [accept, answer], bad: [], consumed: all.length - first.consumed,
    });
  });

  it.each<[string, string, string]>([
    ['not JSON', 'hello there', 'hello there'],
    ['a JSON string', '"message"', '"message"'],
    ['a JSON number', '42', '42'],
    ['JSON null', 'null', 'null'],
    ['a JSON array', '[{"kind":"message"}]', '[{"kind":"message"}]'],
    ['an object without kind', '{"to":"lead","text":"done"}', '{"to":"lead","text":"done"}'],
    ['an unknown kind', '{"kind":"shell","cmd":"rm -rf /"}', '{"kind":"shell","cmd":"rm -rf /"}'],
    ['kind in upper case', '{"kind":"MESSAGE"}', '{"kind":"MESSAGE"}'],
    ['kind not a string', '{"kind":1}', '{"kind":1}'],
    ['truncated JSON in a complete line', '{"kind":"message",', '{"kind":"message",'],
    ['ANSI escapes', '\u001b[31m{"kind":"message"}\u001b[0m', '\u001b[31m{"kind":"message"}\u001b[0m'],
    ['a CRLF bad line, trimmed', '  not json \r', 'not json'],
  ])('a bad line goes to `bad`, trimmed: %s', (_name, text, kept) => {
    const bytes = encode(`${line(message)}${text}\n${line(accept)}`);
    expect(parseInboxChunk(bytes)).toEqual({ records: [message, accept], bad: [kept], consumed: bytes.length });
  });

  it('keeps several bad lines in order', () => {
    const bytes = encode('one\n{"kind":"nope"}\n\n[]\n');
    expect(parseInboxChunk(bytes)).toEqual({ records: [], bad: ['one', '{"kind":"nope"}', '[]'], consumed: bytes.length });
  });
});
