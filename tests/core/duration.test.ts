import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/core/duration.js';

const HELP = 'use <n>ms, <n>s, <n>m or <n>h (a bare number is seconds)';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['0s', 0],
    ['45', 45_000],
    ['  10m  ', 600_000],
    ['10m\r\n', 600_000],
    [45, 45_000],
    [0.25, 250],
    [0, 0],
    ['168h', 604_800_000],
    ['604800s', 604_800_000],
    [604_800, 604_800_000],
  ])('%j is %d ms', (value, ms) => {
    expect(parseDuration(value)).toEqual({ ok: true, ms });
  });

  it.each([
    ['', '""'],
    ['   ', '""'],
    ['10x', '"10x"'],
    ['10 m', '"10 m"'],
    ['1h30m', '"1h30m"'],
    ['-5s', '"-5s"'],
    ['10M', '"10M"'],
    ['10MS', '"10MS"'],
    ['10m\n5s', '"10m 5s"'],
    ['\u001b[31m10m\u001b[39m', '"\\u001b[31m10m\\u001b[39m"'],
    ['m', '"m"'],
    ['1e3', '"1e3"'],
    [-5, '-5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'nothing'],
    [['10m'], 'a list'],
    [{ m: 10 }, 'a mapping'],
  ])('%j is refused', (value, shown) => {
    expect(parseDuration(value)).toEqual({ ok: false, error: `bad duration ${shown}: ${HELP}` });
  });
});

describe('parseDuration: the longest duration', () => {
  it.each([
    ['600h', '"600h"'],
    ['168.5h', '"168.5h"'],
    ['604800001ms', '"604800001ms"'],
    ['99999999999999999999h', '"99999999999999999999h"'],
    [604_801, '604801'],
  ])('%j is refused: no wait is longer than 7 days, and setTimeout misfires past 24.8 days', (value, shown) => {
    expect(parseDuration(value)).toEqual({ ok: false, error: `duration ${shown} is over the longest swarm waits, 168h (7 days): use at most 168h` });
  });
});

describe('formatDuration', () => {
  it.each([
    [7_200_000, '2h'],
    [600_000, '10m'],
    [90_000, '90s'],
    [1500, '1500ms'],
    [0, '0ms'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
