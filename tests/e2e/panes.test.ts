/**
 * What a pane starts in and with, end to end: the folder tmux is handed reaches it inert (tmux
 * format-expands `-c`), and the pane's environment is the one rule of core/launch/paneEnv.ts on both
 * backends, whatever the tmux server's own environment holds.
 */
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

/** Every path under `root` whose name is `name` (the test's own temporary tree only). */
function findNamed(root: string, name: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => p.split('/').at(-1) === name);
}

describe('a lane checkout named like a tmux format (tmux)', () => {
  it('starts the lane in that folder, and nothing in the name runs', async () => {
    const checkout = 'wt-#(touch pwned) #{pane_id} # x';
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', checkout, agent: { AGENT_G1: 'ready,done' } }] }));
    const run = await s.up(['--timeout', '40s']);
    expect(run.all).toContain('plan done');
    expect(readFileSync(join(s.root, checkout, 'done.txt'), 'utf8')).toBe('lane-a g1\n');
    expect(findNamed(s.root, 'pwned')).toEqual([]);
    expect(existsSync(join(s.root, 'repo', 'done.txt'))).toBe(false);
  });
});

/** Variables a pane may hold that swarm up's environment had not: swarm's own, and its terminal's and shell's. */
/** Set in the pane by swarm, tmux or the shell; the GIT_CONFIG_* entries: swarm's hooks (SPEC 10.5, tested below). */
const OWN = new Set(['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0', 'PATH', 'TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'TMUX', 'TMUX_PANE', 'PWD', 'OLDPWD', 'SHLVL', '_', 'AGENT_G1']);

describe.each(['tmux', 'pty'] as const)('the pane environment on %s', (backend) => {
  it('is swarm up\'s without credentials, plus pass_env, whatever the tmux server holds', async () => {
    const s = (t = makeSwarm({ backend, passEnv: ['GH_TOKEN'], lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'env,ready,done' } }] }));
    // A server someone else started on the swarm's socket, with more in its environment.
    if (backend === 'tmux') {
      await execa('tmux', ['-L', s.socket, 'new-session', '-d', '-s', 'other'], { env: { ...s.env, MY_TOKEN: 'from-server', SERVER_ONLY: '1' }, extendEnv: false });
    }
    const extra = { MY_TOKEN: 'secret-value', ANTHROPIC_API_KEY: 'sk-stray', GH_TOKEN: 'passed-value', EDITOR: 'vim-e2e' };
    const run = await s.up(['--timeout', '40s'], extra);
    expect(run.all).toContain('plan done');
    const seen = JSON.parse(readFileSync(`${s.env.AGENT_LOG}.lane-a-g1.env.json`, 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject({ GH_TOKEN: 'passed-value', EDITOR: 'vim-e2e', AGENT_KEYS: s.env.AGENT_KEYS, SWARM_LANE: 'lane-a', SWARM_ROLE: 'lane' });
    expect(seen.MY_TOKEN).toBeUndefined();
    expect(seen.ANTHROPIC_API_KEY).toBeUndefined();
    expect(seen.SERVER_ONLY).toBeUndefined();
    const upEnv: Record<string, string> = { ...s.env, ...extra };
    expect(Object.keys(seen).filter((name) => !(name in upEnv) && !name.startsWith('SWARM_') && !OWN.has(name))).toEqual([]);
  });
});

describe('git in a pane', () => {
  it("runs swarm's hooks (core.hooksPath by git's environment), after the pane's own GIT_CONFIG_* entries", async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'env,ready,done' } }] }));
    const own = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'from-up' };
    const run = await s.up(['--timeout', '40s'], own);
    expect(run.all).toContain('plan done');
    const seen = JSON.parse(readFileSync(`${s.env.AGENT_LOG}.lane-a-g1.env.json`, 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject({
      ...own, GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_1: 'core.hooksPath', GIT_CONFIG_VALUE_1: join(s.plan, '.swarm', 'git-hooks'), SWARM_GIT_CONFIG_COUNT: '1',
    });
  });
});
