/**
 * SPEC 10.4, in-process (fake pane host, a hand clock, real plan files and a real machine lease
 * folder): a successor whose only free account another swarm holds waits (`waiting_for_account`,
 * once), asks again every ACCOUNT_RETRY_MS of the engine's clock, and takes the account as soon as the
 * other swarm lets it go; the wait is state, so a restart in the middle keeps waiting and then takes it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gitState, type GitState } from '../../src/adapters/git.js';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { accountKeys, machineLeaseDir } from '../../src/adapters/leaseFiles.js';
import { readStat } from '../../src/adapters/procStatFile.js';
import { leaseFileOfKey } from '../../src/core/accounts/leaseKey.js';
import { ACCOUNT_RETRY_MS } from '../../src/machine/types.js';
import { planPaths } from '../../src/core/plan/paths.js';
import { loadState } from '../../src/runtime/engineState.js';
import { FakeHost } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { finishInProcess, startInProcess } from '../helpers/inProcess.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const TIMEOUTS = '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }';

/** Another swarm's live lease of `account` (its engine: this very process, so alive). */
function heldByAnother(s: TestSwarm, account: string): string {
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  const key = accountKeys(config.accounts, () => ({ profile: null }), config.file, s.env).get(account)!;
  const dir = machineLeaseDir(s.env);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, leaseFileOfKey(key));
  writeFileSync(path, JSON.stringify({
    account: 'theirs', lane: 'lane-x', generation: 4, pid: process.pid, start: readStat(process.pid)?.startTicks ?? null,
    host: hostname(), acquired_at: new Date().toISOString(), key, plan: '/elsewhere/plans/other', config: '/elsewhere/swarm.yaml', agent: null,
  }));
  return path;
}

const accounts = [{ id: 'l1', vendor: 'v1' }, { id: 'a1', vendor: 'v1' }, { id: 'a2', vendor: 'v2' }];

describe('a successor waits for an account another swarm holds', () => {
  it.each([false, true])('and takes it once freed (restart while waiting: %s)', async (restart) => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a1' }], accounts, timeouts: TIMEOUTS }));
    const held = heldByAnother(s, 'a2');
    const scripts = { 'lane-a g1': ['ready' as const, 'handoff' as const], 'lane-a g2': ['done' as const] };
    const clock = new HandClock();
    let host = new FakeHost(scripts);
    let swarm = await startInProcess(s, host, clock);
    await s.waitEvent('waiting_for_account');
    expect(s.events('waiting_for_account')).toMatchObject([{ lane: 'lane-a', for_generation: 2, why: expect.stringContaining('a2 held by another swarm (plan /elsewhere/plans/other, lane-x g4)') }]);
    // Still held: each ask (a pick, counted in the saved state) finds it so, and says nothing new.
    const picks = () => loadState(planPaths(s.plan).state)?.lanes['lane-a']?.handoff?.picks ?? 0;
    const first = picks();
    for (let i = 1; i <= 3; i += 1) {
      clock.advance(ACCOUNT_RETRY_MS);
      await waitFor(() => picks() >= first + i && loadState(planPaths(s.plan).state)?.lanes['lane-a']?.phase === 'waiting', { what: `ask ${i} answered` });
    }
    expect(s.events('waiting_for_account')).toHaveLength(1);
    expect(s.events('successor_spawned')).toEqual([]);
    if (restart) {
      await swarm.detach();
      host = new FakeHost(scripts, host.snapshot());
      swarm = await startInProcess(s, host, clock);
    }
    rmSync(held); // the other swarm went down
    expect(s.events('successor_spawned')).toEqual([]);
    clock.advance(ACCOUNT_RETRY_MS); // the next ask takes it
    await s.waitEvent('successor_spawned');
    expect(s.events('lease_acquired').at(-1)).toMatchObject({ lane: 'lane-a', account: 'a2', for_generation: 2 });
    const outcome = await finishInProcess(s, swarm, host, clock);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('waiting_for_account')).toHaveLength(1);
  });
});

/** A pane host whose lane-a runs on another host (SPEC 10.9) that cannot be reached while `why` is set. */
class HostDown extends FakeHost {
  why: string | null = null;
  hostDown(agent: string): string | null {
    return agent === 'lane-a' ? this.why : null;
  }
  /** Whether lane-a's checkout cannot be read there (its host down) while `why` is set. */
  unreadable = false;
  /** lane-a's checkout cannot be read there this many times more, the host up (it went and came back meanwhile). */
  failsOnce = 0;
  /** The calls that read lane-a's checkout, each with what `onRead` said then. */
  readonly reads: string[] = [];
  onRead: () => string = () => '';
  /** lane-a's checkout read "there" (the test's worktree). */
  async gitState(agent: string, checkout: string): Promise<GitState | null> {
    if (agent !== 'lane-a') return null;
    if (this.unreadable && this.why !== null) throw new Error(this.why);
    if (this.failsOnce > 0) {
      this.failsOnce -= 1;
      throw new Error('host box: the connection dropped');
    }
    this.reads.push(this.onRead());
    return gitState(checkout, null);
  }
}

describe("a lane whose host cannot be reached", () => {
  it('waits at its first start, and starts once the host is back', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a1' }], accounts, timeouts: TIMEOUTS }));
    const clock = new HandClock();
    const host = new HostDown({ 'lane-a g1': ['ready' as const, 'done' as const] });
    host.why = 'host box is unreachable: connection refused';
    const swarm = await startInProcess(s, host, clock);
    await s.waitEvent('waiting_for_account');
    expect(s.events('waiting_for_account')).toMatchObject([{ lane: 'lane-a', for_generation: 1, why: 'host box is unreachable: connection refused' }]);
    expect(s.events('lane_started').map((e) => e.lane)).toEqual(['lead']);
    host.why = null;
    clock.advance(ACCOUNT_RETRY_MS);
    const outcome = await finishInProcess(s, swarm, host, clock);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('lane_started').map((e) => e.lane)).toEqual(['lead', 'lane-a']);
  });


  it("lost while its host is down: its degraded packet is completed there once the host is back, and its successor there accepts it", async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a1' }], accounts, timeouts: TIMEOUTS }));
    // lane-a's host goes away, and its pane with it.
    const away = async (): Promise<void> => { host.why = 'host box is unreachable: connection refused'; };
    const scripts = { 'lane-a g1': ['ready' as const, away, 'vanish' as const], 'lane-a g2': ['done' as const] };
    const clock = new HandClock();
    const host: HostDown = new HostDown(scripts);
    host.unreadable = true;
    const swarm = await startInProcess(s, host, clock);
    await s.waitEvent('waiting_for_account');
    const packet = String(s.events('degraded_handoff')[0]?.packet ?? s.events('handoff_reported').at(-1)?.packet);
    expect(readFileSync(packet, 'utf8')).toMatch(/branch: null/);
    host.why = null; // the host is back
    clock.advance(ACCOUNT_RETRY_MS);
    await s.waitEvent('successor_spawned');
    const outcome = await finishInProcess(s, swarm, host, clock);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(readFileSync(packet, 'utf8')).toContain('branch: lane/lane-a');
    expect(s.events('packet_accepted')).toMatchObject([{ lane: 'lane-a', generation: 2 }]);
  });

  it("lost while its host answers but cannot read its checkout: the packet names the checkout alone (never read here), completed there before its successor starts", async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a1' }], accounts, timeouts: TIMEOUTS }));
    const drop = async (): Promise<void> => { host.failsOnce = 1; };
    const host: HostDown = new HostDown({ 'lane-a g1': ['ready' as const, drop, 'vanish' as const], 'lane-a g2': ['done' as const] });
    const packetNow = (): string => {
      const packet = s.events('handoff_reported').at(-1)?.packet;
      return packet === undefined ? '' : readFileSync(String(packet), 'utf8');
    };
    host.onRead = packetNow;
    const clock = new HandClock();
    const swarm = await startInProcess(s, host, clock);
    await s.waitEvent('successor_spawned');
    // The first read there after the loss is the refresh: the packet then named no branch (not this machine's reading).
    expect(host.reads.find((text) => text !== '')).toMatch(/branch: null/);
    const outcome = await finishInProcess(s, swarm, host, clock);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(packetNow()).toContain('branch: lane/lane-a');
    expect(s.events('packet_accepted')).toMatchObject([{ lane: 'lane-a', generation: 2 }]);
  });

  it("its successor waits for the host, blaming no account, and starts once the host is back", async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a1' }], accounts, timeouts: TIMEOUTS }));
    // lane-a's host goes away as its agent hands off (its successor is to start there).
    const away = async (): Promise<void> => { host.why = 'host box is unreachable: connection refused'; };
    const scripts = { 'lane-a g1': ['ready' as const, away, 'handoff' as const], 'lane-a g2': ['done' as const] };
    const clock = new HandClock();
    const host: HostDown = new HostDown(scripts);
    const swarm = await startInProcess(s, host, clock);
    await s.waitEvent('waiting_for_account');
    expect(s.events('waiting_for_account')).toMatchObject([{ lane: 'lane-a', for_generation: 2, why: 'host box is unreachable: connection refused' }]);
    // Each ask (a pick, counted in the saved state) finds the host still away.
    const picks = () => loadState(planPaths(s.plan).state)?.lanes['lane-a']?.handoff?.picks ?? 0;
    const first = picks();
    for (let i = 1; i <= 2; i += 1) {
      clock.advance(ACCOUNT_RETRY_MS);
      await waitFor(() => picks() >= first + i && loadState(planPaths(s.plan).state)?.lanes['lane-a']?.phase === 'waiting', { what: `ask ${i} answered` });
    }
    expect(s.events('lease_acquired').filter((e) => e.lane === 'lane-a' && e.for_generation === 2)).toEqual([]);
    expect(s.events('successor_spawned')).toEqual([]);
    host.why = null; // the host is back
    clock.advance(ACCOUNT_RETRY_MS);
    await s.waitEvent('successor_spawned');
    const outcome = await finishInProcess(s, swarm, host, clock);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('waiting_for_account')).toHaveLength(1);
  });
});
