/**
 * The host probe: its parser over what a remote shell may print around it, and the script itself,
 * run by this machine's sh exactly as a remote shell would run the one string ssh carries.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutState, parseProbe, probeCommand } from '../../../src/core/host/probe.js';

const OK = ['swarm-probe.begin=1', 'swarm-probe.tmux=/usr/bin/tmux', 'swarm-probe.tmux.version=tmux 3.3a', 'swarm-probe.checkout.0=git', 'swarm-probe.end=1'];
const values = (lines: string[]): [string, string][] => lines.filter((l) => !l.includes('.begin=')).map((l) => {
  const [key, value] = l.slice('swarm-probe.'.length).split(/=(.*)/s) as [string, string];
  return [key, value];
});

describe('parseProbe', () => {
  it.each<[string, string, boolean, [string, string][]]>([
    ['empty output', '', false, []],
    ['only a banner', 'Welcome to gpu1\nLast login: never\n', false, []],
    ['the whole probe', `${OK.join('\n')}\n`, true, values(OK)],
    ['CRLF', `${OK.join('\r\n')}\r\n`, true, values(OK)],
    ['a lone CR', OK.join('\r'), true, values(OK)],
    ['trailing spaces and tabs', `${OK.map((l) => `${l}  \t`).join('\n')}\n`, true, values(OK)],
    ['banner noise before, between and after', ['Welcome!', 'key=value from a motd', ...OK.slice(0, 2), 'noise=1', ...OK.slice(2), 'bye'].join('\n'), true, values(OK)],
    ['a fake probe line before begin (a startup file) is not taken', ['swarm-probe.tmux=/fake', ...OK].join('\n'), true, values(OK)],
    ['terminal escape codes', OK.map((l) => `\x1b[32m${l}\x1b[0m\x1b]0;title\x07`).join('\n'), true, values(OK)],
    ['no end (cut short)', OK.slice(0, -1).join('\n'), false, values(OK.slice(0, -1))],
    ['a value with "=" in it', 'swarm-probe.begin=1\nswarm-probe.swarm.version=a=b\nswarm-probe.end=1', true, [['swarm.version', 'a=b'], ['end', '1']]],
    ['no begin at all', OK.slice(1).join('\n'), false, []],
  ])('%s', (_what, stdout, complete, expected) => {
    const probe = parseProbe(stdout);
    expect(probe.complete).toBe(complete);
    expect([...probe.values]).toEqual(expected);
  });

  it.each<[string, 'missing' | 'folder' | 'git' | null]>([
    ['swarm-probe.checkout.0=missing', 'missing'],
    ['swarm-probe.checkout.0=folder', 'folder'],
    ['swarm-probe.checkout.0=git', 'git'],
    ['swarm-probe.checkout.0=maybe', null],
    ['swarm-probe.checkout.1=git', null],
  ])('checkoutState(%j) at 0', (line, state) => {
    expect(checkoutState(parseProbe(`swarm-probe.begin=1\n${line}\nswarm-probe.end=1`), 0)).toBe(state);
  });
});

describe('the probe script, run by a POSIX sh', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says where each tool is, its version, each CLI, and each checkout by index, whatever the path holds', () => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-probe-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const which = (tool: string) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    for (const tool of ['sh', 'tmux', 'node', 'git', 'head', 'tr']) symlinkSync(which(tool), join(bin, tool));
    writeFileSync(join(bin, 'swarm'), '#!/bin/sh\necho "swarm 0.1.0"\n', { mode: 0o755 });
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const hostile = join(dir, "it's a\nfolder $(x)");
    const repo = join(dir, 'repo');
    for (const d of [hostile, join(repo, 'sub')]) mkdirSync(d, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const checkouts = [hostile, join(repo, 'sub'), join(dir, 'absent'), '/'.concat('--'), `${hostile} absent`];
    const out = execFileSync('/bin/sh', ['-c', probeCommand(['claude', 'codex'], checkouts)], { encoding: 'utf8', env: { PATH: bin, HOME: dir } });
    const probe = parseProbe(out);
    expect(probe.complete).toBe(true);
    expect(Object.fromEntries(probe.values)).toEqual({
      tmux: join(bin, 'tmux'), node: join(bin, 'node'), swarm: join(bin, 'swarm'), git: join(bin, 'git'),
      'tmux.version': expect.stringMatching(/^tmux \d/) as unknown as string,
      'node.version': process.version,
      'swarm.version': 'swarm 0.1.0',
      'cli.claude': '', 'cli.codex': join(bin, 'codex'),
      'checkout.0': 'folder', 'checkout.1': 'git', 'checkout.2': 'missing', 'checkout.3': 'missing', 'checkout.4': 'missing',
      end: '1',
    });
  });
});
