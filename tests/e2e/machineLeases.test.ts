/**
 * SPEC 10.4, one writer per account on the machine, in real tmux: two swarms (two plans in two
 * repositories) declare the same two profile folders under other ids, and lease from one machine
 * folder. Never two live agents on one profile (checked from the agents' own environments, /proc);
 * the second swarm waits (`waiting_for_account`, in status) and starts within seconds of the first's
 * `down`; a kill -9 of an engine whose agents live keeps its leases held, and killing the agents too
 * frees them. Crash cuts: a lease taken and the engine killed before the spawn (no lease held by
 * nobody), and a pane made but not yet recorded (held by its agent, found by its identity).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTree } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let swarms: TestSwarm[] = [];
let dirs: string[] = [];
let watch: ReturnType<typeof setInterval> | null = null;
afterEach(async () => {
  if (watch) clearInterval(watch);
  watch = null;
  for (const s of swarms) await s.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  swarms = [];
  dirs = [];
});

/** Two signed-in Claude profiles that trust every folder under the temp dir (both swarms' checkouts). */
function sharedProfiles(): { p1: string; p2: string; state: string } {
  const root = mkdtempSync(join(tmpdir(), 'swarm-profiles-'));
  dirs.push(root);
  const trust = JSON.stringify({ projects: { [realpathSync(tmpdir())]: { hasTrustDialogAccepted: true } } });
  for (const name of ['p1', 'p2']) writeTree(join(root, name), { '.credentials.json': '{}', '.claude.json': trust });
  return { p1: join(root, 'p1'), p2: join(root, 'p2'), state: join(root, 'state') };
}

/** A plan whose lead and one lane run on the two shared profiles, under ids of its own. */
function planOn(ids: [string, string], profiles: { p1: string; p2: string; state: string }, lane: string): TestSwarm {
  const s = makeSwarm({
    kind: 'claude',
    accounts: [
      { id: ids[0], vendor: 'anthropic', env: { CLAUDE_CONFIG_DIR: profiles.p1 } },
      { id: ids[1], vendor: 'anthropic', env: { CLAUDE_CONFIG_DIR: profiles.p2 } },
    ],
    lanes: [{ name: lane, account: ids[1], agent: { AGENT_G1: 'ready' } }],
  });
  s.env.SWARM_STATE_DIR = profiles.state; // one machine: one lease folder
  swarms.push(s);
  return s;
}

/**
 * The live agents on each profile folder, by the plan their environment names: read from every
 * process's own environment (/proc/<pid>/environ), so what counts is what really runs.
 */
function agentsByProfile(profiles: string[]): Map<string, Set<string>> {
  const out = new Map(profiles.map((p) => [p, new Set<string>()]));
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let environ: string[];
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    } catch {
      continue;
    }
    const get = (name: string) => environ.find((e) => e.startsWith(`${name}=`))?.slice(name.length + 1);
    const profile = get('CLAUDE_CONFIG_DIR');
    const plan = get('SWARM_PLAN');
    if (profile !== undefined && plan !== undefined && out.has(profile)) out.get(profile)!.add(`${plan} g${get('SWARM_GENERATION')}`);
  }
  return out;
}

/** Sample every 100 ms for the whole test: never two plans' agents on one profile at once. */
function neverTwoWriters(profiles: string[]): string[] {
  const seen: string[] = [];
  watch = setInterval(() => {
    for (const [profile, agents] of agentsByProfile(profiles)) if (agents.size > 1) seen.push(`${profile}: ${[...agents].join(', ')}`);
  }, 100);
  return seen;
}

const started = (s: TestSwarm): string[] => s.events('lane_started').map((e) => String(e.lane)).sort();
const killServer = (s: TestSwarm) => {
  try {
    execFileSync('tmux', ['-L', s.socket, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // none
  }
};

describe('one writer per account on the machine', () => {
  it('the second swarm waits for the profiles the first holds, and starts within seconds of its down; never two writers on one profile', async () => {
    const profiles = sharedProfiles();
    const a = planOn(['w1', 'w2'], profiles, 'lane-a');
    const b = planOn(['x1', 'x2'], profiles, 'lane-b');
    const twice = neverTwoWriters([profiles.p1, profiles.p2]);

    a.up(['--timeout', '120s']);
    await a.waitEvent('lane_started', 2);
    b.up(['--timeout', '120s']);
    const waits = await b.waitEvent('waiting_for_account', 2);
    expect(waits.map((e) => e.lane).sort()).toEqual(['lane-b', 'lead']);
    expect(String(waits[0]!.why)).toContain(`held by plan ${a.plan}`);
    expect(started(b)).toEqual([]);
    // status --json keeps SPEC 7's keys: the lane is `starting` in phase `waiting`; the table says why.
    const status = JSON.parse((await b.run(['status', b.file, '--json'])).stdout) as { lanes: { name: string; state: string; phase: string | null }[] };
    expect(status.lanes).toMatchObject([{ name: 'lane-b', state: 'starting', phase: 'waiting' }]);
    expect((await b.run(['status', b.file])).stdout).toContain(`waiting for an account: x2 is held by plan ${a.plan}, lane-a g1`);
    // Still waiting a few asks later: journaled once each, not at every ask.
    await waitFor(() => b.events('waiting_for_account').length === 2 && Date.now() - Date.parse(String(waits[0]!.ts)) > 5000, { timeout: 15_000, what: 'a few asks' });

    const down = Date.now();
    expect((await a.run(['down', a.file])).code).toBe(0);
    await b.waitEvent('lane_started', 2, 15_000);
    const took = Date.parse(String(b.events('lane_started').at(-1)!.ts)) - down;
    console.log(`second swarm started ${took} ms after the first's down`);
    expect(took).toBeLessThan(10_000);
    expect(b.events('lease_acquired').length + b.events('lane_started').length).toBeGreaterThanOrEqual(2);
    expect(twice).toEqual([]);
    // B holds both profiles now; A's own view of its leases is gone.
    const held = agentsByProfile([profiles.p1, profiles.p2]);
    expect([...held.get(profiles.p1)!].every((a) => a.startsWith(b.plan))).toBe(true);
    expect(readdirSync(join(profiles.state, 'leases')).filter((n) => n.endsWith('.json'))).toHaveLength(2);
  });

  it("kill -9 of an engine whose agents live keeps its leases held; its agents killed too, the other swarm takes them", async () => {
    const profiles = sharedProfiles();
    const a = planOn(['w1', 'w2'], profiles, 'lane-a');
    const b = planOn(['x1', 'x2'], profiles, 'lane-b');
    const twice = neverTwoWriters([profiles.p1, profiles.p2]);

    const aUp = a.up(['--timeout', '120s']);
    await a.waitEvent('lane_started', 2);
    await waitFor(() => ['lead g1 ready', 'lane-a g1 ready'].every((l) => a.agentLog().includes(l)), { timeout: 30_000, what: "A's agents ready" });
    aUp.kill('SIGKILL');
    await aUp;
    b.up(['--timeout', '120s']);
    await b.waitEvent('waiting_for_account', 2);
    // Its agents outlive the engine: the leases stay held (SPEC 9, 10.4).
    await new Promise((resolve) => setTimeout(resolve, 3000)); // a wait that must see nothing happen: longer than an ask
    expect(started(b)).toEqual([]);

    killServer(a); // A's agents gone too: nobody holds the leases
    await b.waitEvent('lane_started', 2, 20_000);
    expect(started(b)).toEqual(['lane-b', 'lead']);
    expect(twice).toEqual([]);
  });

  it('crash cut: the lease taken and the engine killed before the spawn: not held by nobody, in either plan', async () => {
    const profiles = sharedProfiles();
    const a = planOn(['w1', 'w2'], profiles, 'lane-a');
    const b = planOn(['x1', 'x2'], profiles, 'lane-b');
    const twice = neverTwoWriters([profiles.p1, profiles.p2]);

    const crashed = await a.run(['up', a.file, '--headless', '--timeout', '60s'], { SWARM_FAULT: 'after:lease:lead' });
    expect(crashed.code).not.toBe(0);
    expect(readdirSync(join(profiles.state, 'leases')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
    // The other plan takes the account the dead engine leased and never used.
    b.up(['--timeout', '120s']);
    await b.waitEvent('lane_started', 2, 20_000);
    // The first plan, started again, waits for the other's (its own lease was not held by nobody).
    a.up(['--timeout', '120s']);
    const waits = await a.waitEvent('waiting_for_account', 2);
    expect(String(waits.find((e) => e.lane === 'lead')!.why)).toContain(`held by plan ${b.plan}`);
    expect(started(a)).toEqual([]);
    expect(twice).toEqual([]);
  });

  it('crash cut: the pane made, the engine killed before its agent is named in the lease: held by that agent, found by its identity', async () => {
    const profiles = sharedProfiles();
    const a = planOn(['w1', 'w2'], profiles, 'lane-a');
    const b = planOn(['x1', 'x2'], profiles, 'lane-b');
    const twice = neverTwoWriters([profiles.p1, profiles.p2]);

    const crashed = await a.run(['up', a.file, '--headless', '--timeout', '60s'], { SWARM_FAULT: 'pane-created:lead:1' });
    expect(crashed.code).not.toBe(0);
    const [lease] = readdirSync(join(profiles.state, 'leases')).filter((n) => n.endsWith('.json'));
    expect(JSON.parse(readFileSync(join(profiles.state, 'leases', lease!), 'utf8'))).toMatchObject({ lane: 'lead', agent: null });
    await waitFor(() => a.agentLog().includes('lead g1 ready'), { timeout: 30_000, what: "A's lead running with no engine" });
    b.up(['--timeout', '120s']);
    const waits = await b.waitEvent('waiting_for_account', 1);
    expect(waits[0]).toMatchObject({ lane: 'lead' });
    // A, started again, adopts its pane and its lease: B keeps waiting for the lead's profile.
    a.up(['--timeout', '120s']);
    await a.waitEvent('readopted', 1);
    await waitFor(() => a.events('lane_started').some((e) => e.lane === 'lane-a') || b.events('lane_started').some((e) => e.lane === 'lane-b'), { timeout: 20_000, what: 'the lane profile taken by one of them' });
    expect(b.events('lane_started').filter((e) => e.lane === 'lead')).toEqual([]);
    expect(twice).toEqual([]);
  });
});
