import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { laneAdd } from '../../src/commands/laneAdd.js';
import { UsageError } from '../../src/errors.js';
import { swarm, testPlan, type TestPlan, claimAsUp } from '../helpers/swarm.js';

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

describe('swarm lane add from a plain shell', () => {
  it('says plainly that only the lead adds lanes, from its pane, and suggests no variables to set (exit 2)', async () => {
    const error = (await laneAdd(io(['add', 'lane-z', '--task', 'x'])).then(() => null, (e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe("swarm lane add is the lead's: only the swarm's lead adds lanes, from its own pane (no SWARM_PLAN here)");
    expect(error.hint).toBe('ask the lead in its pane (`swarm attach`) to add the lane; variables set by hand make no shell the lead');
    expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(/export|SWARM_ROLE=/);
  });
});

describe('swarm lane add on a pool whose kinds have no launch of their own', () => {
  let t: TestPlan;
  beforeEach(() => {
    t = testPlan();
    writeFileSync(join(t.root, 'swarm.yaml'), [
      'version: 1', 'name: t', 'plan: plans/p1',
      'accounts: [{ id: acct-lead, kind: sim }, { id: c1, kind: command }]',
      'lead: { account: acct-lead }', 'lanes: []', '',
    ].join('\n'));
  });
  afterEach(() => t.cleanup());
  const env = () => t.agentEnv('lead', { SWARM_CONFIG: join(t.root, 'swarm.yaml'), SWARM_ACCOUNT: 'acct-lead' });

  it('refuses --kind command without --command (exit 2), and takes it with one', async () => {
    expect(claimAsUp(t.plan, { account: 'acct-lead' }).code).toBe(0);
    const refused = await swarm(['lane', 'add', 'lane-z', '--task', 't', '--kind', 'command'], { env: env(), cwd: t.root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('lane-z needs --command: no account it could run on has a launch of its own (kind command)');
    const taken = await swarm(['lane', 'add', 'lane-z', '--task', 't', '--kind', 'command', '--command', 'true'], { env: env(), cwd: t.root });
    expect(taken.code).toBe(0);
  });
});

describe('swarm lane add: names and checkouts (SPEC 10.1)', () => {
  let t: TestPlan;
  beforeEach(() => {
    t = testPlan();
    mkdirSync(join(t.root, 'wt-a'));
    mkdirSync(join(t.root, 'wt-z'));
    symlinkSync(join(t.root, 'wt-a'), join(t.root, 'link-to-a'));
    writeFileSync(join(t.root, 'swarm.yaml'), [
      'version: 1', 'name: t', 'plan: plans/p1',
      'accounts: [{ id: acct-lead, kind: sim }, { id: s1, kind: sim }]',
      'lead: { account: acct-lead }', 'lanes: [{ name: lane-a, checkout: wt-a, task: t }]', '',
    ].join('\n'));
  });
  afterEach(() => t.cleanup());
  const env = () => t.agentEnv('lead', { SWARM_CONFIG: join(t.root, 'swarm.yaml'), SWARM_ACCOUNT: 'acct-lead' });
  const add = (name: string, checkout: string) => swarm(['lane', 'add', name, '--task', 't', '--checkout', checkout], { env: env(), cwd: t.root });

  it('refuses a lane name over 64 characters (exit 2) and takes one of 64', async () => {
    expect(claimAsUp(t.plan, { account: 'acct-lead' }).code).toBe(0);
    const refused = await add('x'.repeat(240), 'wt-z');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`swarm lane add: the lane name "${'x'.repeat(40)}"… is 240 characters: a name may have at most 64 (it names files and tmux panes); shorten it`);
    expect((await add('x'.repeat(64), 'wt-z')).code).toBe(0);
  });

  it("refuses a checkout that is a symlink to another lane's (exit 2)", async () => {
    expect(claimAsUp(t.plan, { account: 'acct-lead' }).code).toBe(0);
    const refused = await add('lane-z', 'link-to-a');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`swarm lane add: ${join(t.root, 'link-to-a')} is lane lane-a's checkout (it leads to ${realpathSync(join(t.root, 'wt-a'))})`);
  });
});
