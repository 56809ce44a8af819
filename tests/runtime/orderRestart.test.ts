/**
 * `after:` holds after a restart (SPEC 10.6; a night is many runs of `swarm up`): the engine stops
 * while lane-b waits for lane-a; a new engine on the same panes (as tmux keeps them) keeps lane-b
 * waiting — no pane, no lease — and starts it once lane-a is done; each lane has one agent.
 */
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { readPlanLeases } from '../../src/adapters/leaseFiles.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost, type Scripts } from '../helpers/fakeHost.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('after: across a restart (in-process, fake host)', () => {
  it('lane-b still waits after the restart, with no pane and no lease, and starts once lane-a is done', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }, { name: 'lane-b', after: ['lane-a'] }], timeouts: '{ accept: 5s, packet: 2s, stall: 10m, ask: 30s, release: 50ms }' }));
    let go = false;
    const scripts: Scripts = { 'lane-a g1': ['ready', async () => { await waitFor(() => go || null, { what: 'the restart', timeout: 20_000 }); }, 'done'], 'lane-b g1': ['ready', 'done'] };
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const first = new FakeHost(scripts);
    const one = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 1500, host: first });
    expect(await one.finished).toMatchObject({ code: 1 });
    await one.detach();
    expect(first.live().map((p) => p.split(' ')[0])).toEqual(['lane-a', 'lead']);
    const second = new FakeHost(scripts, first.snapshot());
    const two = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 15_000, host: second });
    await waitFor(() => s.events('readopted').length > 0 || null, { what: 'the restart readopted' });
    expect(second.live().some((p) => p.startsWith('lane-b '))).toBe(false);
    expect(readPlanLeases(s.plan, s.env).some((l) => l.lane === 'lane-b')).toBe(false);
    go = true;
    expect(await two.finished).toMatchObject({ code: 0, why: 'plan done' });
    await two.detach();
    await Promise.all([...first.running, ...second.running]);
    expect(s.events('dependencies_done')).toMatchObject([{ lane: 'lane-b', after: ['lane-a'] }]);
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-b')).toHaveLength(1);
    expect(second.mostLive.get('lane-b')).toBe(1);
  });
});
