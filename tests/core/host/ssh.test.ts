/**
 * The ssh argv (options before `--` and the destination, swarm's own first) and the one remote
 * command string, read back by real POSIX shells (dash as /bin/sh, and bash) word for word.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { remoteCommand, shQuote, sshArgv, sshShown } from '../../../src/core/host/ssh.js';

const BARE = { ssh: 'me@gpu1', port: null, identity: null, options: [] };

describe('sshArgv', () => {
  it.each<[string, Parameters<typeof sshArgv>[0], string[]]>([
    ['the destination alone', BARE, ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '--', 'me@gpu1', 'true']],
    ['a port', { ...BARE, port: 2222 }, ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '-p', '2222', '--', 'me@gpu1', 'true']],
    ['an absolute identity', { ...BARE, identity: '/keys/id gpu1' }, ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '-i', '/keys/id gpu1', '--', 'me@gpu1', 'true']],
    ['an identity under ~ (expanded against HOME)', { ...BARE, identity: '~/.ssh/id_gpu1' }, ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '-i', '/home/u/.ssh/id_gpu1', '--', 'me@gpu1', 'true']],
    ['options, after swarm\'s own (ssh keeps the first value of an option)', { ...BARE, port: 22, identity: '/k', options: ['ServerAliveInterval=15', 'ProxyJump=me@jump lan'] },
      ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '-p', '22', '-i', '/k', '-o', 'ServerAliveInterval=15', '-o', 'ProxyJump=me@jump lan', '--', 'me@gpu1', 'true']],
  ])('%s', (_what, host, expected) => {
    expect(sshArgv(host, 'true', '/home/u')).toEqual(expected);
  });

  it('takes another connect timeout, and keeps the command one argument after the destination', () => {
    const argv = sshArgv(BARE, remoteCommand(['ls', '/srv/a b']), '/home/u', 9);
    expect(argv.slice(4, 6)).toEqual(['ConnectTimeout=9', '--']);
    expect(argv.slice(-2)).toEqual(['me@gpu1', 'ls \'/srv/a b\'']);
  });

  it.each([
    [BARE, 'me@gpu1'],
    [{ ...BARE, port: 2222 }, 'me@gpu1 -p 2222'],
  ])('sshShown %#', (host, shown) => {
    expect(sshShown(host)).toBe(shown);
  });
});

/** Words no shell may split, expand or run. */
const HOSTILE = [
  'plain', '/srv/work/lane-b', 'a b', '  two  spaces ', 'tab\there', "it's", "''", 'x"y', 'new\nline', 'cr\r\nlf', '$HOME', '$(touch /tmp/swarm-pwned)',
  '`id`', '*', '~', '~/x', '-n', '--', ';', 'a;b', '&&', '|', '>out', '\\', '\\\'', '!x', '#c', 'ü é', '%s', '{a,b}', '',
];

describe('remoteCommand: one string a POSIX shell reads back as exactly the words', () => {
  it.each(['sh', 'bash'])('%s', (shell) => {
    const command = remoteCommand(['printf', '%s\\0', ...HOSTILE]);
    const out = execFileSync(shell, ['-c', command], { encoding: 'utf8', cwd: '/' });
    expect(out.split('\0').slice(0, -1)).toEqual(HOSTILE);
  });

  it.each([
    ['plain', 'plain'],
    ['/srv/a-b_c.d', '/srv/a-b_c.d'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['', "''"],
    ['new\nline', "'new\nline'"],
  ])('shQuote(%j)', (word, quoted) => {
    expect(shQuote(word)).toBe(quoted);
  });
});
