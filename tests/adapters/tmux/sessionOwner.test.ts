import { describe, expect, it } from 'vitest';
import { parseOwner, showOwner, stampOwner } from '../../../src/adapters/tmux/sessionOwner.js';

describe('the session owner as tmux argv', () => {
  it('names the session by its exact name, as a session target', () => {
    expect(showOwner('swarm-e2e')).toEqual(['show-options', '-q', '-v', '-t', '=swarm-e2e:', '@swarm_plan']);
    expect(stampOwner('swarm-e2e', '/a b/plans/p')).toEqual(['set-option', '-t', '=swarm-e2e:', '@swarm_plan', '/a b/plans/p']);
  });

  it('keeps a path ending in ";" one argument (tmux would end the command there)', () => {
    expect(stampOwner('s', '/x/p;').at(-1)).toBe('/x/p\\;');
  });
});

describe('parseOwner', () => {
  it.each<[string, string[], string | null]>([
    ['unset (no output)', [], null],
    ['an empty line', [''], null],
    ['blank lines', ['  ', ''], null],
    ['a path', ['/home/u/plans/p'], '/home/u/plans/p'],
    ['a path with CRLF', ['/home/u/plans/p\r'], '/home/u/plans/p'],
    ['a path with trailing spaces kept (a real path may end in one)', ['/home/u/plans/p '], '/home/u/plans/p '],
    ['a path over several lines', ['/a', 'b'], '/a\nb'],
    ['escape codes kept: a stamp never matches unless it is the path', ['\u001b[31m/p'], '\u001b[31m/p'],
  ])('%s', (_name, lines, owner) => {
    expect(parseOwner(lines)).toBe(owner);
  });
});
