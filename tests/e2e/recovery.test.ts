/**
 * SPEC 9: killing the swarm process at any moment loses nothing. kill -9 of the engine before the
 * report is read, after it was read (the spawn intent saved, not carried out), after the successor's
 * pane started (not yet recorded), and while the successor accepts; `swarm up` again finishes the
 * handoff with exactly one successor and no lease held by nobody.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spoolRecords } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { findOnPath } from '../../src/adapters/which.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const inboxHas = (s: TestSwarm, needle: string) => JSON.stringify(spoolRecords(s.plan)).includes(needle);

/** `lane gN @account` of every live agent pane on the swarm's tmux server, and of every lease. */
function agentsAndLeases(s: TestSwarm): { panes: string[]; leases: string[] } {
  const out = execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{@swarm_lane} g#{@swarm_generation} @#{@swarm_account} #{pane_dead}'], { encoding: 'utf8' });
  const panes = out.split('\n').filter((l) => l.trim() !== '' && l.endsWith(' 0') && !l.startsWith(' ')).map((l) => l.slice(0, -2)).sort();
  const dir = join(s.plan, '.swarm', 'leases');
  const leases = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { lane: string; generation: number; account: string });
  return { panes, leases: leases.map((l) => `${l.lane} g${l.generation} @${l.account}`).sort() };
}

/** Every live agent runs on an account leased to it, and every lease serves a live agent (SPEC 9). */
function leasesMatchAgents(s: TestSwarm, leadAgents: Record<string, string> = {}): void {
  const { panes, leases } = agentsAndLeases(s);
  // Leases name the lane (the lead's successor `lead-b` is the lead lane `lead`).
  const asLane = panes.map((p) => { const [who, ...rest] = p.split(' '); return [leadAgents[who!] ?? who, ...rest].join(' '); }).sort();
  expect(leases).toEqual(asLane);
}

/** After the restart: the plan is done with one successor for lane-a and no lease left dangling. */
async function finishesOnce(s: TestSwarm): Promise<void> {
  const run = await s.up(['--timeout', '45s']);
  expect(run.all).toContain('plan done');
  expect(run.exitCode).toBe(0);
  const log = s.agentLog();
  expect(log.filter((l) => l === 'lane-a g2 started')).toHaveLength(1);
  expect(log.filter((l) => l === 'lane-a g2 accepted')).toHaveLength(1);
  expect(s.events('packet_accepted')).toHaveLength(1);
  const leases = readdirSync(join(s.plan, '.swarm', 'leases'));
  const held = leases.map((f) => JSON.parse(readFileSync(join(s.plan, '.swarm', 'leases', f), 'utf8')) as { lane: string; generation: number });
  // Every lease left serves a live agent of the finished plan: the lead g1, lane-a g2 (never the spent g1).
  expect(held.some((l) => l.lane === 'lane-a' && l.generation === 1)).toBe(false);
  leasesMatchAgents(s);
}

describe('recovery after kill -9 of swarm up (tmux)', () => {
  it('killed before the handoff report is read: the restart reads it from the inbox', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep2500,handoff', AGENT_G2: 'done' } }] }));
    const first = s.up();
    await s.waitEvent('lane_started', 2);
    first.kill('SIGKILL');
    await first;
    await waitFor(() => inboxHas(s, '"text":"handoff '), { timeout: 15_000, what: 'the handoff report in the inbox' });
    expect(s.events('handoff_reported')).toHaveLength(0);
    await finishesOnce(s);
    expect(s.events('readopted').length).toBeGreaterThanOrEqual(1);
  });

  it('killed after the report was read, with the spawn intent saved but not carried out', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'done' } }] }));
    const first = await s.up([], { SWARM_FAULT: 'before:spawn' });
    expect(first.signal).toBe('SIGKILL');
    expect(s.events('handoff_reported')).toHaveLength(1);
    expect(s.agentLog()).not.toContain('lane-a g2 started');
    await finishesOnce(s);
  });

  it('killed after the successor pane started but before it was recorded: the restart adopts it', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'done' } }] }));
    const first = await s.up([], { SWARM_FAULT: 'after:spawn' });
    expect(first.signal).toBe('SIGKILL');
    expect(s.events('successor_spawned')).toHaveLength(0);
    await finishesOnce(s);
  });

  it('killed while the successor accepts: the acceptance is read from the inbox after the restart', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'sleep1500,done' } }] }));
    const first = s.up();
    await s.waitEvent('successor_spawned');
    first.kill('SIGKILL');
    await first;
    await finishesOnce(s);
    expect(s.events('pane_closed')).toHaveLength(1);
  });

  it('killed right after the acceptance was journaled, before its intent was marked done: the restart does not journal it again', async () => {
    // Chaos seed 2000: the restart carried the intent out again, so packet_accepted was in the journal twice.
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'sleep1500,done' } }] }));
    const first = await s.up([], { SWARM_FAULT: 'after:journal:packet_accepted' });
    expect(first.signal).toBe('SIGKILL');
    expect(s.events('packet_accepted')).toHaveLength(1);
    await finishesOnce(s);
  });

  // Issue 10 item 14: a gate killed with swarm has no result; the restart runs it again.
  it('killed while a done_when gate runs: the restart runs the gate again and the plan finishes', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' }, doneWhen: 'touch gate.started; sleep 3; true' }] }));
    const first = s.up();
    const started = join(s.root, 'wt-lane-a', 'gate.started');
    await waitFor(() => existsSync(started), { timeout: 30_000, what: 'the gate to start (gate.started in the checkout)' });
    first.kill('SIGKILL');
    await first;
    expect(s.events('lane_result')).toHaveLength(0);
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done', passed: true }]);
    expect(s.events('gate_started').filter((e) => e.rerun === true)).toHaveLength(1);
  });

  // Issue 11: the gate killed with swarm went on running beside the rerun (orphaned). Its process,
  // recorded (pid and start time), is ended, with its whole group, before the gate runs again.
  it('killed while a done_when gate runs: the restart ends the first gate\'s process group and only the rerun finishes', async () => {
    const gate = 'echo start >> gate.log; sleep 4; echo finish >> gate.log';
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' }, doneWhen: gate }] }));
    const log = join(s.root, 'wt-lane-a', 'gate.log');
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    const state = join(s.plan, '.swarm', 'state.json');
    const first = s.up();
    await waitFor(() => lines().length > 0, { timeout: 30_000, what: 'the gate to start (gate.log in the checkout)' });
    await waitFor(() => {
      const lane = (JSON.parse(readFileSync(state, 'utf8')) as { lanes: Record<string, { gate?: { process?: unknown }; gatePending?: boolean }> }).lanes['lane-a'];
      return lane?.gate?.process !== undefined || lane?.gatePending === true; // (gatePending: the state before gate records)
    }, { timeout: 10_000, what: 'the gate in flight (and its process) in the state file' });
    first.kill('SIGKILL');
    await first;
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    // The first run started before the rerun and sleeps as long: had it lived on, it would have finished first.
    expect(lines()).toEqual(['start', 'start', 'finish']);
    expect(s.events('gate_ended')).toMatchObject([{ lane: 'lane-a', found: 'ended' }]);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done', passed: true }]);
  });

  // Issue 11: the moment between the gate's start and the record of its process: found by its run id.
  it('killed just after a gate started, before its process was recorded: the restart finds it by its run and ends it; only the rerun finishes', async () => {
    const gate = 'echo start >> gate.log; sleep 3; echo finish >> gate.log';
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' }, doneWhen: gate }] }));
    const log = join(s.root, 'wt-lane-a', 'gate.log');
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    const first = await s.up([], { SWARM_FAULT: 'after:run_gate' });
    expect(first.signal).toBe('SIGKILL');
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    // (The intent is carried out again at the restart, then the resume reruns it: each ended before the next.)
    expect(lines().filter((l) => l === 'finish')).toEqual(['finish']);
    expect(lines().at(-1)).toBe('finish');
    const firstRun = s.events('gate_started')[0]!.id;
    expect(s.events('gate_ended')).toContainEqual(expect.objectContaining({ lane: 'lane-a', run: firstRun, found: 'ended' }));
  });

  // Issue 11 §1, as reported: a gate of `sleep 6; true`, SIGKILL about 3 s after the `done` report.
  it('killed 3 s into a 6 s done_when gate: after swarm up again the lane ends done and the plan finishes', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' }, doneWhen: 'sleep 6; true' }] }));
    const first = s.up();
    await s.waitEvent('gate_started', 1, 30_000);
    const reportedAt = Date.now();
    await waitFor(() => Date.now() - reportedAt >= 3000, { timeout: 5000, interval: 100, what: '3 s into the gate' });
    first.kill('SIGKILL');
    await first;
    expect(s.events('lane_result')).toHaveLength(0);
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done', passed: true }]);
    expect(s.events('plan_done')).toHaveLength(1);
  });

  // Issue 11 §1: the inbox offset is saved only after the records it passes were handled.
  it('killed once the offset past a done report is saved: the done is not lost, the gate runs and the plan finishes', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' }, doneWhen: 'sleep 1; true' }] }));
    const first = await s.up([], { SWARM_FAULT: 'after:inbox_offset:done' });
    expect(first.signal).toBe('SIGKILL');
    expect(s.events('lane_result')).toHaveLength(0);
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done', passed: true }]);
  });

  // Issue 11 §1: the release deadline is state, armed again after a restart.
  it('killed after every lane is done, the lead silent: the restart re-arms timeouts.release and swarm releases the plan', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,done' } }], timeouts: '{ accept: 20s, packet: 5s, stall: 10m, ask: 30s, release: 4s }' }));
    const first = s.up();
    await s.waitEvent('all_lanes_done', 1, 30_000);
    first.kill('SIGKILL');
    await first;
    expect(s.events('plan_done')).toHaveLength(0);
    const run = await s.up(['--timeout', '30s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(s.events('all_lanes_done')).toHaveLength(1); // the lead is told once, not again after the restart
    expect(s.events('lead_released')).toMatchObject([{ by: 'swarm', why: 'timeouts.release passed' }]);
  });

  // Issue 10 item 12: the lead's successor goes by another name (lead-b); the restart must find its pane.
  it('killed while the lead\'s successor (lead-b) starts: the restart adopts lead-b on the account leased to it', async () => {
    const s = (t = makeSwarm({
      lead: { AGENT_G1: 'ready,handover', AGENT_PAUSE_G2: '4000', AGENT_G2: 'ready' },
      succession: ['lead-b'],
      lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep7000,done' } }], // at work past lead-b's acceptance (~4.5 s)
    }));
    const first = s.up();
    await s.waitEvent('successor_spawned');
    first.kill('SIGKILL');
    await first;
    expect(s.events('lead_accepted')).toHaveLength(0);
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(s.agentLog().filter((l) => l === 'lead-b g2 started')).toHaveLength(1);
    expect(s.events('lead_accepted')).toHaveLength(1);
    expect(s.events('lease_acquired').filter((e) => e.lane === 'lead')).toHaveLength(1);
    expect(s.events('lease_released').filter((e) => e.for_generation === 2)).toHaveLength(0);
    leasesMatchAgents(s, { 'lead-b': 'lead' });
  });

  // Issue 10 item 21: a corrupt state file is said, journaled and kept aside, not silently replaced.
  it('a corrupt state.json: swarm up says so, keeps the file aside and starts afresh', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep1000,done' } }] }));
    const first = s.up();
    await s.waitEvent('lane_started', 2);
    first.kill('SIGKILL');
    await first;
    const state = join(s.plan, '.swarm', 'state.json');
    writeFileSync(state, '{"version":1,"lanes":{"lane-a":');
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toMatch(/state_corrupt .*kept=\S*state\.corrupt-\d{8}T\d{6}Z\.json/);
    expect(run.exitCode).toBe(0);
    const [entry] = s.events('state_corrupt');
    expect(entry).toMatchObject({ why: expect.stringMatching(/^not JSON/) as unknown });
    expect(readFileSync(String(entry!.kept), 'utf8')).toBe('{"version":1,"lanes":{"lane-a":');
  });
});

describe('recovery after the tmux server restarted (tmux)', () => {
  it('kill -9 of swarm up, then of its tmux server: the old pane ids are void, and no successor is closed as a spent pane', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready', AGENT_G2: 'done' } }] }));
    const first = s.up();
    await s.waitEvent('lane_started', 2);
    first.kill('SIGKILL');
    await first;
    await execa('tmux', ['-L', s.socket, 'kill-server']);
    // The next server numbers its panes from %0 again: the lead's and lane-a's old ids are new panes' ids.
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    const log = s.agentLog();
    expect(log.filter((l) => l === 'lane-a g2 accepted')).toHaveLength(1);
    expect(log).toContain('lane-a g2 done');
    expect(log.filter((l) => l.startsWith('lane-a g3'))).toEqual([]);
    expect(s.events('degraded_handoff').map((e) => e.lane)).toContain('lane-a');
  });

  it('the tmux server dies under a running swarm: host_lost says what to do, exit 1, the lock released, status says lost; up again resumes', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready', AGENT_G2: 'done' } }] }));
    const first = s.up(['--timeout', '25s']);
    await s.waitEvent('lane_started', 2);
    const killedAt = Date.now();
    await execa('tmux', ['-L', s.socket, 'kill-server']);
    const stopped = await first;
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.all).toMatch(/stopped short — the tmux server is gone \(.*\): every agent ran in that server and is gone; `swarm up` again resumes/);
    expect(s.events('host_lost')).toEqual([expect.objectContaining({ what: expect.stringContaining('`swarm up` again resumes the plan') })]);
    const status = JSON.parse((await s.run(['status', s.file, '--json'])).stdout) as { lead: { state: string }; lanes: { name: string; state: string }[] };
    expect(status.lead.state).toBe('lost');
    expect(status.lanes).toEqual([expect.objectContaining({ name: 'lane-a', state: 'lost' })]);
    const again = await s.up(['--timeout', '45s']);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);
    expect(s.agentLog().filter((l) => l === 'lane-a g2 accepted')).toHaveLength(1);
  });

  it('after the tmux server died, lanes waiting for an account take one as soon as a successor frees its own', async () => {
    const accounts = [{ id: 'a1', vendor: 'anthropic' }, { id: 'a2', vendor: 'anthropic' }, { id: 'a3', vendor: 'anthropic' }, { id: 'o1', vendor: 'openai' }];
    const agent = { AGENT_G1: 'ready', AGENT_G2: 'done' };
    const s = (t = makeSwarm({ accounts, lanes: [{ name: 'lane-a', agent }, { name: 'lane-b', agent }] }));
    const first = s.up(['--timeout', '25s']);
    await s.waitEvent('lane_started', 3);
    await execa('tmux', ['-L', s.socket, 'kill-server']);
    expect((await first).exitCode).toBe(1);
    // Three successors needed, one account free: the others wait, and must not wait for the 15-minute retry.
    const again = await s.up(['--timeout', '45s']);
    expect(s.events('waiting_for_reset').length).toBeGreaterThan(0);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);
  });
});

/**
 * A `tmux` first on PATH that kills its own server (the real tmux's, on the swarm's socket) the
 * first time `swarm up` runs tmux with `word`, then runs that command: the server dies at a moment
 * of the start the test chooses.
 */
function killingTmux(s: TestSwarm, word: string): Record<string, string> {
  const real = findOnPath('tmux', process.env);
  if (real === null) throw new Error('tmux is not on PATH');
  const bin = join(s.root, 'killing-bin');
  mkdirSync(bin, { recursive: true });
  const mark = join(s.root, 'killed-once');
  writeFileSync(join(bin, 'tmux'), [
    '#!/bin/sh',
    `if [ ! -e '${mark}' ]; then`,
    '  for a in "$@"; do',
    `    if [ "$a" = '${word}' ]; then : > '${mark}'; '${real}' -L '${s.socket}' kill-server; break; fi`,
    '  done',
    'fi',
    `exec '${real}' "$@"`,
    '',
  ].join('\n'));
  chmodSync(join(bin, 'tmux'), 0o755);
  return { PATH: `${bin}:${s.env.PATH}`, KILLED_MARK: mark };
}

describe('the tmux server killed while swarm up is still starting (tmux)', () => {
  // Each moment is a different tmux command of the start: the server's identity, the first pane
  // list, the control connection. Before the fix each ended with tmux's own error and no host_lost.
  it.each(['display-message', 'list-panes', '-C'])('killed at the start\'s first `%s`: host_lost says what to do, exit 1; up again finishes the plan', async (word) => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'done' } }] }));
    const env = killingTmux(s, word);
    const first = await s.up(['--timeout', '25s'], env);
    expect(existsSync(env.KILLED_MARK!)).toBe(true);
    expect(first.exitCode).toBe(1);
    // Which tells first depends on the moment: the start's failed command ("while swarm up was
    // starting"), or the control connection closing under it. Either way the same stop, told once.
    expect(first.all).toMatch(/stopped short — the tmux server is gone \(.*\): every agent ran in that server and is gone; `swarm up` again resumes/);
    expect(first.all).not.toMatch(/^swarm: tmux /m);
    expect(s.events('host_lost')).toEqual([expect.objectContaining({ what: expect.stringContaining('`swarm up` again resumes the plan') })]);
    const again = await s.up(['--timeout', '45s']);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);
  });

  // Chaos seed 1041: a restart looks whether the session it finds is this plan's (show-options,
  // then list-panes) and the server died under that look: tmux's own error, exit 1, no host_lost.
  it.each(['show-options', 'list-panes'])('a restart whose server dies at the session\'s ownership look (`%s`): no tmux error; it resumes on a new server and finishes', async (word) => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep4000,done', AGENT_G2: 'done' } }] }));
    const first = s.up();
    await s.waitEvent('lane_started', 2);
    first.kill('SIGKILL');
    await first;
    const env = killingTmux(s, word);
    const again = await s.up(['--timeout', '45s'], env);
    expect(existsSync(env.KILLED_MARK!)).toBe(true);
    expect(again.all).not.toMatch(/^swarm: tmux /m);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);
  });
});
