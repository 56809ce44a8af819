import { describe, expect, it } from 'vitest';
import { age, formatDuration, parseDuration, spokenDuration, stopwatch } from '../../../src/core/config/duration.js';

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

describe('spokenDuration', () => {
  it.each([
    [0, '0 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [1499, '1 s'],
    [45_000, '45 s'],
    [59_499, '59 s'],
    [60_000, '1 min'],
    [90_000, '2 min'],
    [600_000, '10 min'],
    [7_200_000, '120 min'],
  ])('%d ms reads %j', (ms, text) => {
    expect(spokenDuration(ms)).toBe(text);
  });
});

describe('age', () => {
  it.each<[number, string]>([
    [0, '0s'],
    [-5000, '0s'],
    [499, '0s'],
    [500, '1s'],
    [59_499, '59s'],
    [59_500, '1m'],
    [60_000, '1m'],
    [119_999, '2m'],
    [3_599_000, '59m'],
    [3_599_500, '1h00m'],
    [3_600_000, '1h00m'],
    [3_660_000, '1h01m'],
    [7_199_000, '1h59m'],
    [90_061_000, '25h01m'],
  ])('age(%d) = %s', (ms, expected) => {
    expect(age(ms)).toBe(expected);
  });
});

describe('stopwatch', () => {
  it.each([
    [0, '0.0s'],
    [4_500, '4.5s'],
    [59_949, '59.9s'],
    [60_000, '1m00s'],
    [65_000, '1m05s'],
    [7_200_000, '120m00s'],
  ])('%d ms reads %j', (ms, text) => {
    expect(stopwatch(ms)).toBe(text);
  });
});
