import { describe, expect, it } from 'vitest';
import { inboxLine, parseInboxChunk, type InboxChunk, type InboxRecord } from '../../../src/core/protocol/inbox.js';

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
/** A chunk with nothing torn; `tail`: where a last line without its newline starts. */
const chunk = (records: InboxRecord[], bad: string[], consumed: number, tail: number | null = null): InboxChunk => ({ records, bad, torn: [], consumed, tail });
const empty = chunk([], [], 0);

describe('inboxLine', () => {
  it('is the record as one JSON line ending in a newline', () => {
    expect(inboxLine(accept)).toBe(`${JSON.stringify(accept)}\n`);
    expect(inboxLine(message).split('\n')).toHaveLength(2); // the text's newline is escaped
  });
});

describe('parseInboxChunk', () => {
  it.each<[string, string, InboxChunk]>([
    ['empty', '', empty],
    ['a lone newline', '\n', chunk([], [], 1)],
    ['whitespace only, terminated', '   \t \n', chunk([], [], 6)],
    ['whitespace only, torn', '   ', chunk([], [], 0, 0)],
    ['one line', line(message), chunk([message], [], bytesOf(line(message)))],
    ['every kind', [message, accept, answer, lead, capacity, laneAdd].map(line).join(''),
      chunk([message, accept, answer, lead, capacity, laneAdd], [], bytesOf([message, accept, answer, lead, capacity, laneAdd].map(line).join('')))],
    ['torn last line is not consumed', `${line(message)}{"kind":"accept","ts":"2025`,
      chunk([message], [], bytesOf(line(message)), bytesOf(line(message)))],
    ['a torn only line', '{"kind":"message"', chunk([], [], 0, 0)],
    ['a whole record without its newline is not yet written', JSON.stringify(accept), chunk([], [], 0, 0)],
    ['blank lines between records', `\n${line(message)}\n\n  \n${line(accept)}`,
      chunk([message, accept], [], bytesOf(`\n${line(message)}\n\n  \n${line(accept)}`))],
    ['leading and trailing spaces around a record', `  ${JSON.stringify(accept)}  \n`,
      chunk([accept], [], bytesOf(`  ${JSON.stringify(accept)}  \n`))],
    ['CRLF line ends', `${JSON.stringify(message)}\r\n${JSON.stringify(accept)}\r\n`,
      chunk([message, accept], [], bytesOf(`${JSON.stringify(message)}\r\n${JSON.stringify(accept)}\r\n`))],
    ['CRLF with a torn last line', `${JSON.stringify(accept)}\r\n{"kind":"ans`,
      chunk([accept], [], bytesOf(`${JSON.stringify(accept)}\r\n`), bytesOf(`${JSON.stringify(accept)}\r\n`))],
    ['multi-byte UTF-8', line(answer), chunk([answer], [], bytesOf(line(answer)))],
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
    expect(parseInboxChunk(bytes)).toEqual(chunk([accept], [], bytesOf(line(accept)), bytesOf(line(accept))));
    // Reading on from `consumed` once the rest is written yields the record whole.
    expect(parseInboxChunk(whole)).toEqual(chunk([answer], [], whole.length));
  });

  it('reads a chunk taken from an offset as the engine does', () => {
    const all = encode([message, accept, answer].map(line).join(''));
    const first = parseInboxChunk(all.subarray(0, bytesOf(line(message)) + 10));
    expect(first).toEqual(chunk([message], [], bytesOf(line(message)), bytesOf(line(message))));
    expect(parseInboxChunk(all.subarray(first.consumed), { from: first.consumed })).toEqual(chunk([accept, answer], [], all.length - first.consumed));
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
    ['ANSI escapes', '\u001b[31m{"kind":"message"}\u001b[0m', '\u001b[31m{"kind":"message"}\u001b[0m'],
    ['a CRLF bad line, trimmed', '  not json \r', 'not json'],
  ])('a bad line goes to `bad`, trimmed: %s', (_name, text, kept) => {
    const bytes = encode(`${line(message)}${text}\n${line(accept)}`);
    expect(parseInboxChunk(bytes)).toEqual(chunk([message, accept], [kept], bytes.length));
  });

  it('keeps several bad lines in order', () => {
    const bytes = encode('one\n{"kind":"nope"}\n\n[]\n');
    expect(parseInboxChunk(bytes)).toEqual(chunk([], ['one', '{"kind":"nope"}', '[]'], bytes.length));
  });
});

describe('parseInboxChunk: torn lines (a write cut short)', () => {
  const torn = '{"kind":"message","ts":"2025-01-02T03:04';
  const at = (text: string) => bytesOf(text);

  it('a torn line that another record follows on its own line is skipped alone, with its offset', () => {
    const text = `${line(message)}${torn}\n${line(accept)}`;
    expect(parseInboxChunk(encode(text), { from: 100 })).toEqual({
      records: [message, accept], bad: [], torn: [{ offset: 100 + at(line(message)), bytes: at(torn) }], consumed: at(text), tail: null,
    });
  });

  it.each<[string, string]>([
    ['plain', ''],
    ['after leading spaces', '  '],
    ['with CRLF', ''],
  ])('a record glued to torn bytes is read, the torn bytes skipped alone (%s)', (name, lead) => {
    const end = name === 'with CRLF' ? '\r\n' : '\n';
    const text = `${line(message)}${lead}${torn}${JSON.stringify(accept)}${end}${line(answer)}`;
    expect(parseInboxChunk(encode(text))).toEqual({
      records: [message, accept, answer], bad: [], torn: [{ offset: at(line(message)) + lead.length, bytes: at(torn) }], consumed: at(text), tail: null,
    });
  });

  it('a torn multi-byte character: the offset and length are bytes', () => {
    const cut = encode(line(answer)).subarray(0, encode(line(answer)).indexOf(0xf0) + 2);
    const bytes = new Uint8Array([...cut, ...encode(line(accept))]);
    expect(parseInboxChunk(bytes)).toMatchObject({ records: [accept], torn: [{ offset: 0, bytes: cut.length }], tail: null });
  });

  it('a glued object that is no record goes to bad; torn bytes of no record (no `{`) are bad too', () => {
    const text = `${torn}{"kind":"shell"}\nnoise{"kind":"nope"}\n`;
    expect(parseInboxChunk(encode(text))).toEqual({
      records: [], bad: ['{"kind":"shell"}', 'noise', '{"kind":"nope"}'], torn: [{ offset: 0, bytes: at(torn) }], consumed: at(text), tail: null,
    });
  });

  it.each<[string, string]>([
    ['an escape code before the record', '\u001b[31m'],
    ['terminal noise', 'x'],
  ])('a record glued after %s is still read', (_name, noise) => {
    const text = `${noise}${line(accept)}`;
    expect(parseInboxChunk(encode(text))).toMatchObject({ records: [accept], torn: [], consumed: at(text) });
  });

  describe('a last line without its newline', () => {
    const text = `${line(message)}${torn}`;
    const tail = at(line(message));

    it('is read again later: not consumed, its offset given', () => {
      expect(parseInboxChunk(encode(text), { from: 7 })).toEqual(chunk([message], [], tail, 7 + tail));
    });

    it('stays unread before its deadline, and is torn once the deadline of that same line passed', () => {
      const seen = { offset: tail, due: 50_000 };
      expect(parseInboxChunk(encode(text), { seen, now: 49_999 })).toEqual(chunk([message], [], tail, tail));
      expect(parseInboxChunk(encode(text), { seen, now: 50_000 })).toEqual({
        records: [message], bad: [], torn: [{ offset: tail, bytes: at(torn) }], consumed: at(text), tail: null,
      });
    });

    it('a deadline of another line (the file moved on) does not tear this one', () => {
      expect(parseInboxChunk(encode(text), { seen: { offset: 3, due: 0 }, now: 1 })).toEqual(chunk([message], [], tail, tail));
    });

    it('a blank last line past its deadline is consumed, and is not torn', () => {
      expect(parseInboxChunk(encode(`${line(message)}   `), { seen: { offset: tail, due: 0 }, now: 1 })).toEqual(chunk([message], [], tail + 3));
    });
  });
});
