/**
 * KNOWN BUG, skipped (issue 31, chaos seed 1033), kept as its reproduction for the next session:
 * both cases fail today, every run: the engine reduces the successor's death first, releases its
 * account as "exited before accepting", then drops its acceptance as "not the handoff in hand", and
 * hands g1's packet to the next successor. Draining the inbox on the death's host event did not
 * change the order (tried in session 13): the cause is further in (how the accept record of a
 * successor is read or routed while the lane is spawning).
 *
 * An agent that accepts and dies at once (chaos seed 1033: a successor accepted, worked, committed
 * and was killed): its `accept` record is in the inbox when its death is told. What it wrote before
 * it died is read before its death is reduced, so the lane counts it accepted — its own degraded
 * packet follows — rather than "exited before accepting", which gave the next successor a packet
 * whose checkout had moved on. In-process: the fake pane host emits the exit right after the
 * accept, before any watcher of the spools has fired.
 */
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
let clock = new HandClock();
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

async function run(scripts: Scripts) {
  const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }], timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }' }));
  const host = new FakeHost(scripts);
  // The successor accepts once its start is recorded (as a real one does, seconds after its pane).
  host.beforeAccept.set('lane-a g2 #1', async () => {
    await waitFor(() => s.events('successor_spawned').length > 0 || null, { what: 'g2 spawned' });
  });
  clock = new HandClock();
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host, clock });
  let over = false;
  const releaser = (async () => {
    while (!over) {
      // Once every lane is done, the lead's release deadline passes.
      if (clock.pending().includes(7 * 60_000) && s.events('all_lanes_done').length > 0) clock.advance(7 * 60_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const outcome = await swarm.finished;
  over = true;
  await releaser;
  await swarm.detach();
  await Promise.all([...host.running]);
  return { s, outcome };
}

describe('a successor that accepts and dies at once', () => {
  it.each(['exit', 'vanish'] as const)('(%s): counted accepted; its own degraded packet goes to the next, which finishes', async (end) => {
    // It works a while first (20 s: no crash at start), then ends with nothing more written.
    const worked = async () => { clock.advance(20_000); };
    const { s, outcome } = await run({ 'lane-a g1': ['ready', 'handoff'], 'lane-a g2': [worked, end], 'lane-a g3': ['done'] });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('packet_accepted').map((e) => e.generation)).toEqual([2, 3]);
    expect(s.events('degraded_handoff')).toMatchObject([{ lane: 'lane-a', from_generation: 2, reason: 'lane_lost' }]);
    expect(s.events('lease_released').filter((e) => String(e.why ?? '').includes('before accepting'))).toEqual([]);
  });
});
