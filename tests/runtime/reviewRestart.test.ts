/**
 * A review in flight across a restart (SPEC 10.6; a night is many runs of `swarm up`), in-process on
 * the fake host: the engine stops while lane-a's reviewer reviews; a new engine on the same panes
 * keeps that reviewer (its pane recorded again, its lease kept) and its verdict ends the lane — one
 * reviewer. A reviewer whose pane went while no engine ran is replaced by a fresh one on restart.
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

const TIMEOUTS = '{ accept: 5s, packet: 2s, stall: 10m, ask: 30s, release: 50ms }';

describe('a review across a restart (in-process, fake host)', () => {
  it('the reviewer in flight is kept: its verdict after the restart ends the lane, one reviewer, its lease kept then released', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2', review: '{ command: "true" }' }], timeouts: TIMEOUTS }));
    let go = false;
    // Both fake hosts carry the reviewer's pane (the second from the first's snapshot) and both run its
    // script: one agent in truth, so only the first copy past the restart gives the verdict (a second
    // verdict, read under load after the lane was done, was journaled ignored and failed the test).
    let verdictGiven = false;
    const scripts: Scripts = {
      'lane-a g1': ['ready', 'done'],
      'lane-a.review g1': [async () => {
        await waitFor(() => go || null, { what: 'the restart', timeout: 20_000 });
        if (verdictGiven) throw new Error('the copy of the reviewer on the host the first engine left: not the agent');
        verdictGiven = true;
      }, 'approved'],
    };
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const first = new FakeHost(scripts);
    const one = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 1500, host: first });
    expect(await one.finished).toMatchObject({ code: 1 });
    await one.detach();
    const reviewer = first.live().find((p) => p.startsWith('lane-a.review g1 @'));
    expect(reviewer).toMatch(/@o[12]$/);
    const account = reviewer!.split('@')[1]!;
    const second = new FakeHost(scripts, first.snapshot());
    const two = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 15_000, host: second });
    await waitFor(() => s.events('readopted').length > 0 || null, { what: 'the restart readopted' });
    expect(readPlanLeases(s.plan, s.env).filter((l) => l.lane === 'lane-a.review').map((l) => [l.account, l.generation])).toEqual([[account, 1]]);
    go = true;
    expect(await two.finished).toMatchObject({ code: 0, why: 'plan done' });
    await two.detach();
    await Promise.all([...first.running, ...second.running]);
    expect(s.events('reviewer_leased')).toHaveLength(1);
    expect(s.events('review_verdict')).toMatchObject([{ lane: 'lane-a', verdict: 'approved', reviewer_generation: 1, account }]);
    expect(readPlanLeases(s.plan, s.env).some((l) => l.lane === 'lane-a.review')).toBe(false);
    expect(second.live().some((p) => p.startsWith('lane-a.review'))).toBe(false);
  });

  it('a reviewer whose pane went while no engine ran is replaced on restart by a fresh one on another account', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2', review: '{ command: "true" }' }], timeouts: TIMEOUTS }));
    const scripts: Scripts = {
      'lane-a g1': ['ready', 'done'],
      'lane-a.review g1': [async () => { await new Promise(() => undefined); }],
      'lane-a.review g2': ['approved'],
    };
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const first = new FakeHost(scripts);
    const one = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 1500, host: first });
    expect(await one.finished).toMatchObject({ code: 1 });
    await one.detach();
    const gone = first.live().find((p) => p.startsWith('lane-a.review g1 @'))!;
    const snapshot = first.snapshot().filter((p) => p.info.lane !== 'lane-a.review');
    const second = new FakeHost(scripts, snapshot);
    const two = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 15_000, host: second });
    expect(await two.finished).toMatchObject({ code: 0, why: 'plan done' });
    await two.detach();
    expect(s.events('reviewer_failed')).toMatchObject([{ reviewer_generation: 1, why: expect.stringContaining('its pane was gone when swarm started again') }]);
    const leased = s.events('reviewer_leased').map((e) => [e.reviewer_generation, e.account]);
    expect(leased).toHaveLength(2);
    expect(leased[1]![1]).not.toBe(gone.split('@')[1]);
    expect(s.events('review_verdict')).toMatchObject([{ verdict: 'approved', reviewer_generation: 2 }]);
  });
});
