import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, suggest } from '../../../src/core/config/suggest.js';

const TOP = ['version', 'name', 'plan', 'backend', 'accounts', 'lead', 'lanes', 'max_lanes', 'thresholds', 'timeouts', 'notify_command'];

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['lanes', 'lanes', 0],
    ['lnaes', 'lanes', 1],
    ['lane', 'lanes', 1],
    ['kitten', 'sitting', 3],
  ])('%j to %j is %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

describe('suggest', () => {
  it.each([
    ['lnaes', 'lanes'],
    ['Lanes', 'lanes'],
    ['LANES', 'lanes'],
    ['max_lane', 'max_lanes'],
    ['timeout', 'timeouts'],
    ['notify_comand', 'notify_command'],
    ['threshhold', 'thresholds'],
    ['nmae', 'name'],
    ['xyz', null],
    ['', null],
    ['completely_different', null],
  ])('%j → %j', (input, expected) => {
    expect(suggest(input, TOP)).toBe(expected);
  });

  it('ties go to the earlier candidate', () => {
    expect(suggest('lean', ['lead', 'lean2', 'leap'])).toBe('lead');
  });

  it('formats the hint, or nothing', () => {
    expect(didYouMean('lnaes', TOP)).toBe('; did you mean "lanes"?');
    expect(didYouMean('zzz', TOP)).toBe('');
  });
});
