/**
 * SPEC 10.1, a tmux session belongs to one plan: two plan folders with the same `name:` on one tmux
 * server (one private socket). The session carries `@swarm_plan`; the other plan's `swarm up` and
 * `swarm down` exit 3 naming both plans and touch nothing of it; a session without the stamp whose
 * panes this plan's state records is adopted and stamped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let swarms: TestSwarm[] = [];
afterEach(async () => {
  for (const s of swarms) await s.cleanup();
  swarms = [];
});

const tmux = (socket: string, ...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** `%id pid dead` of every pane on the server: what must not change while another plan acts. */
const panesOn = (socket: string): string[] => tmux(socket, 'list-panes', '-a', '-F', '#{pane_id} #{pane_pid} #{pane_dead} #{@swarm_lane}').split('\n').filter(Boolean).sort();
const owner = (socket: string): string => tmux(socket, 'show-options', '-q', '-v', '-t', '=swarm-e2e:', '@swarm_plan').trim();
const leases = (s: TestSwarm): string[] => (existsSync(join(s.plan, '.swarm', 'leases')) ? readdirSync(join(s.plan, '.swarm', 'leases')) : []);

/** Plan A running on its socket (its lead and lane-a live), and plan B, also named `e2e`. */
async function twoPlans(): Promise<{ a: TestSwarm; b: TestSwarm; before: string[]; aUp: ReturnType<TestSwarm['up']> }> {
  const a = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready' } }] });
  const b = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready' } }] });
  swarms.push(a, b);
  const aUp = a.up(['--timeout', '90s']);
  await a.waitEvent('lane_started', 2);
  await waitFor(() => ['lead g1 ready', 'lane-a g1 ready'].every((l) => a.agentLog().includes(l)), { timeout: 30_000, what: 'the lead and lane-a of plan A ready' });
  const before = panesOn(a.socket);
  expect(before.filter((p) => / 0 (lead|lane-a)$/.test(p))).toHaveLength(2);
  return { a, b, before, aUp };
}

/** What B says (exit 3): both plans by their real paths, and the two ways to keep them apart. */
function namesBoth(stderr: string, a: TestSwarm, b: TestSwarm): void {
  expect(stderr).toContain(`plan ${realpathSync(a.plan)}`);
  expect(stderr).toContain(`plan ${realpathSync(b.plan)}`);
  expect(stderr).toContain('name:');
  expect(stderr).toContain('SWARM_TMUX_SOCKET');
}

describe('a tmux session belongs to one plan', () => {
  it("another plan's swarm up exits 3 naming both plans; the first plan's agents live on untouched", async () => {
    const { a, b, before } = await twoPlans();
    const up = await b.run(['up', b.file, '--headless', '--timeout', '30s'], { SWARM_TMUX_SOCKET: a.socket });
    expect(b.events('stale_panes_closed')).toHaveLength(0);
    expect(b.events('lane_started')).toHaveLength(0);
    expect(panesOn(a.socket)).toEqual(before);
    expect(a.events('agent_exited')).toHaveLength(0);
    expect(leases(b)).toEqual([]);
    expect(up.code).toBe(3);
    namesBoth(up.stderr, a, b);
    expect(owner(a.socket)).toBe(realpathSync(a.plan));
    // Nor does B attach to A's session or read A's panes as its own logs.
    for (const args of [['attach', b.file], ['logs', 'lane-a', b.file]]) {
      const other = await b.run(args, { SWARM_TMUX_SOCKET: a.socket });
      expect(other.code).toBe(3);
      namesBoth(other.stderr, a, b);
    }
    expect((await a.run(['logs', 'lane-a', a.file])).stdout).toContain('lane-a g1 ready');
    expect(panesOn(a.socket)).toEqual(before);
  });

  it("another plan's swarm down exits 3, kills nothing of the first plan, and releases its own leases and lead record", async () => {
    const { a, b, before } = await twoPlans();
    // B ran on a server of its own and was killed: its leases and lead record are held.
    const bUp = b.up();
    await b.waitEvent('lane_started', 2);
    bUp.kill('SIGKILL');
    await bUp;
    expect(leases(b).length).toBeGreaterThan(0);
    // Resuming B on A's server is refused too (A's panes are none of B's).
    const up = await b.run(['up', b.file, '--headless', '--timeout', '30s'], { SWARM_TMUX_SOCKET: a.socket });
    expect(up.code).toBe(3);
    namesBoth(up.stderr, a, b);

    const down = await b.run(['down', b.file], { SWARM_TMUX_SOCKET: a.socket });
    expect(down.code).toBe(3);
    namesBoth(down.stderr, a, b);
    expect(leases(b)).toEqual([]);
    expect(JSON.parse((await b.run(['status', b.file, '--json'])).stdout).lead.state).toBe('released');
    expect(panesOn(a.socket)).toEqual(before);
    expect(owner(a.socket)).toBe(realpathSync(a.plan));
    expect(a.events('agent_exited')).toHaveLength(0);

    // A's own down still closes A's session.
    expect((await a.run(['down', a.file])).code).toBe(0);
    expect(() => tmux(a.socket, 'has-session', '-t', '=swarm-e2e')).toThrow();
  });

  it("a session without @swarm_plan whose panes the plan's state records is adopted and stamped; another plan still may not use it", async () => {
    const { a, b, before, aUp } = await twoPlans();
    aUp.kill('SIGKILL');
    await aUp;
    tmux(a.socket, 'set-option', '-u', '-t', '=swarm-e2e:', '@swarm_plan'); // a session made before sessions were stamped
    expect(owner(a.socket)).toBe('');

    const other = await b.run(['up', b.file, '--headless', '--timeout', '30s'], { SWARM_TMUX_SOCKET: a.socket });
    expect(other.code).toBe(3);
    expect(other.stderr).toContain(`plan ${realpathSync(b.plan)}`);
    expect(other.stderr).toContain('kill-session'); // a leftover of B's own could be ended by hand
    expect(panesOn(a.socket)).toEqual(before);

    const again = a.up(['--timeout', '90s']);
    await a.waitEvent('session_adopted');
    await a.waitEvent('readopted');
    expect(owner(a.socket)).toBe(realpathSync(a.plan));
    expect(a.agentLog().filter((l) => l === 'lane-a g1 started')).toHaveLength(1);
    expect(panesOn(a.socket)).toEqual(before);
    again.kill('SIGKILL');
  });
});
