import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, swarm, testPlan, type TestPlan } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan({ contract: 'c-7' });
});
afterEach(() => t.cleanup());

const write = (extra: string[] = [], env: Record<string, string> = {}) =>
  swarm(['packet', 'write', '--reason', 'capacity_critical', '--doing', 'step 2: parser', '--next', 'finish the parser', '--next', 'run npm test', ...extra], {
    cwd: t.root,
    env: t.agentEnv('lane-a', env),
  });

const successor = (extra: Record<string, string> = {}) => t.agentEnv('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'acct-2', ...extra });

describe('swarm packet write', () => {
  it('writes a 0600 packet in a 0700 folder from the checkout’s git state and prints its absolute path', async () => {
    writeFileSync(join(t.root, 'src', 'app.txt'), 'changed\n');
    const run = await write(['--done', 'step 1', '--verified', 'unit tests=npm test passed', '--unverified', 'e2e=npm run e2e', '--deadend', 'regex parser: too slow', '--decision', 'use yaml@2', '--ask', 'lane-b: flag name?', '--step', '2']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const path = run.stdout.trim();
    expect(path).toMatch(new RegExp(`^${join(t.plan, 'analysis_results', 'handoff')}/lane-a-g1-\\d{8}T\\d{6}Z\\.yaml$`));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    const text = readFileSync(path, 'utf8');
    for (const piece of ['schema: dwp-handoff/v1', 'plan: p1', 'contract: c-7', 'reason: capacity_critical', 'branch: main', `head: ${git(t.root, 'rev-parse', 'HEAD')}`, '- src/app.txt', 'step: 2', 'evidence: npm test passed', 'gate: npm run e2e', 'lane: lane-a', 'degraded: false']) {
      expect(text).toContain(piece);
    }
  });

  it.each([
    [['--doing', 'x', '--next', 'y'], '--reason must be one of capacity_critical, capacity_low, context_pressure, usage_limit, lead_handover, lane_lost; got ""'],
    [['--reason', 'tired', '--doing', 'x', '--next', 'y'], 'got "tired"'],
    [['--reason', 'capacity_low', '--next', 'y'], '--doing is required'],
    [['--reason', 'capacity_low', '--doing', 'x'], 'at least one --next is required'],
    [['--reason', 'capacity_low', '--doing', 'x', '--next', '  '], 'at least one --next is required'],
    [['--reason', 'capacity_low', '--doing', 'x', '--next', 'y', '--verified', 'no-equals'], '--verified takes WHAT=EVIDENCE, got "no-equals"'],
    [['--reason', 'capacity_low', '--doing', 'x', '--next', 'y', '--colour'], "Unknown option '--colour'"],
  ])('refuses %j with exit 2', async (args, message) => {
    const run = await swarm(['packet', 'write', ...args], { cwd: t.root, env: t.agentEnv('lane-a') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('refuses to write a secret value, naming the field but not the value', async () => {
    const run = await write(['--done', 'used token ghp_abcdefghijklmnopqrstuvwxyz0123456789'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('done[0]');
    expect(run.stderr).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(existsSync(join(t.plan, 'analysis_results', 'handoff'))).toBe(false);
  });
});

describe('swarm accept', () => {
  it('accepts a matching packet once: writes the record, tells swarm, prints the resume brief', async () => {
    const path = (await write(['--unverified', 'e2e=npm run e2e'])).stdout.trim();
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('npm run e2e');
    expect(run.stdout).toContain('finish the parser');
    const record = JSON.parse(readFileSync(`${path}.accepted.json`, 'utf8'));
    expect(record).toMatchObject({ packet: path, by: { lane: 'lane-a', account: 'acct-2', generation: 2 } });
    const inbox = readFileSync(join(t.plan, '.swarm', 'inbox.jsonl'), 'utf8');
    expect(inbox).toContain('"kind":"accept"');
    // Idempotent for the same successor; refused for another.
    expect((await swarm(['accept', path], { cwd: t.root, env: successor() })).code).toBe(0);
    const other = await swarm(['accept', path], { cwd: t.root, env: successor({ SWARM_GENERATION: '3' }) });
    expect(other.code).toBe(3);
    expect(other.stderr).toContain('already accepted by lane-a g2');
  });

  it('takes the packet from $SWARM_PACKET when no argument is given', async () => {
    const path = (await write()).stdout.trim();
    const run = await swarm(['accept'], { cwd: t.root, env: successor({ SWARM_PACKET: path }) });
    expect(run.code).toBe(0);
  });

  it('prints every mismatch, writes nothing and exits 3 when the checkout moved on', async () => {
    const path = (await write()).stdout.trim();
    writeFileSync(join(t.root, 'src', 'new.txt'), 'x\n');
    git(t.root, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(t.plan, 'PLAN.md'), '---\ncontract: c-8\n---\n# Plan\n');
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('contract: expected "c-8"');
    expect(run.stderr).toContain('where.branch: expected "other"');
    expect(run.stderr).toContain('where.uncommitted differs from the checkout');
    expect(existsSync(`${path}.accepted.json`)).toBe(false);
  });

  it('a new commit changes the head: refused', async () => {
    const path = (await write()).stdout.trim();
    writeFileSync(join(t.root, 'src', 'app.txt'), 'two\n');
    git(t.root, 'commit', '-qam', 'more');
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('where.head: expected');
  });

  it('a missing packet is a mismatch with the path named, exit 3', async () => {
    const run = await swarm(['accept', join(t.plan, 'nope.yaml')], { cwd: t.root, env: successor() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no packet at');
  });

  it('a degraded packet says so first in the brief', async () => {
    const path = (await write()).stdout.trim();
    const text = readFileSync(path, 'utf8').replace('degraded: false', 'degraded: true');
    writeFileSync(path, text);
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('[DEGRADED: handoff not written]')).toBe(true);
  });
});
