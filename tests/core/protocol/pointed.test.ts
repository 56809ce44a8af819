import { describe, expect, it } from 'vitest';
import { countField, engineCountsText, freshCount, stopCountText, turnEndedSinceTyped } from '../../../src/core/protocol/pointed.js';

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
    expect(countField(engineCountsText({ delivered: 4, typed: 2, turns: 3, typedTurns: 1 }), 'typed')).toBe(2);
    expect(countField(engineCountsText({ delivered: 4, typed: 2, turns: 3, typedTurns: 1 }), 'typed_turns')).toBe(1);
    expect(countField(stopCountText(7), 'pointed')).toBe(7);
  });
});

describe('turnEndedSinceTyped (a Codex lane is typed only after a turn end since its last line)', () => {
  it.each([
    [{ turns: 0, typedTurns: 0 }, false],
    [{ turns: 1, typedTurns: 0 }, true],
    [{ turns: 3, typedTurns: 3 }, false],
    [{ turns: 4, typedTurns: 3 }, true],
  ])('%o → %s', (counts, ended) => {
    expect(turnEndedSinceTyped(counts)).toBe(ended);
  });

  it('old files without the turn fields read as no turn end yet', () => {
    expect(countField('{"delivered":2,"typed":1}\n', 'turns')).toBe(0);
  });
});
