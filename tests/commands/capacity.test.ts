import { chmodSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { swarm, testPlan, writeTree, type TestPlan, spoolRecords } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan();
});
afterEach(() => t.cleanup());

const check = async (env: Record<string, string> = {}) => {
  const run = await swarm(['capacity', '--self', '--json'], { env: t.agentEnv('lane-a', env) });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
};

describe('swarm capacity --self --json', () => {
  it('says unknown (never ok) with no reading at all, and decides to continue', async () => {
    expect(await check()).toEqual({
      account: 'acct-lane-a',
      state: 'unknown',
      remaining_pct: null,
      context_pct: null,
      resets_at: null,
      source: 'none',
      cached: false,
      decision: 'continue',
    });
  });

  it('uses the lane’s last capacity line', async () => {
    await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 64% @acct-lane-a context=12%'], { env: t.agentEnv('lane-a') });
    expect(await check()).toMatchObject({ state: 'ok', remaining_pct: 64, context_pct: 12, source: 'report', cached: true, decision: 'continue' });
  });

  it.each([
    ['30', 'ok', 'continue'],
    ['25', 'low', 'handoff_soon'],
    ['10', 'critical', 'handoff_now'],
  ])('at %s%% remaining the state is %s and the decision %s', async (pct, state, decision) => {
    await swarm(['notify', 'lead', `plan ready\ncapacity=ok ${pct}% @acct-lane-a`], { env: t.agentEnv('lane-a') });
    expect(await check()).toMatchObject({ state, decision });
  });

  it('AGENTKIT_CAPACITY_CAP lowers a reading and never raises it', async () => {
    await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 64% @acct-lane-a'], { env: t.agentEnv('lane-a') });
    expect(await check({ AGENTKIT_CAPACITY_CAP: '@acct-lane-a=8' })).toMatchObject({ state: 'critical', remaining_pct: 8, decision: 'handoff_now' });
    expect(await check({ AGENTKIT_CAPACITY_CAP: '@acct-lane-a=90' })).toMatchObject({ state: 'ok', remaining_pct: 64 });
    expect(await check({ AGENTKIT_CAPACITY_CAP: '@someone-else=1' })).toMatchObject({ state: 'ok', remaining_pct: 64 });
  });

  it('AGENTKIT_CAPACITY_LOW / _CRITICAL move the thresholds', async () => {
    await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 40% @acct-lane-a'], { env: t.agentEnv('lane-a') });
    expect(await check({ AGENTKIT_CAPACITY_LOW: '50' })).toMatchObject({ state: 'low', decision: 'handoff_soon' });
  });

  it('context pressure alone hands off', async () => {
    await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 90% @acct-lane-a context=61%'], { env: t.agentEnv('lane-a') });
    expect(await check()).toMatchObject({ state: 'ok', decision: 'handoff_now' });
  });

  it('the context lines take effect (SPEC 10.7): tokens in context against the window the agent reported, at = window - headroom', async () => {
    // A reading the status line cached: 55,000 tokens of a reported 100,000 window (55 %): the % alone says soon; at = 50,000 says now.
    const save = (extra: Record<string, unknown>) => {
      mkdirSync(join(t.plan, '.swarm', 'capacity'), { recursive: true });
      writeFileSync(join(t.plan, '.swarm', 'capacity', 'acct-lane-a.json'), JSON.stringify({
        account: 'acct-lane-a', state: 'ok', remaining_pct: 80, context_pct: 55, resets_at: null, source: 'probe', at: new Date().toISOString(), ...extra,
      }));
    };
    save({ context_tokens: 55_000, window: 100_000 });
    expect(await check()).toMatchObject({ context_pct: 55, decision: 'handoff_now' });
    // Without the token count (an older cache file): the % alone.
    save({});
    expect(await check()).toMatchObject({ decision: 'handoff_soon' });
    // A count that is no count (the file is written by agents' commands) is none.
    save({ context_tokens: '99999999', window: -5 });
    expect(await check()).toMatchObject({ decision: 'handoff_soon' });
  });

  it('asks `ak` first when it is on PATH, and caches its answer', async () => {
    const bin = join(t.root, 'bin');
    const counter = join(t.root, 'ak-calls');
    writeTree(bin, { ak: `#!/bin/sh\necho x >> ${counter}\necho '{"state":"low","remaining_pct":21,"resets_at":"2030-01-01T00:00:00Z"}'\n` });
    chmodSync(join(bin, 'ak'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    expect(await check(env)).toMatchObject({ state: 'low', remaining_pct: 21, source: 'ak', cached: false, resets_at: '2030-01-01T00:00:00Z' });
    expect(await check(env)).toMatchObject({ state: 'low', source: 'ak', cached: true });
    expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('never asks `ak` about a sim account (issue 9 §7): it cannot know one', async () => {
    const bin = join(t.root, 'bin');
    const counter = join(t.root, 'ak-calls');
    writeTree(bin, { ak: `#!/bin/sh\necho x >> ${counter}\necho '{"state":"low","remaining_pct":21,"resets_at":null}'\n` });
    chmodSync(join(bin, 'ak'), 0o755);
    const result = await check({ PATH: `${bin}:${process.env.PATH}`, SWARM_KIND: 'sim' });
    expect(result.source).not.toBe('ak');
    expect(() => readFileSync(counter, 'utf8')).toThrow();
  });

  it('records each reading in the inbox so the dashboard sees it', async () => {
    await check();
    expect(spoolRecords(t.plan).at(-1)).toMatchObject({ kind: 'capacity', from: 'lane-a', state: 'unknown', decision: 'continue', source: 'none' });
  });

  it.each([
    [{ AGENTKIT_CAPACITY_LOW: 'lots' }, 'AGENTKIT_CAPACITY_LOW'],
    [{ AGENTKIT_CAPACITY_CAP: 'work1=5' }, 'AGENTKIT_CAPACITY_CAP'],
  ])('refuses a bad environment value %j naming the variable, exit 2', async (env, name) => {
    const run = await swarm(['capacity', '--self', '--json'], { env: t.agentEnv('lane-a', env) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(name);
  });

  it('refuses an unknown option, exit 2', async () => {
    const run = await swarm(['capacity', '--sef'], { env: t.agentEnv('lane-a') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown option --sef');
  });

  it('reads thresholds from swarm.yaml settings written by the engine', async () => {
    mkdirSync(join(t.plan, '.swarm'), { recursive: true });
    writeFileSync(join(t.plan, '.swarm', 'settings.json'), JSON.stringify({ capacity: { low: 70, critical: 5 }, contextPressure: 60, window: 'auto', headroom: 50000 }));
    await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 64% @acct-lane-a'], { env: t.agentEnv('lane-a') });
    expect(await check()).toMatchObject({ state: 'low' });
  });
});

describe('swarm capacity without the engine’s settings', () => {
  it('reads the thresholds from $SWARM_CONFIG (the YAML loader, outside the fast path)', async () => {
    const t2 = testPlan();
    try {
      writeTree(t2.root, {
        'swarm.yaml': [
          'version: 1', 'name: cap', 'plan: plans/p1',
          'accounts: [{ id: acct-lane-a, kind: command, vendor: v1 }, { id: lead1, kind: command, vendor: v2 }]',
          'lead: { account: lead1, command: "true" }', 'lanes: []', 'thresholds: { capacity_low: 70, capacity_critical: 5 }', '',
        ].join('\n'),
      });
      const env = t2.agentEnv('lane-a', { SWARM_CONFIG: join(t2.root, 'swarm.yaml') });
      await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 64% @acct-lane-a'], { env });
      const run = await swarm(['capacity', '--self', '--json'], { env });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toMatchObject({ state: 'low', remaining_pct: 64, decision: 'handoff_soon' });
      const bad = await swarm(['capacity', '--self', '--json'], { env: { ...env, SWARM_CONFIG: join(t2.root, 'nope.yaml') } });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('not found');
      expect(bad.stderr).not.toContain('internal error');
    } finally {
      t2.cleanup();
    }
  });
});
