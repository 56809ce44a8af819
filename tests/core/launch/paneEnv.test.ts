import { describe, expect, it } from 'vitest';
import { paneEnvironment, userVariablePasses, type PaneEnvInput } from '../../../src/core/launch/paneEnv.js';

const SWARM = { PATH: '/plan/.swarm/bin:/usr/bin', SWARM_LANE: 'lane-a', SWARM_ROLE: 'lane' };
const env = (input: Partial<PaneEnvInput>): Record<string, string> =>
  paneEnvironment({ user: {}, passEnv: [], account: {}, swarm: SWARM, ...input });

describe('paneEnvironment', () => {
  it.each<[string, Partial<PaneEnvInput>, Record<string, string>]>([
    ['an empty user environment: swarm\'s own only', {}, SWARM],
    ['ordinary variables pass', { user: { EDITOR: 'vim', HOME: '/h', LANG: 'C.UTF-8' } }, { EDITOR: 'vim', HOME: '/h', LANG: 'C.UTF-8', ...SWARM }],
    ['credential-looking names are held back, in any case', {
      user: { MY_TOKEN: 't', ANTHROPIC_API_KEY: 'k', AWS_SECRET_ACCESS_KEY: 's', DB_PASSWORD: 'p', github_token: 'g', Api_Key: 'x', EDITOR: 'vim' },
    }, { EDITOR: 'vim', ...SWARM }],
    ['pass_env lets a named one through, and only it', { user: { GH_TOKEN: 'g', MY_TOKEN: 't' }, passEnv: ['GH_TOKEN'] }, { GH_TOKEN: 'g', ...SWARM }],
    ['pass_env naming an unset variable adds nothing', { passEnv: ['GH_TOKEN'] }, SWARM],
    ['pass_env is exact (no case folding)', { user: { gh_token: 'g' }, passEnv: ['GH_TOKEN'] }, SWARM],
    ['values are kept verbatim: multi-line, trailing spaces, CRLF, ANSI', {
      user: { A: 'one\ntwo', B: 'trail  ', C: 'crlf\r\n', D: '\u001b[31mred\u001b[0m', E: '' },
    }, { A: 'one\ntwo', B: 'trail  ', C: 'crlf\r\n', D: '\u001b[31mred\u001b[0m', E: '', ...SWARM }],
    ['the terminal\'s own variables are the pane terminal\'s to set', {
      user: { TERM: 'xterm', TERM_PROGRAM: 'iTerm', TERM_PROGRAM_VERSION: '3', COLUMNS: '80', LINES: '24', TMUX: '/t,1,0', TMUX_PANE: '%1' },
    }, SWARM],
    ['SWARM_* of the caller never leak (a swarm started inside a pane), SWARM_TMUX_SOCKET does', {
      user: { SWARM_PACKET: '/p.yaml', SWARM_LANE: 'outer', SWARM_FAULT: 'before:spawn', SWARM_TMUX_SOCKET: 'mine' },
    }, { SWARM_TMUX_SOCKET: 'mine', ...SWARM }],
    ['the account\'s profile over the user\'s, swarm\'s over both', {
      user: { CLAUDE_CONFIG_DIR: '/u', PATH: '/usr/bin' }, account: { CLAUDE_CONFIG_DIR: '/acct', SWARM_LANE: 'nope' },
    }, { CLAUDE_CONFIG_DIR: '/acct', ...SWARM }],
    ['the account\'s profile is passed even when named like a credential', { account: { API_KEY_FILE: '/k' } }, { API_KEY_FILE: '/k', ...SWARM }],
    ['undefined values, and names that are no shell identifier, are left out', { user: { A: undefined, 'B=C': 'x', 'a-b': 'y', '1X': 'z', D: 'd' } }, { D: 'd', ...SWARM }],
  ])('%s', (_name, input, expected) => {
    expect(env(input)).toEqual(expected);
  });

  it('sorts the names', () => {
    expect(Object.keys(env({ user: { ZED: '1', ALPHA: '2' } }))).toEqual(['ALPHA', 'PATH', 'SWARM_LANE', 'SWARM_ROLE', 'ZED']);
  });
});

describe('userVariablePasses', () => {
  it.each([
    ['EDITOR', [], true],
    ['KEYBOARD_LAYOUT', [], false],
    ['KEYBOARD_LAYOUT', ['KEYBOARD_LAYOUT'], true],
    ['SSH_AUTH_SOCK', [], true],
    ['GIT_CONFIG_KEY_0', [], true],
    ['GIT_CONFIG_KEY_12', [], true],
    ['GIT_CONFIG_KEY_X', [], false],
    ['MY_GIT_CONFIG_KEY_0', [], false],
    ['GIT_CONFIG_VALUE_0', [], true],
    ['GIT_CONFIG_COUNT', [], true],
    ['', [], false],
  ])('%s with pass_env %j → %s', (name, passEnv, expected) => {
    expect(userVariablePasses(name, passEnv)).toBe(expected);
  });
});
