import { afterEach, describe, expect, it } from 'vitest';
import { up } from '../../src/commands/up.js';
import { DependencyError, UsageError } from '../../src/errors.js';
import { usageOf } from '../../src/usage.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

const io = (args: string[], cwd = '/nonexistent', env: NodeJS.ProcessEnv = {}) => ({ args, cwd, env, stdout: () => undefined, stderr: () => undefined });

let s: TestSwarm | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

describe('swarm up --timeout', () => {
  it('refuses a duration over 7 days before it reads anything (exit 2)', async () => {
    const run = up(io(['--timeout', '600h']));
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow('swarm up --timeout: duration "600h" is over the longest swarm waits, 168h (7 days): use at most 168h');
  });
});

describe('swarm up --detach: its arguments', () => {
  it.each([
    [['--detach', '--headless']],
    [['--headless', '-d']],
    [['swarm.yaml', '-d', '--until-done', '--headless']],
  ])('%j is a usage error naming both flags, before anything is read (exit 2)', async (args) => {
    const run = up(io(args));
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow('swarm up: --detach and --headless do not go together: --detach runs the engine in tmux window 0 and returns, --headless runs it here in the foreground');
  });

  it.each([
    [['--detach=yes'], 'swarm up: --detach takes no value'],
    [['--detatch'], 'swarm up: unknown option "--detatch"; did you mean "--detach"?'],
    [['-d', 'a.yaml', 'b.yaml'], 'swarm up takes one swarm file'],
    [['-d', '--timeout', 'soon'], 'swarm up --timeout: bad duration "soon"'],
  ])('%j: %s (exit 2)', async (args, message) => {
    const run = up(io(args));
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(message);
  });

  it('with backend: pty is a usage error that says it needs tmux (exit 2)', async () => {
    s = makeSwarm({ lanes: [{ name: 'lane-a' }], backend: 'pty' });
    const run = up(io(['--detach'], `${s.root}/repo`, s.env));
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow('swarm up --detach needs tmux: with backend: pty the panes end with the process that runs them, and --detach returns at once');
  });

  it('with backend: auto and no tmux on PATH is the missing tmux (exit 4), not a start with pty', async () => {
    s = makeSwarm({ lanes: [{ name: 'lane-a' }], extra: '' });
    const file = `${s.root}/repo/swarm.yaml`;
    const { readFileSync, writeFileSync } = await import('node:fs');
    writeFileSync(file, readFileSync(file, 'utf8').replace('backend: tmux', 'backend: auto'));
    const run = up(io(['-d', file], s.root, { ...s.env, PATH: '/nonexistent' }));
    await expect(run).rejects.toBeInstanceOf(DependencyError);
    await expect(run).rejects.toThrow("swarm up --detach needs tmux, and tmux is not found");
  });

  it('is in swarm up --help', () => {
    expect(usageOf('up')).toMatch(/^usage: swarm up \[file\] \[--headless \| --detach\] /);
    expect(usageOf('up')).toMatch(/^ {2}--detach, -d {2,}\S/m);
  });
});
