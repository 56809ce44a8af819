/**
 * The ledger across a crash (SPEC 10.7), in-process on the fake host with a hand clock: an agent's
 * usage records wait in its usage file for the engine's next look (every USAGE_LOOK_MS, no watch), and
 * the look's step saves later (PlanWrites.saveSoon), so a kill right after it leaves a state file that
 * has neither their figures nor the file read past them; the next engine reads the file again from
 * there and folds the very same ledger — the generation's cost is its last reading, counted once, not
 * lost and not doubled.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { recordAgent } from '../../src/adapters/agentRegistry.js';
import { generationFigures } from '../../src/core/ledger/ledger.js';
import type { SwarmState } from '../../src/core/swarm/state.js';
import { SOFT_SAVE_MS } from '../../src/runtime/planWrites.js';
import { USAGE_LOOK_MS } from '../../src/runtime/usageLook.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('the ledger across a crash (in-process, fake host)', () => {
  it('usage records are read at a look and not saved at once; a crash before their save reads them again to the same figures', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2' }], timeouts: '{ accept: 5s, packet: 2s, stall: 10m, ask: 30s, release: 50ms }' }));
    let go = false;
    const scripts: Scripts = { 'lane-a g1': ['ready', async () => { await waitFor(() => go || null, { what: 'the go-ahead', timeout: 30_000 }); }, 'done'] };
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const statePath = join(s.plan, '.swarm', 'state.json');
    const spool = join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g1', 'records.jsonl');
    const usageFile = join(dirname(spool), 'usage', 'usage.jsonl');
    mkdirSync(dirname(usageFile), { recursive: true });
    const usage = (cost: number) => `${JSON.stringify({
      kind: 'usage', ts: new Date().toISOString(), from: 'lane-a', role: 'lane', account: 'a2', generation: 1, epoch: 1, run: 1,
      session_id: 'S1', cost_usd: cost, tokens: { input: cost * 1e5, output: cost * 1e3, cache_read: null, cache_write: null },
    })}\n`;
    const onDisk = (): SwarmState => JSON.parse(readFileSync(statePath, 'utf8')) as SwarmState;
    const costIn = (state: SwarmState): number | null => {
      const g = state.ledger?.['lane-a']?.find((x) => x.generation === 1);
      return g === undefined ? null : generationFigures(g).cost_usd;
    };

    const clock = new HandClock(Date.now());
    const first = new FakeHost(scripts);
    const one = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host: first, clock });
    await waitFor(() => existsSync(spool) || null, { what: "lane-a's spool" });
    await waitFor(() => (one.engine.state.spools?.['r1/lane-a-g1'] !== undefined && !one.engine.state.pending.length) || null, { what: 'the ready report read' });
    await one.engine.idle();
    const before = readFileSync(statePath, 'utf8');
    for (const cost of [0.1, 0.25, 0.4]) appendFileSync(usageFile, usage(cost));
    // Not watched: nothing is read until the look.
    await one.engine.idle();
    expect(costIn(one.engine.state)).toBeNull();
    clock.advance(USAGE_LOOK_MS);
    await waitFor(() => costIn(one.engine.state) === 0.4 || null, { what: 'the records folded in memory at the look' });
    await one.engine.idle();
    // Folded, but not saved yet: the file still has the state of before the records, offsets included.
    expect(readFileSync(statePath, 'utf8')).toBe(before);
    expect(costIn(onDisk())).toBeNull();
    // The crash's image: the state file as it is now. (The engine then saves within SOFT_SAVE_MS.)
    copyFileSync(statePath, `${statePath}.crash`);
    clock.advance(SOFT_SAVE_MS);
    await waitFor(() => costIn(onDisk()) === 0.4 || null, { what: 'the soft save within SOFT_SAVE_MS' });
    await one.detach();

    // The next engine starts from the crash image on the same panes: it reads the three records again.
    copyFileSync(`${statePath}.crash`, statePath);
    const second = new FakeHost(scripts, first.snapshot());
    const two = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host: second, clock });
    await waitFor(() => costIn(two.engine.state) === 0.4 || null, { what: 'the ledger folded again at the restart\'s first look' });
    appendFileSync(usageFile, usage(0.55));
    clock.advance(USAGE_LOOK_MS);
    await waitFor(() => costIn(two.engine.state) === 0.55 || null, { what: 'a later record at the next look' });
    go = true;
    await waitFor(() => two.engine.state.lanes['lane-a']?.state === 'done' || null, { what: 'the lane done' });
    clock.advance(USAGE_LOOK_MS);
    await waitFor(() => s.events('generation_spent').length > 0 || null, { what: 'the generation ended, journaled at the next look' });
    expect(s.events('generation_spent')).toMatchObject([{ lane: 'lane-a', generation: 1, cost_usd: 0.55, end: 'done', session_id: 'S1' }]);
    await two.detach();
    await Promise.all([...first.running, ...second.running]);
  });

  it('the usage of an agent not recorded yet waits for a later look: none of it is lost', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2' }], timeouts: '{ accept: 5s, packet: 2s, stall: 10m, ask: 30s, release: 50ms }' }));
    let over = false;
    const scripts: Scripts = { 'lane-a g1': ['ready', async () => { await waitFor(() => over || null, { what: 'the end of the test', timeout: 30_000 }); }] };
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const clock = new HandClock(Date.now());
    const host = new FakeHost(scripts);
    const one = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host, clock });
    await waitFor(() => s.events('lane_started').length > 0 || null, { what: 'lane-a started' });
    // A folder of an agent swarm has not recorded (yet): lane-a g2's, with its usage told.
    const file = join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g2', 'usage', 'usage.jsonl');
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify({ kind: 'usage', ts: new Date().toISOString(), from: 'lane-a', role: 'lane', account: 'a3', generation: 2, epoch: 1, run: 1, session_id: 'S2', cost_usd: 0.7, tokens: { input: 1, output: 1, cache_read: null, cache_write: null } })}\n`);
    clock.advance(USAGE_LOOK_MS);
    await one.engine.idle();
    expect(one.engine.state.ledger?.['lane-a']?.some((g) => g.generation === 2) ?? false).toBe(false);
    recordAgent(s.plan, { lane: 'lane-a', generation: 2, role: 'lane', account: 'a3', run: 1, pane: null });
    clock.advance(USAGE_LOOK_MS);
    await waitFor(() => one.engine.state.ledger?.['lane-a']?.find((g) => g.generation === 2) || null, { what: "g2's usage folded once it is recorded" });
    expect(generationFigures(one.engine.state.ledger!['lane-a']!.find((g) => g.generation === 2)!).cost_usd).toBe(0.7);
    over = true;
    await one.detach();
    await Promise.all([...host.running]);
  });
});
