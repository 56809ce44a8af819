/**
 * SPEC 10.1, after a crash: the plan lock names a process (pid, start time, host), so a pid now
 * used by another process is a dead holder that `swarm up` takes over and `swarm down` never
 * signals; and `swarm down` ends the `done_when` gate a killed engine left running (its recorded
 * process group, or the one its run's name finds) before it writes into the checkout again.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../src/adapters/lock.js';
import { readStat } from '../../src/adapters/procStatFile.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
const strangers: number[] = [];
afterEach(async () => {
  for (const pid of strangers.splice(0)) if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
  await t?.cleanup();
  t = null;
});

/** Members of process group `pgid` still running (zombies are not). */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
    const stat = readStat(pid);
    return stat !== null && stat.pgrp === pgid && stat.state !== 'Z';
  });
}

/** A process this test started and that is no swarm's: `sleep 60`, and its start time. */
async function stranger(): Promise<{ pid: number; startTicks: number }> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore', detached: true });
  child.unref();
  const pid = child.pid!;
  strangers.push(pid);
  const startTicks = await waitFor(() => readStat(pid)?.startTicks, { what: 'the stranger in /proc' });
  return { pid, startTicks };
}

const writeLock = (s: TestSwarm, holder: { pid: number; startTicks: number }): void =>
  writeFileSync(join(s.plan, '.swarm', 'lock'), JSON.stringify({ ...holder, host: hostname(), since: '2025-01-01T00:00:00.000Z', purpose: 'swarm up e2e' }));

describe('the plan lock names a process, not a pid', () => {
  it('a lock naming a live process of another start time: swarm down does not signal it, swarm up takes the lock over', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' } }] }));
    const other = await stranger();
    mkdirSync(join(s.plan, '.swarm'), { recursive: true });
    writeLock(s, { pid: other.pid, startTicks: other.startTicks + 1 }); // the engine that had this pid is gone

    const down = await s.run(['down', s.file]);
    expect(down.code).toBe(0);
    expect(down.stdout).not.toContain('stopped the engine');
    expect(readStat(other.pid)?.state).not.toBe('Z');
    expect(pidAlive(other.pid)).toBe(true);

    writeLock(s, { pid: other.pid, startTicks: other.startTicks + 1 });
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(pidAlive(other.pid)).toBe(true);
  });

  it('a lock naming that very process (pid and start time) still holds the plan: swarm up exits 3', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' } }] }));
    const other = await stranger();
    mkdirSync(join(s.plan, '.swarm'), { recursive: true });
    writeLock(s, other);
    const run = await s.up(['--timeout', '45s']);
    expect(run.exitCode).toBe(3);
    expect(run.all).toContain(`already run by pid ${other.pid}`);
  });
});

describe('swarm down after kill -9 of swarm up', () => {
  const gate = 'echo start >> gate.log; sleep 6; echo finish >> gate.log';
  const stateOf = (s: TestSwarm) => JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { lanes: Record<string, { gate: { id: string; process?: { pid: number } } | null }> };

  it.each([
    ['its process recorded in the state', {}],
    ['killed before its process was recorded (found by its run)', { SWARM_FAULT: 'after:run_gate' }],
  ])('ends the done_when gate left running, %s: its process group is gone and it writes no more', async (_name, fault) => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' }, doneWhen: gate }] }));
    const log = join(s.root, 'wt-lane-a', 'gate.log');
    const first = s.up([], fault);
    await waitFor(() => existsSync(log), { timeout: 30_000, what: 'the gate to start (gate.log in the checkout)' });
    if (!('SWARM_FAULT' in fault)) await waitFor(() => stateOf(s).lanes['lane-a']?.gate?.process, { what: 'the gate\'s process in the state file' });
    first.kill('SIGKILL');
    await first;
    const run = stateOf(s).lanes['lane-a']!.gate!.id;
    const leader = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`SWARM_GATE=${s.plan}#${run}`) && readStat(pid)?.pgrp === pid;
      } catch {
        return false;
      }
    });
    expect(leader).toBeDefined();
    expect(groupMembers(leader!).length).toBeGreaterThan(0);

    const down = await s.run(['down', s.file]);
    expect(down.code).toBe(0);
    expect(groupMembers(leader!)).toEqual([]);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual(['start']);
    expect(down.stdout).toContain('ended the done_when gate of lane-a');
    expect(s.events('gate_ended')).toMatchObject([{ lane: 'lane-a', run, pid: leader, found: 'ended' }]);
  });
});
