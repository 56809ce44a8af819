import { describe, expect, it } from 'vitest';
import { keyAction, moveSelection, type KeyAction, type KeyPress } from '../../src/ui/keys.js';

describe('keyAction', () => {
  it.each<[string, string, KeyPress, KeyAction | null]>([
    ['up arrow', '', { upArrow: true }, { type: 'move', by: -1 }],
    ['down arrow', '', { downArrow: true }, { type: 'move', by: 1 }],
    ['k', 'k', {}, { type: 'move', by: -1 }],
    ['j', 'j', {}, { type: 'move', by: 1 }],
    ['page up: one page', '', { pageUp: true }, { type: 'move', by: -20 }],
    ['page down: one page', '', { pageDown: true }, { type: 'move', by: 20 }],
    ['home', '', { home: true }, { type: 'first' }],
    ['end', '', { end: true }, { type: 'last' }],
    ['g', 'g', {}, { type: 'first' }],
    ['G', 'G', {}, { type: 'last' }],
    ['enter', '', { return: true }, { type: 'focus' }],
    ['q', 'q', {}, { type: 'detach' }],
    ['Q (upper case)', 'Q', {}, { type: 'detach' }],
    ['Ctrl-C detaches too, never stops', 'c', { ctrl: true }, { type: 'detach' }],
    ['c alone: nothing', 'c', {}, null],
    ['empty', '', {}, null],
    ['a space', ' ', {}, null],
    ['escape: nothing', '', { escape: true }, null],
    ['pasted text: nothing', 'hello\r\n', {}, null],
  ])('%s', (_name, input, key, expected) => {
    expect(keyAction(input, key, 20)).toEqual(expected);
  });

  it('a page is at least one lane', () => {
    expect(keyAction('', { pageDown: true }, 0)).toEqual({ type: 'move', by: 1 });
  });
});

describe('moveSelection', () => {
  it.each<[string, number, KeyAction, number, number]>([
    ['down', 0, { type: 'move', by: 1 }, 3, 1],
    ['down at the end stays', 2, { type: 'move', by: 1 }, 3, 2],
    ['up at the start stays', 0, { type: 'move', by: -1 }, 3, 0],
    ['page past the end', 5, { type: 'move', by: 20 }, 64, 25],
    ['first', 40, { type: 'first' }, 64, 0],
    ['last', 4, { type: 'last' }, 64, 63],
    ['no lanes', 3, { type: 'move', by: 1 }, 0, 0],
    ['a selection past a shrunk list is clamped', 9, { type: 'focus' }, 3, 2],
  ])('%s', (_name, selected, action, count, expected) => {
    expect(moveSelection(selected, action, count)).toBe(expected);
  });
});
