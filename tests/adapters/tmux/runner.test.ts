import { describe, expect, it } from 'vitest';
import { tmuxEnv } from '../../../src/adapters/tmux/runner.js';

describe('tmuxEnv', () => {
  it.each([
    [{ PATH: '/bin' }, { PATH: '/bin', TERM: 'xterm-256color' }],
    [{ PATH: '/bin', TERM: 'screen' }, { PATH: '/bin', TERM: 'screen' }],
    [{ PATH: '/bin', TERM: '' }, { PATH: '/bin', TERM: 'xterm-256color' }],
    [{ PATH: '/bin', TMUX: '/tmp/tmux-0/default,1,0', TMUX_PANE: '%3' }, { PATH: '/bin', TERM: 'xterm-256color' }],
  ])('%j → %j (a TERM always, never the caller’s TMUX)', (env, expected) => {
    expect(tmuxEnv(env)).toEqual(expected);
  });
});
