/**
 * Resume where it stopped (SPEC 10.8), in-process on the fake host: the tmux server dies under the
 * run, `swarm up` again on a host with no panes starts lane-a's own Claude Code session again — the
 * kind's `launch.resume` (`--resume <its id>`, no `--session-id`), the same generation and account,
 * `session_resumed` journaled, no degraded packet — and the plan finishes. Its account limited: a
 * successor, as before. A resumed agent that says nothing within 60 s (a clock the test drives): a
 * successor too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import type { SwarmState } from '../../src/core/swarm/state.js';
import { RESUME_READY_MS } from '../../src/core/swarm/sessionResume.js';
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

const TIMEOUTS = '{ accept: 5s, packet: 2s, stall: 10m, ask: 30s, release: 50ms }';
const claudeAccounts = [
  { id: 'a1', vendor: 'anthropic' },
  { id: 'a2', vendor: 'anthropic', kind: 'claude' },
  { id: 'a3', vendor: 'anthropic', kind: 'claude' },
  { id: 'a4', vendor: 'anthropic', kind: 'claude' },
];

/** Lane-a on a2 (Claude Code) tells its session, reports, and waits for `go` (its first pane) before it is done. */
function setup(resumedScript: Scripts[string]) {
  const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2', command: null }], accounts: claudeAccounts, timeouts: TIMEOUTS }));
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  const statePath = join(s.plan, '.swarm', 'state.json');
  const dead = { server: false };
  // Its first agent works until its server dies.
  const firstRun = async () => {
    await waitFor(() => dead.server || null, { what: 'the server to die', timeout: 60_000 });
  };
  const scripts: Scripts = { 'lane-a g1': ['session', 'ready', firstRun] };
  return { s, config, statePath, scripts, resumedScript, dead };
}

async function loseAndRestart(x: ReturnType<typeof setup>, before?: (state: SwarmState) => SwarmState) {
  const clock = new HandClock(Date.now());
  const first = new FakeHost(x.scripts);
  const one = await startSwarm(x.config, { env: x.s.env, untilDone: true, timeoutMs: null, host: first, clock });
  await waitFor(() => (one.engine.state.sessions?.['lane-a']?.sessionId && one.engine.state.lanes['lane-a']?.last) || null, { what: "lane-a's session told and its report read" });
  const sessionId = one.engine.state.sessions!['lane-a']!.sessionId;
  const launched = [...first.panes.values()].find((p) => p.spec.lane === 'lane-a')!.spec.argv;
  first.loseServer();
  x.dead.server = true;
  expect((await one.finished).code).toBe(1);
  await one.detach();
  if (before) writeFileSync(x.statePath, JSON.stringify(before(JSON.parse(readFileSync(x.statePath, 'utf8')) as SwarmState)));
  // A new server: no pane of the old one is there.
  const second = new FakeHost({ ...x.scripts, 'lane-a g1': x.resumedScript, 'lane-a g2': ['ready', 'done'] }, [], 100);
  const two = await startSwarm(x.config, { env: x.s.env, untilDone: true, timeoutMs: null, host: second, clock });
  /** The plan's end: every lane done, then the release deadline (timeouts.release) on the hand clock. */
  const finished = async () => {
    await waitFor(() => x.s.events('all_lanes_done').length > 0 || null, { what: 'every lane done' });
    clock.advance(1000);
    return two.finished;
  };
  return { clock, first, second, two, sessionId, launched, finished };
}

describe('resume where it stopped (in-process, fake host)', () => {
  it('the server dies: `swarm up` again resumes lane-a\'s own session on its own account, in its generation, and the plan finishes', async () => {
    const x = setup(['session', 'ready', 'done']);
    const r = await loseAndRestart(x);
    expect(r.launched).toContain('--session-id');
    expect((await r.finished()).code).toBe(0);
    const resumed = [...r.second.panes.values(), ...r.second.closed].filter((p) => p.spec.lane === 'lane-a');
    expect(resumed.map((p) => [p.spec.generation, p.spec.account])).toEqual([[1, 'a2']]);
    const argv = resumed[0]!.spec.argv;
    expect(argv.slice(0, 3)).toEqual(['claude', '--resume', r.sessionId]);
    expect(argv).not.toContain('--session-id');
    expect(argv.at(-1)).toContain('resumed in your own session');
    expect(resumed[0]!.spec.env.SWARM_SESSION_ID).toBe(r.sessionId);
    expect(x.s.events('session_resumed')).toMatchObject([{ lane: 'lane-a', generation: 1, session_id: r.sessionId, account: 'a2' }]);
    expect(x.s.events('degraded_handoff').filter((e) => e.lane === 'lane-a')).toEqual([]);
    expect(x.s.events('resume_failed')).toEqual([]);
    const state = JSON.parse(readFileSync(x.statePath, 'utf8')) as SwarmState;
    expect(state.lanes['lane-a']).toMatchObject({ generation: 1, account: 'a2', state: 'done' });
    await Promise.all([...r.first.running, ...r.second.running]);
  });

  it('its account limited: no resume, a degraded packet and a successor on another account (why journaled)', async () => {
    const x = setup(['session', 'ready', 'done']);
    const r = await loseAndRestart(x, (state) => ({ ...state, limited: { ...state.limited, a2: new Date(Date.now() + 3_600_000).toISOString() } }));
    expect((await r.finished()).code).toBe(0);
    expect(x.s.events('session_resumed')).toEqual([]);
    expect(x.s.events('not_resumed').filter((e) => e.lane === 'lane-a')).toMatchObject([{ why: expect.stringContaining('its account a2 is limited until') }]);
    expect(x.s.events('degraded_handoff').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
    const g2 = [...r.second.panes.values(), ...r.second.closed].find((p) => p.spec.lane === 'lane-a' && p.spec.generation === 2);
    expect(['a3', 'a4']).toContain(g2?.spec.account);
    expect(g2?.spec.argv).not.toContain('--resume');
    await Promise.all([...r.first.running, ...r.second.running]);
  });

  it('a resumed agent that says nothing within 60 s is replaced: resume_failed, then a successor', async () => {
    const over = { test: false };
    const silent = async () => {
      await waitFor(() => over.test || null, { what: 'the end of the test', timeout: 60_000 });
    };
    const x = setup([silent]);
    const r = await loseAndRestart(x);
    await waitFor(() => x.s.events('session_resumed').length > 0 || null, { what: 'the session resumed' });
    // The lead (a command agent: no resume) took over meanwhile; its successor's deadline is not the one driven here.
    await waitFor(() => (r.two.engine.state.lanes['lead']?.generation === 2 && r.two.engine.state.lanes['lead']?.phase !== 'spawning') || null, { what: 'the lead taken over' });
    r.clock.advance(RESUME_READY_MS);
    expect((await r.finished()).code).toBe(0);
    expect(x.s.events('resume_failed')).toMatchObject([{ lane: 'lane-a', why: expect.stringContaining('not ready within 60 s') }]);
    expect(x.s.events('degraded_handoff').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
    expect(r.second.closed.some((p) => p.spec.lane === 'lane-a' && p.spec.generation === 1)).toBe(true);
    over.test = true;
    await Promise.all([...r.first.running, ...r.second.running]);
  });
});
