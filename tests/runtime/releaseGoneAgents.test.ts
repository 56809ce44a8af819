/**
 * The run's end (chaos seed 1021): a lane's agent dies in the moment the plan is done, before its
 * exit reaches the reducer. swarm up's end releases the leases of this engine whose named agent is
 * gone, and leaves those of agents still running (a done lane's pane stays open). In-process: fake
 * pane host, hand clock, real plan files and a real machine lease folder.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { leaseAgent, readPlanLeases } from '../../src/adapters/leaseFiles.js';
import { releaseGoneAgents } from '../../src/runtime/agentStarts.js';
import { FakeHost } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { finishInProcess, startInProcess } from '../helpers/inProcess.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('at the end of a run', () => {
  it("releases a lease whose agent is gone, keeps one whose agent runs", async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2' }, { name: 'lane-b', account: 'a3' }], timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }' }));
    const clock = new HandClock();
    const host = new FakeHost({ 'lane-a g1': ['ready', 'done'], 'lane-b g1': ['ready', 'done'] });
    const swarm = await startInProcess(s, host, clock);
    await s.waitEvent('lane_result', 2);
    const leases = () => readPlanLeases(s.plan, s.env).map((l) => l.account).sort();
    await waitFor(() => (leases().includes('a2') && leases().includes('a3')) || null, { what: 'both lanes leased' });
    const dead = spawnSync('true').pid;
    leaseAgent(swarm.engine.leases, { account: 'a2', lane: 'lane-a', generation: 1 }, { pid: dead, start: null });
    leaseAgent(swarm.engine.leases, { account: 'a3', lane: 'lane-b', generation: 1 }, { pid: process.pid, start: null });
    releaseGoneAgents(swarm.engine);
    expect(leases()).not.toContain('a2');
    expect(leases()).toContain('a3');
    await waitFor(() => s.events('lease_released').find((e) => e.account === 'a2') ?? null, { what: "a2's release journaled" });
    expect(s.events('lease_released').filter((e) => e.account === 'a2')).toMatchObject([{ lane: 'lane-a', why: 'the run ended and its agent is gone' }]);
    await finishInProcess(s, swarm, host, clock);
  });
});
