import { describe, expect, it } from 'vitest';
import { up } from '../../src/commands/up.js';
import { UsageError } from '../../src/errors.js';

describe('swarm up --timeout', () => {
  it('refuses a duration over 7 days before it reads anything (exit 2)', async () => {
    const run = up({ args: ['--timeout', '600h'], cwd: '/nonexistent', env: {}, stdout: () => undefined, stderr: () => undefined });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow('swarm up --timeout: duration "600h" is over the longest swarm waits, 168h (7 days): use at most 168h');
  });
});
