/**
 * `swarm up --detach` (SPEC 10.8, 10.10) with this build's CLI on real tmux, run as `ssh host swarm up
 * --detach` would: no terminal. It returns within seconds, the engine holding the plan already and
 * running in window 0 of the swarm's session with nobody attached; a second one is refused (exit 3);
 * `swarm down` stops it. An engine that cannot start there is told (its last lines, its exit code) and
 * leaves no window behind; the preflight refuses before anything starts. Each test's private tmux
 * server is killed afterwards, pass or fail, and the engine seen gone before its files go.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../src/adapters/lock.js';
import { chattr, immutableFiles } from '../helpers/chattr.js';
import { ROOT, tempDir } from '../helpers/swarm.js';
import { makeSwarm, tmuxServerRuns, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { endWindowZero, enginePid } from '../helpers/windowZero.js';

let t: TestSwarm | null = null;
const cleanups: (() => void)[] = [];

const tmux = (s: TestSwarm, ...args: string[]): string => execFileSync('tmux', ['-L', s.socket, ...args], { encoding: 'utf8' }).trim();

/** A process's parent, from /proc. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  if (t) await endWindowZero(t);
  t = null;
});

describe('swarm up --detach', () => {
  it('returns at once with no terminal, the engine runs on in window 0; a second one is refused (exit 3); swarm down stops it', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep60000' } }] }));
    const began = Date.now();
    const r = await s.run(['up', s.file, '--detach']);
    const took = Date.now() - began;
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toBe(`swarm e2e: started in tmux session swarm-e2e on socket ${s.socket}; watch: swarm attach ${s.file} · stop: swarm down ${s.file}`);
    expect(took).toBeLessThan(15_000);

    // As it returned, the engine held the plan already, in window 0: the child of that window's restart loop.
    const engine = enginePid(s);
    expect(engine).not.toBeNull();
    expect(pidAlive(engine!)).toBe(true);
    expect(parentOf(engine!)).toBe(Number(tmux(s, 'display-message', '-p', '-t', '=swarm-e2e:=swarm', '#{pane_pid}')));
    expect(tmux(s, 'list-windows', '-t', '=swarm-e2e', '-F', '#{window_index} #{window_name}').split('\n')[0]).toBe('0 swarm');
    // No terminal attached (the engine's own control-mode client aside).
    expect(tmux(s, 'list-clients', '-F', '#{client_control_mode}').split('\n').filter((c) => c !== '1')).toEqual([]);
    // No terminal to take a size from: window 0 has the detached default until one attaches.
    expect(tmux(s, 'display-message', '-p', '-t', '=swarm-e2e:=swarm', '#{window_width}x#{window_height}')).toBe('160x48');

    // The plan proceeds with nobody attached.
    await s.waitEvent('lane_started');
    const lanes = await waitFor(async () => {
      const status = await s.run(['status', s.file, '--json']);
      const json = JSON.parse(status.stdout) as { lanes: { name: string; state: string }[] };
      return json.lanes.find((l) => l.name === 'lane-a')?.state === 'working' ? json.lanes : null;
    }, { timeout: 30_000, interval: 250, what: 'lane-a working in swarm status --json' });
    expect(lanes.map((l) => `${l.name} ${l.state}`)).toEqual(['lane-a working']);
    // The dashboard draws in window 0 for whoever attaches later.
    await waitFor(() => (/^swarm e2e · plan plans\/p /m.test(tmux(s, 'capture-pane', '-p', '-t', '=swarm-e2e:=swarm')) ? true : null), { timeout: 15_000, what: 'the dashboard in window 0' });

    // A second --detach starts no second engine: it names the one running and how to reach it.
    const again = await s.run(['up', s.file, '-d']);
    expect(again.code).toBe(3);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(new RegExp(`^swarm e2e is already running: plan p is run by pid ${engine} on \\S+ \\(since [^)]+\\)\n  watch it: swarm attach ${s.file} · stop it: swarm down ${s.file}$`));
    expect(enginePid(s)).toBe(engine);
    expect(pidAlive(engine!)).toBe(true);
    expect(tmux(s, 'list-windows', '-t', '=swarm-e2e', '-F', '#{window_name}').split('\n').filter((n) => n === 'swarm')).toHaveLength(1);
    expect(s.events('lead_claimed')).toHaveLength(1);
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-a')).toHaveLength(1);

    const down = await s.run(['down', s.file]);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain(`swarm down: stopped the engine (pid ${engine})`);
    await waitFor(() => !pidAlive(engine!), { timeout: 10_000, what: 'the engine gone after swarm down' });
    expect(tmuxServerRuns(s.socket) && tmux(s, 'list-sessions', '-F', '#{session_name}').split('\n').includes('swarm-e2e')).toBe(false);
  });

  it('an engine that cannot start in window 0 is told: its last lines, its exit code (5: the journal refuses writes), no window left', async (ctx) => {
    if (!immutableFiles()) ctx.skip();
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
    const journal = join(s.plan, 'journal.jsonl');
    writeFileSync(journal, '');
    expect(chattr('+i', journal)).toBe(true);
    cleanups.push(() => chattr('-i', journal));

    const began = Date.now();
    const r = await s.run(['up', s.file, '--detach']);
    expect(Date.now() - began).toBeLessThan(15_000);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^swarm up --detach: window 0 of tmux session swarm-e2e did not start: its engine exited with status 5; its last lines:\n/);
    expect(r.stderr).toContain(`  | swarm up cannot start: cannot write ${journal}`);
    expect(r.stderr).toContain('its window is closed; fix what it says and run `swarm up --detach` again');
    // Window 0 is closed, not left restarting a broken engine: it was the session's only window.
    expect(tmuxServerRuns(s.socket) && tmux(s, 'list-sessions', '-F', '#{session_name}').split('\n').includes('swarm-e2e')).toBe(false);
    expect(enginePid(s) !== null && pidAlive(enginePid(s)!)).toBe(false);
  });

  it('runs the preflight first: a problem refuses it (exit 4, doctor\'s lines) before any tmux server starts', async () => {
    const profiles = tempDir('swarm-detach-preflight-');
    cleanups.push(profiles.cleanup);
    const signedOut = join(profiles.dir, 'c1');
    mkdirSync(signedOut, { recursive: true });
    const s = (t = makeSwarm({
      lanes: [{ name: 'a', command: null, account: 'c1' }],
      accounts: [{ id: 'l1', kind: 'command', vendor: 'lead-v' }, { id: 'c1', kind: 'claude', vendor: 'anthropic', env: { CLAUDE_CONFIG_DIR: signedOut } }],
    }));
    const r = await s.run(['up', s.file, '--detach'], { PATH: `${join(ROOT, 'tests', 'fixtures', 'bin-argv')}:${process.env.PATH ?? ''}` });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the preflight found 1 problem(s)');
    expect(r.stderr).toMatch(/c1 \(claude\): signed out/);
    expect(r.stdout).toBe('');
    expect(tmuxServerRuns(s.socket)).toBe(false);
    expect(existsSync(join(s.plan, '.swarm', 'state.json'))).toBe(false);
  });
});
