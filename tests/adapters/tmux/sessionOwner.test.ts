import { describe, expect, it } from 'vitest';
import { parseOwner, sessionOwnership, showOwner, stampOwner } from '../../../src/adapters/tmux/sessionOwner.js';

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

describe('sessionOwnership.found', () => {
  const where = { socket: 's', session: 'swarm-x', plan: '/p' };
  const LOST = 'tmux list-panes: error connecting to /tmp/tmux-0/s (No such file or directory)';
  /** A tmux whose server dies at the `at`-th command (0: has-session, 1: show-options); list-panes after it fails too. */
  const dying = (at: number | null) => {
    let n = 0;
    let dead = false;
    const run = async (argv: string[]) => {
      if (n++ === at) dead = true;
      if (dead) throw new Error(`tmux ${argv[0]}: error connecting`);
      return argv[0] === 'show-options' ? ['/p'] : [];
    };
    const list = async () => {
      if (dead || at === 2) {
        dead = true;
        throw new Error(LOST);
      }
      return [{ paneId: '%1' }] as never[];
    };
    return sessionOwnership(where, run, list);
  };

  it('a session that lives: its owner and panes', async () => {
    expect(await dying(null).found()).toEqual({ exists: true, owner: '/p', panes: ['%1'] });
  });

  it.each([[0, 'has-session'], [1, 'show-options'], [2, 'list-panes']])('the server dying at command %i (%s): gone, not tmux\'s error', async (at) => {
    expect(await dying(at).found()).toEqual({ exists: false });
  });

  it('a command failing while the session still lives: the error stands', async () => {
    const run = async (argv: string[]) => (argv[0] === 'has-session' ? [] : Promise.reject(new Error('tmux show-options: bad')));
    await expect(sessionOwnership(where, run, async () => []).found()).rejects.toThrow('tmux show-options: bad');
  });
});
