import { describe, expect, it } from 'vitest';
import { clockIn, duration, ticks } from '../../src/report/clock.js';

const WINTER = Date.parse('2026-12-01T22:00:00.000Z');
const SUMMER = Date.parse('2026-07-01T22:00:00.000Z');

describe('clockIn', () => {
  it.each<[string | undefined, number, string, string]>([
    ['UTC', WINTER, 'UTC', '22:00:00'],
    ['Europe/Berlin', WINTER, 'UTC+01:00', '23:00:00'],
    ['Europe/Berlin', SUMMER, 'UTC+02:00', '00:00:00'], // the offset of the night, not of today
    [':Asia/Kolkata', WINTER, 'UTC+05:30', '03:30:00'], // TZ's leading colon
    ['Not/AZone', WINTER, 'UTC', '22:00:00'], // unknown: the runtime's own zone (UTC under vitest here)
  ])('%s', (zone, at, label, time) => {
    const clock = clockIn(zone, at);
    if (zone !== 'Not/AZone') expect(clock.zone).toBe(label);
    if (zone !== 'Not/AZone') expect(clock.time(at)).toBe(time);
    expect(clock.time('not a time')).toBe('?');
  });

  it('shows the date with the time', () => {
    expect(clockIn('Europe/Berlin', WINTER).dateTime('2026-12-01T23:30:00.000Z')).toBe('2026-12-02 00:30:00');
  });
});

describe('ticks and durations', () => {
  it.each<[number, number, number, number]>([
    [0, 10_000, 2000, 6], // 10 s: every 2 s
    [0, 8 * 3600_000, 3600_000, 9], // a night: hourly
    [500, 1500, 1000, 1], // under a second: whole seconds in the span
  ])('ticks(%i, %i)', (from, to, step, count) => {
    const t = ticks(from, to);
    expect(t).toHaveLength(count);
    expect(t.every((x, i) => i === 0 || x - t[i - 1]! === step)).toBe(true);
  });

  it.each<[number | null, string]>([[null, ''], [400, '0.4s'], [65_000, '1m05s'], [7_380_000, '2h03m']])('duration(%s)', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});
