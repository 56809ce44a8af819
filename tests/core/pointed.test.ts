import { describe, expect, it } from 'vitest';
import { countField, engineCountsText, freshCount, stopCountText } from '../../src/core/pointed.js';

describe('countField', () => {
  it.each([
    ['absent file', null, 0],
    ['empty', '', 0],
    ['torn', '{"delivered":', 0],
    ['a count', '{"delivered":3}\n', 3],
    ['CRLF', '{"delivered":3}\r\n', 3],
    ['trailing spaces', '{"delivered":3}   ', 3],
    ['negative', '{"delivered":-1}', 0],
    ['fraction', '{"delivered":1.5}', 0],
    ['a string', '{"delivered":"3"}', 0],
    ['not an object', '[3]', 0],
  ])('%s → %s', (_name, text, n) => {
    expect(countField(text, 'delivered')).toBe(n);
  });
});

describe('freshCount', () => {
  it.each([
    [{ delivered: 0, typed: 0, stopped: 0 }, 0],
    [{ delivered: 3, typed: 1, stopped: 0 }, 2],
    [{ delivered: 3, typed: 1, stopped: 3 }, 0],
    [{ delivered: 4, typed: 1, stopped: 3 }, 1],
    [{ delivered: 2, typed: 5, stopped: 0 }, 0],
  ])('%o → %s', (counts, n) => {
    expect(freshCount(counts)).toBe(n);
  });

  it('the writers\' texts read back', () => {
    expect(countField(engineCountsText(4, 2), 'typed')).toBe(2);
    expect(countField(stopCountText(7), 'pointed')).toBe(7);
  });
});
