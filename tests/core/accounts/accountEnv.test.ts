import { describe, expect, it } from 'vitest';
import { accountEnvProblem } from '../../../src/core/accounts/accountEnv.js';

const RANDOM = 'Zq9xLm2PaB3dQ7rT5vW1yK8nJ4hG6fD0';

describe('accountEnvProblem: a profile location is a path, and a path may look random', () => {
  it.each([
    ['a mkdtemp folder with a long segment', '/tmp/swarm-doctor-test-AbC1x9/profiles/c1'],
    ['a random-looking folder name', `/home/me/profiles/${RANDOM}`],
    ['a ~ path', `~/.claude-${RANDOM}`],
    ['a relative path', `./profiles/${RANDOM}`],
  ])('%s is accepted', (_what, value) => {
    expect(accountEnvProblem('accounts[0].env.CLAUDE_CONFIG_DIR', 'CLAUDE_CONFIG_DIR', value)).toBeNull();
  });

  it.each([
    ['a key inside a path', `/home/me/sk-ant-api03-${'a1B2'.repeat(8)}`, 'looks like an Anthropic API key'],
    ['a random string that is no path', RANDOM, 'looks like a long random string'],
  ])('%s is refused, the value not shown', (_what, value, message) => {
    const problem = accountEnvProblem('accounts[0].env.CLAUDE_CONFIG_DIR', 'CLAUDE_CONFIG_DIR', value);
    expect(problem?.message).toContain(message);
    expect(problem?.message).not.toContain(value);
  });
});
