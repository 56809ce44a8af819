/**
 * Runs on real tmux (SPEC 10.1): a `done` queued while `swarm up` was killed, by an agent that has
 * exited since, counts on the restart; after `swarm down`, a record of the ended run (an old agent's
 * `swarm notify … done`, its environment the old pane's) is journaled stale_record and changes nothing.
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const laneState = (s: TestSwarm, lane: string): string | undefined =>
  (JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { lanes: Record<string, { state: string }> }).lanes[lane]?.state;

describe('runs (tmux)', () => {
  it('kill -9 of swarm up; the lane reports done and exits; swarm up again: the lane is done, no successor, no degraded packet', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep2500,done,exit' } }] }));
    const first = s.up();
    await waitFor(() => s.agentLog().includes('lane-a g1 ready'), { timeout: 30_000, what: 'lane-a g1 ready' });
    first.kill('SIGKILL');
    await first;
    await waitFor(() => s.agentLog().includes('lane-a g1 exit'), { timeout: 15_000, what: 'lane-a g1 done, then gone' });
    expect(s.events('lane_result')).toEqual([]);

    const again = await s.up(['--timeout', '45s']);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', generation: 1, result: 'done' }]);
    expect(s.events('lane_lost')).toEqual([]);
    expect(s.events('successor_spawned')).toEqual([]);
    expect(s.events('handoff_reported')).toEqual([]);
    expect(s.agentLog()).not.toContain('lane-a g2 started');
  });

  it('after swarm down, an old agent\'s `swarm notify lead done` (its pane gone, its environment kept): fenced, the new run\'s lane is not done by it', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,env,sleep6000,done' } }] }));
    const envFile = `${s.env.AGENT_LOG}.lane-a-g1.env.json`;
    const first = s.up();
    await waitFor(() => existsSync(envFile), { timeout: 30_000, what: 'run 1 lane-a g1 environment' });
    const old = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(old.SWARM_RUN).toBe('1');
    expect((await s.run(['down', s.file])).code).toBe(0);
    await first;

    const second = s.up(['--timeout', '45s']);
    await waitFor(() => s.agentLog().filter((l) => l === 'lane-a g1 env').length === 2, { timeout: 30_000, what: 'run 2 lane-a g1 at work' });
    const notify = await execa('node', [CLI, 'notify', 'lead', 'done\ncapacity=ok 70%'], { env: old, extendEnv: false, reject: false, cwd: old.PWD ?? s.root });
    // Its pane is gone, so no recorded pane is among its ancestors: its environment makes it nobody (SPEC 10.3).
    expect(notify.exitCode, notify.stderr).toBe(3);
    expect(notify.stderr).toContain('fenced: swarm notify ran outside every pane swarm started for this plan (its environment says lane-a, which grants nothing)');
    expect(laneState(s, 'lane-a')).toBe('working');
    expect(s.events('lane_result')).toEqual([]);

    const run = await second;
    expect(run.all).toContain('plan done');
    expect(s.events('run_started')).toMatchObject([{ run: 1 }, { run: 2 }]);
    expect(String((s.events('run_started')[1]!.heads as Record<string, string>)['lane-a'])).toMatch(/^[0-9a-f]{40}$/);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', generation: 1, result: 'done' }]);
  });
});
