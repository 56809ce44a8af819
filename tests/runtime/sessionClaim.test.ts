/**
 * SPEC 10.1 in-process: startSwarm acts only on this plan's session. Another plan's is refused
 * before any of its panes is listed as stale or closed; a session without a stamp is adopted (and
 * stamped) when nothing in it is another plan's.
 */
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionOwnership } from '../../src/adapters/host.js';
import { loadConfig } from '../../src/adapters/configFile.js';
import { tryLock } from '../../src/adapters/lock.js';
import { planPaths } from '../../src/core/plan/paths.js';
import { MismatchError } from '../../src/errors.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost, type PaneSnapshot } from '../helpers/fakeHost.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

/** A fake host whose session has an owner, as a tmux server's would. */
class OwnedHost extends FakeHost {
  stamps: string[] = [];
  readonly ownership: SessionOwnership;

  constructor(public owner: string | null, carried: PaneSnapshot, plan: string) {
    super({ 'lane-a g1': ['ready'], 'lead g1': ['ready'] }, carried);
    this.ownership = {
      session: 'swarm-e2e',
      socket: 'fake',
      found: async () => ({ exists: true, owner: this.owner, panes: (await this.list()).map((p) => p.paneId) }),
      stamp: async () => {
        this.owner = plan;
        this.stamps.push(plan);
      },
    };
  }
}

/** A dead pane of some swarm's lane-a (another plan's, unless this plan's state records it). */
const otherPane: PaneSnapshot = [{
  info: { paneId: '%1', lane: 'lane-a', generation: 1, account: 'a1', dead: true, deadStatus: 0, pid: null },
  spec: { lane: 'lane-a', generation: 1, account: 'a1', role: 'lane', cwd: '/', argv: [], env: {}, title: 'lane-a g1 @a1' },
  step: 0,
  nth: 1,
}];

function setup() {
  const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  return { s, config, plan: realpathSync(config.plan) };
}

describe('startSwarm and the session\'s owner', () => {
  it.each([
    ['stamped with another plan', '/elsewhere/plans/p'],
    ['without a stamp, its panes none of this plan\'s', null],
  ])('a session %s is refused (exit 3) and nothing of it is closed', async (_name, owner) => {
    const { s, config, plan } = setup();
    const host = new OwnedHost(owner, otherPane, plan);
    const refused = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host }).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(MismatchError);
    expect((refused as MismatchError).exitCode).toBe(3);
    expect((refused as MismatchError).message).toContain(`not to plan ${plan}`);
    expect(host.closed).toEqual([]);
    expect([...host.panes.keys()]).toEqual(['%1']);
    expect(host.stamps).toEqual([]);
    expect(s.events('stale_panes_closed')).toEqual([]);
    const lock = tryLock(planPaths(config.plan).lock, 'probe'); // the plan's lock was let go
    expect(lock.ok).toBe(true);
    if (lock.ok) lock.release();
  });

  it.each([
    ['without a stamp and without agent panes: adopted and stamped', null, ['session_adopted']],
    ['stamped with this plan: used as it is', 'PLAN', []],
  ])('a session %s', async (_name, owner, adopted) => {
    const { s, config, plan } = setup();
    const host = new OwnedHost(owner === 'PLAN' ? plan : owner, [], plan);
    const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host });
    await swarm.detach();
    await Promise.all([...host.running]);
    expect(s.events('session_adopted').map((e) => e.event)).toEqual(adopted);
    expect(host.owner).toBe(plan);
    expect(host.stamps).toEqual(adopted.length > 0 ? [plan] : []);
    expect(host.panes.size).toBeGreaterThanOrEqual(2); // the lead and lane-a started
  });
});
