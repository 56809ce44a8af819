import { describe, expect, it } from 'vitest';
import { laneAdd } from '../../src/commands/laneAdd.js';
import { UsageError } from '../../src/errors.js';

const io = (args: string[]) => ({ args, cwd: '/nonexistent', env: {}, stdout: () => undefined, stderr: () => undefined });

describe('swarm lane add --task', () => {
  it('refuses a task over 32 KiB, saying where the long text goes (exit 2)', async () => {
    const run = laneAdd(io(['add', 'lane-z', '--task', 'x'.repeat(32 * 1024 + 1)]));
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow('swarm lane add --task: the task is 32769 bytes, over the 32768 (32 KiB) a task may have: put the long text in PLAN.md and make the task point to it, e.g. task: "Steps 1-3 of PLAN.md"');
  });

  it('takes a task of exactly 32 KiB as far as the agent context', async () => {
    await expect(laneAdd(io(['add', 'lane-z', '--task', 'x'.repeat(32 * 1024)]))).rejects.toThrow(/SWARM_/);
  });
});
