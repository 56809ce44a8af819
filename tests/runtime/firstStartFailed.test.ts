/**
 * A lane's first pane cannot be made (tmux's "no space for new pane"). Before, the lane stayed
 * `starting` for ever with a lease held by nobody and was never tried again. Now the failure is the
 * machine's event: the lease goes back, the lane is blocked with the host's reason (escalated), and
 * the next `swarm up` starts it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const NO_SPACE = 'tmux split-window: no space for new pane';

async function up(s: TestSwarm, host: FakeHost) {
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  const clock = new HandClock();
  const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host, clock });
  let over = false;
  // Every lane done: the lead does not release the plan, so timeouts.release (1 s) passes.
  const releaser = (async () => {
    while (!over) {
      if (s.events('all_lanes_done').length > 0 && clock.pending().length > 0) return clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const outcome = await swarm.finished;
  over = true;
  await releaser;
  await swarm.detach();
  await Promise.all([...host.running]);
  return outcome;
}

const leasedLanes = (s: TestSwarm): string[] => {
  const dir = join(s.plan, '.swarm', 'leases');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { lane: string }).lane);
};

describe("a lane's first pane that cannot be made", () => {
  it('releases its lease and blocks the lane with the reason; swarm up again starts it', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }, { name: 'lane-b' }] }));
    const scripts: Scripts = { 'lane-a g1': ['ready', 'done'], 'lane-b g1': ['ready', 'done'] };
    const refusing = new FakeHost(scripts);
    refusing.beforeSpawn = async (spec) => { if (spec.lane === 'lane-b') throw new Error(NO_SPACE); };
    const first = await up(s, refusing);
    expect(first.code).not.toBe(0);
    expect(s.events('start_failed')).toMatchObject([{ lane: 'lane-b', generation: 1, error: NO_SPACE }]);
    const account = s.events('start_failed')[0]!.account as string;
    expect(s.events('lease_released').filter((e) => e.lane === 'lane-b')).toMatchObject([{ account }]);
    expect(s.events('escalation')).toMatchObject([{ lane: 'lane-b', class: 'stalled', what: `its pane could not be made on ${account}: ${NO_SPACE}` }]);
    expect(leasedLanes(s)).not.toContain('lane-b');
    const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { lanes: Record<string, { state: string }> };
    expect(state.lanes['lane-b']!.state).toBe('blocked');

    const again = await up(s, new FakeHost(scripts, refusing.snapshot()));
    expect(again).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('start_retried')).toMatchObject([{ lane: 'lane-b' }]);
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-b')).toHaveLength(1);
  });
});
