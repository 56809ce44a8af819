import { describe, expect, it } from 'vitest';
import { readingAt, scriptedRates } from '../../../src/drill/mock/rates.js';

describe('the quota scripts', () => {
  it.each([
    [{ start: 45, step: 50 }, 1, 45, false],
    [{ start: 45, step: 50 }, 2, 95, false],
    [{ start: 45, step: 50 }, 3, 100, false],
    [{ start: 20, step: 5, rejectAt: 3 }, 2, 25, false],
    [{ start: 20, step: 5, rejectAt: 3 }, 3, 100, true],
    [{ start: 20, step: 5, rejectAt: 3 }, 9, 100, true],
  ])('%j at request %i: %d %% used, rejected %s', (script, n, used, rejected) => {
    const r = readingAt(script, n, 1000);
    expect(r).toMatchObject({ fiveHourUsed: used, rejected, fiveHourResetsAt: 4600, weekResetsAt: 1000 + 7 * 86400 });
  });

  it('counts each account on its own; an account with no script stays at 10 %', () => {
    const rates = scriptedRates({ a: { start: 10, step: 20 } }, () => 5_000);
    expect([rates('a'), rates('b'), rates('a'), rates('b')].map((r) => r.fiveHourUsed)).toEqual([10, 10, 30, 10]);
  });

  it.each([
    [{ start: 45, step: 50 }, 1, null],
    [{ start: 45, step: 50 }, 2, 45],
    [{ start: 45, step: 50 }, 3, 95],
    [{ start: 20, step: 5, rejectAt: 3 }, 4, 100],
  ])('%j at request %i: the previous reply went out with %s %% used', (script, n, previous) => {
    expect(readingAt(script, n, 1000).previousFiveHourUsed).toBe(previous);
  });
});
