import { describe, expect, it } from 'vitest';
import { KEEP_SAMPLES, addSample, forecast, leftText, medianInterval, nearBeforeNextBoundary, sinceReset, type Sample } from '../../../src/core/capacity/forecast.js';

const MIN = 60_000;
const s = (minute: number, pct: number): Sample => ({ at: minute * MIN, pct });

describe('forecast (SPEC 10.7): burn rate and minutes to critical', () => {
  it.each<[string, Sample[], number | null, number | null]>([
    ['no readings', [], null, null],
    ['two readings are too few', [s(0, 80), s(10, 70)], null, null],
    ['three within 30 s are too few', [{ at: 0, pct: 80 }, { at: 10_000, pct: 79 }, { at: 29_000, pct: 78 }], null, null],
    ['steady: 1 point a minute → 60 %/h; from 50 % to critical 10 %: 40 min', [s(0, 60), s(5, 55), s(10, 50)], 60, 40],
    ['noisy readings: the least-squares slope, not the last two', [s(0, 60), s(2, 59), s(4, 57), s(6, 57), s(8, 52), s(10, 50)], 60.9, 39],
    ['a reset in the middle: only the readings since it count', [s(0, 30), s(5, 20), s(10, 95), s(15, 90), s(20, 85)], 60, 75],
    ['a capped reading holds still: not burning, no time to critical', [s(0, 20), s(5, 20), s(10, 20)], 0, null],
    ['rising a little (noise, no reset): not burning', [s(0, 50), s(5, 51), s(10, 52)], 0, null],
    ['already at critical: 0 minutes', [s(0, 30), s(5, 20), s(10, 10)], 120, 0],
    ['readings out of order are taken by time', [s(10, 50), s(0, 60), s(5, 55)], 60, 40],
  ])('%s', (_name, samples, burn, minutes) => {
    expect(forecast(samples, 10)).toEqual({ burnPctPerHour: burn, criticalInMin: minutes });
  });

  it('a reset is a rise of more than 5 points', () => {
    expect(sinceReset([s(0, 50), s(1, 55), s(2, 54)])).toHaveLength(3);
    expect(sinceReset([s(0, 50), s(1, 56), s(2, 54)])).toEqual([s(1, 56), s(2, 54)]);
  });

  it('keeps the newest readings, one per time', () => {
    let kept: Sample[] = [];
    for (let i = 0; i < KEEP_SAMPLES + 5; i += 1) kept = addSample(kept, s(i, 100 - i));
    expect(kept).toHaveLength(KEEP_SAMPLES);
    expect(kept[0]).toEqual(s(5, 95));
    expect(addSample([s(1, 50)], s(1, 49))).toEqual([s(1, 49)]);
  });

  it.each<[number | null, string | null]>([[null, null], [0, 'critical now'], [40, '~40m left'], [125, '~2h05m left']])('left %s → %s', (minutes, text) => {
    expect(leftText({ burnPctPerHour: 10, criticalInMin: minutes })).toBe(text);
  });
});

describe('medianInterval and nearBeforeNextBoundary (SPEC 10.7)', () => {
  it.each<[string, number[], number | null]>([
    ['none', [], null],
    ['two intervals are too few', [0, 1, 2].map((m) => m * MIN), null],
    ['three: the middle one', [0, 5, 15, 22].map((m) => m * MIN), 7 * MIN],
    ['four: the mean of the middle two', [0, 2, 6, 12, 20].map((m) => m * MIN), 5 * MIN],
    ['out of order and repeated times', [15, 0, 5, 5, 22].map((m) => m * MIN), 7 * MIN],
  ])('%s', (_name, times, median) => {
    expect(medianInterval(times)).toBe(median);
  });

  it('near when critical comes before the next likely boundary; not when after, unknown, or already there', () => {
    const every10 = [0, 10, 20, 30].map((m) => m * MIN);
    expect(nearBeforeNextBoundary({ burnPctPerHour: 60, criticalInMin: 7 }, every10)).toEqual({ median: 10 * MIN });
    expect(nearBeforeNextBoundary({ burnPctPerHour: 60, criticalInMin: 12 }, every10)).toBeNull();
    expect(nearBeforeNextBoundary({ burnPctPerHour: null, criticalInMin: null }, every10)).toBeNull();
    expect(nearBeforeNextBoundary({ burnPctPerHour: 60, criticalInMin: 0 }, every10)).toBeNull();
    expect(nearBeforeNextBoundary({ burnPctPerHour: 60, criticalInMin: 7 }, every10.slice(0, 3))).toBeNull();
  });
});
