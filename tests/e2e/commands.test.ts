/**
 * The developer's commands against a real swarm on tmux: status, report, logs, answer, lane add,
 * journal, down — with and without the engine running.
 */
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT, makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { git, swarm } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('developer commands on a live swarm', () => {
  it('status, logs, answer, lane add, then down stops everything', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'ready' } }] }));
    const up = s.up(['--timeout', '60s']);
    await s.waitEvent('packet_accepted');

    const status = await s.run(['status', s.file, '--json']);
    expect(status.code).toBe(0);
    const json = JSON.parse(status.stdout);
    expect(json).toMatchObject({ session: 'swarm-e2e', lead: { name: 'lead', epoch: 1, account: 'a1' } });
    expect(json.lanes).toEqual([expect.objectContaining({ name: 'lane-a', generation: 2, state: 'working', phase: 'accepted', blocked: null })]);
    // SPEC 10.7: every account with a reading, and its forecast (two readings of lane-a g1's: too few to say).
    const first = s.events('lane_started').find((e) => e.lane === 'lane-a')!.account;
    expect(json.accounts).toContainEqual({ id: first, state: 'critical', remaining_pct: 5, burn_pct_per_hour: null, critical_in_min: null, resets_at: null });
    const table = await s.run(['status', s.file]);
    expect(table.stdout).toMatch(/^lane-a\s+g2\s+\S+\s+working\s+accepted \d+s/m);

    const logs = await s.run(['logs', 'lane-a', s.file]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain('lane-a g2 started');
    const spent = await s.run(['logs', 'lane-a', '--generation', '1', s.file]);
    expect(spent.stdout).toContain('lane-a g1 handoff');

    const fromPane = await s.run(['answer', 'lane-a', 'yes'], { SWARM_LANE: 'lane-a' });
    expect(fromPane.code).toBe(2);
    expect(fromPane.stderr).toContain("swarm answer is the developer's");
    const answer = await s.run(['answer', 'lane-a', 'use', 'the', 'v2', 'API', '--file', s.file]);
    expect(answer.code).toBe(0);
    await s.waitEvent('developer_answer');
    expect(s.events('developer_answer')[0]).toMatchObject({ type: 'intervention', lane: 'lane-a', text: 'use the v2 API' });

    // The lead adds a lane at run time; a lane cannot.
    const wt = join(s.root, 'wt-lane-z');
    git(join(s.root, 'repo'), 'worktree', 'add', '-q', '-b', 'lane/lane-z', wt);
    // Each from a stand-in for its pane, recorded as the engine records one (SPEC 10.3: the agent is known by its pane).
    const asAgent = (lane: string, role: 'lead' | 'lane', args: string[]) =>
      swarm(args, { env: { ...s.env, SWARM_PLAN: s.plan, SWARM_LANE: lane, SWARM_EPOCH: '1', SWARM_CONFIG: s.file }, cwd: join(s.root, 'repo'), pane: { plan: s.plan, lane, role, account: role === 'lead' ? 'a1' : 'a2' } });
    const byLane = await asAgent('lane-a', 'lane', ['lane', 'add', 'lane-y', '--task', 'x', '--checkout', wt]);
    expect(byLane.code).toBe(3);
    const command = `AGENT_G1=ready exec ${process.execPath} ${AGENT}`;
    const byLead = await asAgent('lead', 'lead', ['lane', 'add', 'lane-z', '--task', 'extra work', '--checkout', wt, '--command', command]);
    expect(byLead.stderr).toBe('');
    expect(byLead.code).toBe(0);
    await waitFor(() => s.events('lane_started').find((e) => e.lane === 'lane-z'), { what: 'lane-z started' });

    const down = await s.run(['down', s.file]);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('stopped the engine');
    await up;
    const panes = await s.run(['status', s.file, '--json']);
    expect(JSON.parse(panes.stdout).lead.state).toBe('released');
    const leases = join(s.plan, '.swarm', 'leases');
    expect(existsSync(leases) ? readdirSync(leases) : []).toEqual([]);
    expect(s.events('swarm_down')).toHaveLength(1);
  });

  it('an agent cannot answer as the developer by unsetting its pane environment; the developer can (issue 10, item 3)', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,answer,answer-detached', API_TOKEN: 'tok-e2e-not-to-be-shown' } }] }));
    const up = s.up(['--timeout', '60s']);
    const result = (name: string) => waitFor(() => {
      const rc = `${s.env.AGENT_LOG}.${name}.rc`;
      return existsSync(rc) && readFileSync(rc, 'utf8').trim() !== '' ? { code: Number(readFileSync(rc, 'utf8')), stderr: readFileSync(`${s.env.AGENT_LOG}.${name}`, 'utf8') } : null;
    }, { what: `the pane's ${name}`, timeout: 30_000 });

    const inPane = await result('answer');
    expect(inPane.code).toBe(2);
    expect(inPane.stderr).toMatch(/this process runs in a pane of swarm e2e: it runs under the process of the swarm pane on \/dev\/pts\/\d+/);
    const detached = await result('answer-detached');
    expect(detached.code).toBe(2);
    expect(detached.stderr).toMatch(/this process runs in a pane of swarm e2e: its terminal \/dev\/pts\/\d+ is a swarm pane's/);
    for (const said of [inPane.stderr, detached.stderr]) expect(said).not.toContain('tok-e2e-not-to-be-shown');

    const developer = await s.run(['answer', 'lane-a', 'from', 'the', 'developer', '--file', s.file]);
    expect(developer.stderr).toBe('');
    expect(developer.code).toBe(0);
    await s.waitEvent('developer_answer');
    expect(s.events('developer_answer').map((e) => e.text)).toEqual(['from the developer']);
    expect((await s.run(['down', s.file])).code).toBe(0);
    await up;
  });

  it('report prints every handoff with its packet and accounts after the plan is done', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'done' } }] }));
    expect((await s.up(['--timeout', '60s'])).exitCode).toBe(0);
    const report = await s.run(['report', s.file]);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/plan done/);
    expect(report.stdout).toMatch(/handoffs: 1\n {2}lane-a g1 @\S+ → g2 @\S+ in [\d.]+s, capacity_critical/);
    expect(report.stdout).toMatch(/packet plans\/p\/analysis_results\/handoff\/lane-a-g1-\d{8}T\d{6}Z\.yaml/);
    expect(report.stdout).toContain('lane-a: done at');
  });
});

describe('swarm down, then swarm up (the everyday restart)', () => {
  it('down ends the run: status says stopped, and the next up starts afresh and finishes', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep2500,done' } }] }));
    const first = s.up(['--timeout', '60s']);
    await s.waitEvent('lane_started', 2);
    const down = await s.run(['down', s.file]);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('the run is ended; `swarm up` starts the plan afresh');
    await first;
    const status = JSON.parse((await s.run(['status', s.file, '--json'])).stdout) as { lead: { state: string }; lanes: { name: string; state: string }[] };
    expect(status.lead.state).toBe('released');
    expect(status.lanes).toEqual([expect.objectContaining({ name: 'lane-a', state: 'stopped' })]);

    const again = await s.up(['--timeout', '45s']);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);
    expect(s.events('lead_claimed').map((e) => e.epoch)).toEqual([1, 2]);
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-a').map((e) => e.generation)).toEqual([1, 1]);
    for (const none of ['readopted', 'degraded_handoff', 'pane_closed', 'lead_takeover']) expect(s.events(none)).toEqual([]);
    expect(s.agentLog().filter((l) => l === 'lane-a g1 done')).toHaveLength(1);
  });
});

describe('a corrupt lead.json', () => {
  it('stops swarm up before any tmux server exists, naming the file and what to do (exit 3)', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
    writeFileSync(join(s.plan, 'lead.json'), '{"plan": "p", "epoch": ');
    const run = await s.up(['--timeout', '20s']);
    expect(run.exitCode).toBe(3);
    expect(run.all).toContain(`${join(s.plan, 'lead.json')} is not a lead record`);
    expect(run.all).toContain('fix or remove the file');
    const server = await execa('tmux', ['-L', s.socket, 'list-sessions'], { reject: false });
    expect(server.exitCode).not.toBe(0);
    expect(s.events('lane_started')).toEqual([]);
  });
});
