import { describe, expect, it } from 'vitest';
import { runTmux, tmuxEnv } from '../../../src/adapters/tmux/runner.js';
import { DependencyError, SwarmError } from '../../../src/errors.js';

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

describe('runTmux with a prefix', () => {
  it('a prefix program that is not there is named (a SwarmError), never "tmux not found"', async () => {
    const error = await runTmux('swarm-never-started', ['new-session'], { prefix: ['/nonexistent/systemd-run', '--user', '--'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwarmError);
    expect(error).not.toBeInstanceOf(DependencyError);
    expect((error as Error).message).toBe('/nonexistent/systemd-run not found: tmux new-session could not be run under it');
  });
});
