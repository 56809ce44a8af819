/**
 * `swarm <command> --help` and `-h` through the built bin (bin/swarm.cjs: dist/cli.js, or the
 * agents' fast path dist/hot/agent.cjs for notify, capacity, statusline and hook): its own usage on
 * stdout, nothing on stderr, exit 0, with no swarm.yaml, plan or tmux around (issue 12 §3).
 */
import { describe, expect, it } from 'vitest';
import { usageOf } from '../../src/usage.js';
import { swarm, tempDir } from '../helpers/swarm.js';
import { commandNames } from '../helpers/commands.js';

const NAMES = commandNames('cli.ts');

describe.each(NAMES)('swarm %s', (name) => {
  it.each([['--help'], ['-h']])('%s prints its usage and exits 0', async (flag) => {
    const { dir, cleanup } = tempDir('swarm-help-');
    try {
      const r = await swarm([name, flag], { cwd: dir, env: { SWARM_TMUX_SOCKET: 'swarm-help-never-started' } });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(`${r.stdout}\n`).toBe(usageOf(name));
    } finally {
      cleanup();
    }
  });
});

it('swarm up --headless --help is help too, not a start', async () => {
  const r = await swarm(['up', '--headless', '--help']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^usage: swarm up /);
});

it('bare swarm lists the commands and exits 2, with no line that ends in nothing', async () => {
  const r = await swarm([]);
  expect(r.code).toBe(2);
  expect(r.stdout).toMatch(/^usage: swarm <command> \[args\]$/m);
  for (const name of NAMES) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  expect(r.stdout.split('\n').filter((line) => /:\s*$/.test(line))).toEqual([]);
});
