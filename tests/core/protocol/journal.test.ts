import { describe, expect, it } from 'vitest';
import { formatEntry, journalLine, parseJournal, type JournalEntry } from '../../../src/core/protocol/journal.js';

const entry = (fields: Partial<JournalEntry> & Record<string, unknown> = {}): JournalEntry => ({
  ts: '2025-01-02T12:04:31.123Z', type: 'observation', event: 'handoff_reported', lane: 'lane-a', generation: 1, epoch: 1, ...fields,
});

const a = entry({ packet: '/repo/plans/demo/analysis_results/handoff/lane-a-g1.yaml', reason: 'capacity_critical' });
const b = entry({ ts: '2025-01-02T12:05:00.000Z', type: 'intervention', event: 'escalation', lane: 'lane-b', class: 'login', what: 'log in' });

describe('journalLine', () => {
  it('is the entry as one JSON line ending in a newline', () => {
    expect(journalLine(a)).toBe(`${JSON.stringify(a)}\n`);
    expect(parseJournal(journalLine(a) + journalLine(b))).toEqual([a, b]);
  });
});

describe('parseJournal', () => {
  it.each<[string, string, JournalEntry[]]>([
    ['empty', '', []],
    ['whitespace only', '  \n\t\n \n', []],
    ['one line without a newline', JSON.stringify(a), [a]],
    ['two lines', `${JSON.stringify(a)}\n${JSON.stringify(b)}\n`, [a, b]],
    ['CRLF', `${JSON.stringify(a)}\r\n${JSON.stringify(b)}\r\n`, [a, b]],
    ['blank lines and trailing spaces', `\n  ${JSON.stringify(a)}   \n\n${JSON.stringify(b)}\t\n\n`, [a, b]],
    ['a torn last line is skipped', `${JSON.stringify(a)}\n{"ts":"2025-01-02T12:05:00Z","type":"obs`, [a]],
    ['a torn line in the middle is skipped', `${JSON.stringify(a)}\n{"ts":"2025\n${JSON.stringify(b)}\n`, [a, b]],
    ['an entry glued to a torn line is kept', `${JSON.stringify(a)}\n{"ts":"2025-01-02T12:05${JSON.stringify(b)}\n`, [a, b]],
    ['an entry glued to terminal noise is kept', `\u001b[31m${JSON.stringify(b)}\r\n`, [b]],
    ['foreign text', `npm WARN something\n${JSON.stringify(a)}\n\u001b[31mred\u001b[0m\n`, [a]],
    ['JSON without an event', `{"ts":"x","type":"observation"}\n${JSON.stringify(b)}\n`, [b]],
    ['an event that is not a string', `{"event":5}\n{"event":null}\n${JSON.stringify(b)}\n`, [b]],
    ['JSON that is not an object', `[1,2]\n"event"\n42\nnull\ntrue\n${JSON.stringify(a)}\n`, [a]],
  ])('%s', (_name, text, expected) => {
    expect(parseJournal(text)).toEqual(expected);
  });

  it('keeps every field of an entry, known or not', () => {
    expect(parseJournal('{"event":"plan_done","extra":{"n":1}}\n')).toEqual([{ event: 'plan_done', extra: { n: 1 } }]);
  });
});

describe('formatEntry', () => {
  it.each<[string, JournalEntry, { relativeTo?: string }, string]>([
    ['a handoff with its packet', a, {},
      '12:04:31 lane-a g1 handoff_reported packet=/repo/plans/demo/analysis_results/handoff/lane-a-g1.yaml reason=capacity_critical'],
    ['relativeTo shortens a path under it', a, { relativeTo: '/repo' },
      '12:04:31 lane-a g1 handoff_reported packet=plans/demo/analysis_results/handoff/lane-a-g1.yaml reason=capacity_critical'],
    ['relativeTo that is only a name prefix leaves the path', a, { relativeTo: '/rep' },
      '12:04:31 lane-a g1 handoff_reported packet=/repo/plans/demo/analysis_results/handoff/lane-a-g1.yaml reason=capacity_critical'],
    ['relativeTo equal to the value leaves it', entry({ event: 'x', packet: '/repo' }), { relativeTo: '/repo' }, '12:04:31 lane-a g1 x packet=/repo'],
    ['relativeTo applies to any string field', entry({ event: 'x', cwd: '/repo/sub dir' }), { relativeTo: '/repo' }, '12:04:31 lane-a g1 x cwd="sub dir"'],
    ['a value with spaces is quoted', b, {}, '12:05:00 lane-b g1 escalation class=login what="log in"'],
    ['no lane', entry({ event: 'plan_done', lane: null, generation: null }), {}, '12:04:31 - plan_done'],
    ['a lane without a generation', entry({ event: 'lead_claimed', generation: null, account: 'work1' }), {}, '12:04:31 lane-a lead_claimed account=work1'],
    ['generation 0 is not shown', entry({ event: 'x', generation: 0 }), {}, '12:04:31 lane-a x'],
    ['missing ts', entry({ ts: undefined as unknown as string, event: 'x' }), {}, '--:--:-- lane-a g1 x'],
    ['ts too short', entry({ ts: '12:04', event: 'x' }), {}, '--:--:-- lane-a g1 x'],
    ['ts not a string', entry({ ts: 1735819471 as unknown as string, event: 'x' }), {}, '--:--:-- lane-a g1 x'],
    ['ts, type, event, lane, generation and epoch are not repeated as fields',
      entry({ event: 'x', epoch: 7 }), {}, '12:04:31 lane-a g1 x'],
    ['null, undefined and empty values are left out',
      entry({ event: 'x', packet: null, account: undefined, reason: '', to: 'lead' }), {}, '12:04:31 lane-a g1 x to=lead'],
    ['numbers, booleans, lists and maps as JSON',
      entry({ event: 'x', n: 5, ok: false, list: ['a', 'b'], map: { k: 1 } }), {}, '12:04:31 lane-a g1 x n=5 ok=false list=["a","b"] map={"k":1}'],
    ['a list with spaces is quoted as a whole',
      entry({ event: 'packet_rejected', reasons: ['bad schema'] }), {}, '12:04:31 lane-a g1 packet_rejected reasons="[\\"bad schema\\"]"'],
  ])('%s', (_name, e, options, expected) => {
    expect(formatEntry(e, options)).toBe(expected);
  });

  it('puts packet, account, reason, class, what, text, to, from first, then the rest in their order', () => {
    const e = entry({ event: 'x', zeta: 'z', from: 'f', alpha: 'al', to: 't', text: 'tx', what: 'w', class: 'c', reason: 'r', account: 'ac', packet: 'p', mid: 'm' });
    expect(formatEntry(e)).toBe('12:04:31 lane-a g1 x packet=p account=ac reason=r class=c what=w text=tx to=t from=f zeta=z alpha=al mid=m');
  });

  it.each<[string, string, string]>([
    ['a newline', 'line one\nline two', '"line one line two"'],
    ['CRLF', 'line one\r\nline two\r\n', '"line one line two"'],
    ['tabs and a bell', '\tone\u0007two\u007f', '"one two"'],
    ['leading and trailing control characters and spaces', '\n  done  \r\n', 'done'],
    ['only control characters (shown empty)', '\n\r\t', ''],
    ['a run of control characters as one space', 'a\n\n\n\tb', '"a b"'],
    ['upper case, kept', 'DONE Now', '"DONE Now"'],
  ])('flattens %s to one line with no control characters', (_name, value, shown) => {
    expect(formatEntry(entry({ event: 'x', text: value }))).toBe(`12:04:31 lane-a g1 x text=${shown}`);
  });

  it('flattens ANSI escape codes: one line, no escape character', () => {
    const line = formatEntry(entry({ event: 'x', text: '\u001b[31mred\u001b[0m\nnext' }));
    expect(line.startsWith('12:04:31 lane-a g1 x text="')).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it.each<[string, unknown, string]>([
    ['200 characters stay whole', 'x'.repeat(200), 'x'.repeat(200)],
    ['201 characters are cut to 200 with an ellipsis', 'x'.repeat(201), `${'x'.repeat(199)}…`],
    ['a long value is cut', 'y'.repeat(5000), `${'y'.repeat(199)}…`],
    ['a long quoted value is cut after quoting', 'a '.repeat(150), `"${'a '.repeat(99).slice(0, 198)}…`],
    ['a long list is cut', Array.from({ length: 100 }, (_, i) => i), `${JSON.stringify(Array.from({ length: 100 }, (_, i) => i)).slice(0, 199)}…`],
  ])('cuts long values: %s', (_name, value, shown) => {
    expect(formatEntry(entry({ event: 'x', text: value }))).toBe(`12:04:31 lane-a g1 x text=${shown}`);
  });
});
