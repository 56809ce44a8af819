import { describe, expect, it } from 'vitest';
import { bindingWindow, contextPercent, usageReading, usedPercent, type Binding, type UsageWindow } from '../../../src/core/capacity/binding.js';
import { isoTime, parseLine, parseObject } from '../../../src/core/protocol/jsonFields.js';

const w = (usedPct: number | null, resetsAt: string | null = null): UsageWindow => ({ usedPct, resetsAt });
const A = '2026-11-30T08:35:00.000Z';
const B = '2026-12-04T12:00:00.000Z';

describe('bindingWindow', () => {
  it.each<[string, UsageWindow[], Binding | null]>([
    ['no windows: no reading', [], null],
    ['both without a reading', [w(null), w(null)], null],
    ['the most used window binds, with its reset', [w(63.5, A), w(21, B)], { remainingPct: 36.5, resetsAt: A }],
    ['the weekly window binds when it is the more used', [w(12, A), w(91, B)], { remainingPct: 9, resetsAt: B }],
    ['one window unread: the other binds', [w(null, A), w(40, B)], { remainingPct: 60, resetsAt: B }],
    ['a tie keeps the later reset', [w(100, A), w(100, B)], { remainingPct: 0, resetsAt: B }],
    ['a tie with an unknown reset keeps the known one', [w(50, null), w(50, A)], { remainingPct: 50, resetsAt: A }],
    ['above 100 counts as spent', [w(150, A), w(10, B)], { remainingPct: 0, resetsAt: A }],
    ['below 0 is no reading', [w(-5, A), w(10, B)], { remainingPct: 90, resetsAt: B }],
    ['NaN is no reading', [w(Number.NaN, A)], null],
    ['Infinity is no reading', [w(Number.POSITIVE_INFINITY, A)], null],
    ['0 used is 100 remaining', [w(0, A)], { remainingPct: 100, resetsAt: A }],
    ['rounded to one decimal', [w(33.333333, A)], { remainingPct: 66.7, resetsAt: A }],
  ])('%s', (_name, windows, expected) => {
    expect(bindingWindow(windows)).toEqual(expected);
  });
});

describe('usageReading', () => {
  it('is unknown in state, so that assess decides from the %', () => {
    expect(usageReading([w(70, A)], 12)).toEqual({ state: 'unknown', remainingPct: 30, contextPct: 12, resetsAt: A });
  });
  it('without any window read: remaining unknown, never ok', () => {
    expect(usageReading([], null)).toEqual({ state: 'unknown', remainingPct: null, contextPct: null, resetsAt: null });
  });
});

describe('usedPercent / contextPercent', () => {
  it.each<[unknown, number | null]>([[42, 42], [0, 0], [100, 100], [100.5, 100], [-0.1, null], ['42', null], [null, null], [Number.NaN, null]])(
    'usedPercent(%s) = %s', (value, expected) => expect(usedPercent(value)).toBe(expected),
  );
  it.each<[number | null, number | null, number | null]>([
    [84_210, 200_000, 42.1], [null, 200_000, null], [1000, null, null], [1000, 0, null], [1000, -1, null], [300_000, 200_000, 100], [-1, 200_000, null],
  ])('contextPercent(%s, %s) = %s', (tokens, window, expected) => expect(contextPercent(tokens, window)).toBe(expected));
});

describe('jsonFields', () => {
  it.each<[string, string, RegExp | null]>([
    ['empty', '', /empty x/],
    ['blank lines', ' \r\n\n ', /empty x/],
    ['not JSON', 'hello', /x is not JSON: got "hello"/],
    ['NaN is not JSON', '{"a": NaN}', /not JSON/],
    ['a list', '[1]', /must be a JSON object, got a list/],
    ['null', 'null', /got null/],
    ['a string', '"s"', /got a string/],
    ['CRLF and trailing spaces', '{\r\n  "a": 1  \r\n}  \r\n', null],
    ['a BOM', '\uFEFF{"a":1}', null],
  ])('parseObject: %s', (_name, text, error) => {
    const parsed = parseObject(text, 'x');
    if (error === null) expect(parsed).toEqual({ ok: true, value: { a: 1 } });
    else expect(parsed.ok ? '' : parsed.error).toMatch(error);
  });
  it.each<[string, object | null]>([['{"a":1}\r', { a: 1 }], ['', null], ['{"a":', null], ['[1]', null], ['  {"a":1}  ', { a: 1 }]])(
    'parseLine(%j)', (line, expected) => expect(parseLine(line)).toEqual(expected),
  );
  it.each<[unknown, string | null]>([
    [1796114187, '2026-12-01T08:36:27.000Z'],
    [1796114187000, '2026-12-01T08:36:27.000Z'],
    ['1796114187', '2026-12-01T08:36:27.000Z'],
    ['2026-12-01T08:36:27Z', '2026-12-01T08:36:27.000Z'],
    [0, null], [-1, null], ['soon', null], [null, null], [{}, null],
  ])('isoTime(%j) = %s', (value, expected) => expect(isoTime(value)).toBe(expected));
});
