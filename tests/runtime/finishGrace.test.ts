/**
 * A run that ends while the plan's files refuse writes (chaos seed 1029's shape): the journal is made
 * immutable, the lane's `done` is read (its lines held in memory, the engine waiting to write them),
 * and `--timeout` passes then. A refusal that passes within the grace is waited out: the run ends for
 * its timeout (exit 1) and every held line is written; one that lasts ends it with exit 5, as before.
 * In-process: the fake pane host, a hand clock, real plan files; the refusal is `chattr +i` (root),
 * skipped where it is not.
 */
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import type { SwarmStore } from '../../src/ui/store.js';
import { chattr, immutableFiles } from '../helpers/chattr.js';
import { FakeHost } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
let frozen: string | null = null;
afterEach(async () => {
  if (frozen) chattr('-i', frozen);
  frozen = null;
  await t?.cleanup();
  t = null;
});

const TIMEOUT_MS = 30 * 60_000;

async function timedOutWhileRefused(refusedForMs: number) {
  const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }], timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }' }));
  let open: () => void = () => undefined;
  const held = new Promise<void>((resolve) => { open = resolve; });
  const host = new FakeHost({ 'lane-a g1': ['ready', async () => held, 'done'] });
  const clock = new HandClock();
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  let store: SwarmStore | null = null;
  const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: TIMEOUT_MS, host, clock, onStore: (made) => { store = made; } });
  await waitFor(() => s.events('lane_started').length >= 2 || null, { what: 'the lead and lane-a started' });
  frozen = join(s.plan, 'journal.jsonl');
  chattr('+i', frozen);
  open(); // lane-a reports done: its lines are refused, the engine waits to write them
  const told = () => (store as SwarmStore | null)?.getState().events.some((e) => e.event === 'plan_files_fault') ?? false;
  await waitFor(() => told() || null, { what: 'the refusal met (told in the log)' });
  const lifted = new Promise<void>((resolve) => setTimeout(() => {
    chattr('-i', frozen!);
    resolve();
  }, refusedForMs));
  clock.advance(TIMEOUT_MS);
  const outcome = await swarm.finished;
  await lifted;
  await swarm.detach();
  await Promise.all([...host.running]);
  return { s, outcome };
}

describe.skipIf(!immutableFiles())('the run ends (--timeout) while the journal refuses writes', () => {
  it('for a moment (1 s): waited out; the timeout\'s exit 1, the held lines and the recovery written', async () => {
    const { s, outcome } = await timedOutWhileRefused(1000);
    expect(outcome).toMatchObject({ code: 1 });
    expect(outcome.why).toMatch(/--timeout passed/);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done' }]);
    expect(s.events('plan_files_recovered')).toHaveLength(1);
  });

  it('for longer than the grace (8 s): exit 5, saying the files still refuse writes', async () => {
    const { outcome } = await timedOutWhileRefused(8000);
    expect(outcome.code).toBe(5);
    expect(outcome.why).toMatch(/^the plan's files still refuse writes: /);
  }, 30_000);
});
