/**
 * Lanes on other hosts (SPEC 10.9), end to end: `swarm up` with one lane here and one on "box", a
 * real sshd started by the test on 127.0.0.1 in a mount namespace of its own (tests/helpers/sshd.ts).
 * The whole test swarm lives in the sshd's private folder: an ordinary folder on this side, an empty
 * tmpfs on the host's, so the host's plan folder (the same path) and its checkout are invisible here,
 * and this side's are invisible there. What crosses, crosses over ssh: the host relay's copies and
 * tmux's control mode. The host's `swarm` is this build, put on the session's PATH there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedSocket } from '../../src/adapters/remote/host.js';
import { parseMailbox } from '../../src/core/protocol/mailbox.js';
import { CLI } from '../helpers/swarm.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let sshd: Sshd;
let t: TestSwarm | null = null;

/** Run a shell line on the host (in sshd's namespace); it must succeed. */
function there(command: string): string {
  const run = sshd.ssh(command);
  if (run.code !== 0) throw new Error(`ssh ${command}: exit ${run.code}: ${run.stderr}`);
  return run.stdout;
}

beforeAll(async () => {
  sshd = await startSshd({ path: (privateDir) => [join(privateDir, 'bin')] });
  // The host's own swarm: this build, on the PATH of its ssh sessions.
  there(`mkdir -p '${sshd.privateDir}/bin' && printf '#!/bin/sh\\nexec %s %s "$@"\\n' '${process.execPath}' '${CLI}' > '${sshd.privateDir}/bin/swarm' && chmod +x '${sshd.privateDir}/bin/swarm'`);
}, 30_000);

afterEach(async () => {
  if (t !== null) {
    // The host's tmux server, by its socket (tmux's socket folder is the same on both sides here), so
    // it ends even when the test stopped the sshd.
    spawnSync('tmux', ['-L', `${t.socket}-box`, 'kill-server'], { stdio: 'ignore' });
    await t.cleanup();
  }
  t = null;
});

afterAll(async () => {
  await sshd?.stop();
});

/**
 * The ssh processes this test's swarm started to reach the sshd: its shared connection (the master,
 * found by asking ssh on swarm's ControlPath) and every session over it.
 */
function swarmSsh(plan: string): number[] {
  const control = sharedSocket(plan);
  const check = spawnSync('ssh', ['-o', `ControlPath=${control}`, '-p', String(sshd.port), '-O', 'check', '--', sshd.host.ssh], { encoding: 'utf8', timeout: 5000 });
  const master = /pid=(\d+)/.exec(check.stderr)?.[1];
  const sessions = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv[0] === 'ssh' && argv.includes(String(sshd.port)) && argv.includes(`ControlPath=${control}`) ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
  return [...(master === undefined ? [] : [Number(master)]), ...sessions];
}

/** A checkout on the host: a git repository with one commit, on a branch of its own. */
function hostCheckout(name: string): string {
  const dir = join(sshd.privateDir, name);
  there(`mkdir -p '${dir}' && cd '${dir}' && git init -q -b lane/${name} && git -c user.email=t@e.invalid -c user.name=t commit -q --allow-empty -m start`);
  return dir;
}

function hostsYaml(): string {
  return ['hosts:', '  box:', `    ssh: ${sshd.host.ssh}`, `    port: ${sshd.port}`, `    identity: ${JSON.stringify(sshd.host.identity)}`, `    options: ${JSON.stringify(sshd.host.options)}`].join('\n');
}

describe('a lane on another host', () => {
  it('hands off to a successor on the same host while a lane here works; the plan is done', async () => {
    const checkout = hostCheckout('wb');
    const s = (t = makeSwarm({
      root: sshd.privateDir,
      lanes: [
        { name: 'lane-a', agent: { AGENT_G1: 'ready,done' } },
        { name: 'lane-b', host: { name: 'box', checkout }, agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'done' } },
      ],
      extra: hostsYaml(),
    }));
    const result = await s.up(['--timeout', '90s']);
    expect(result.all).toContain('plan done');
    expect(result.exitCode).toBe(0);
    // Both of lane-b's generations in panes of the host's tmux, lane-a's here.
    expect(s.events('lane_started').find((e) => e.lane === 'lane-b')!.paneId).toMatch(/^box:%\d+\//);
    expect(s.events('successor_spawned').find((e) => e.lane === 'lane-b')!.paneId).toMatch(/^box:%\d+\//);
    expect(s.events('lane_started').find((e) => e.lane === 'lane-a')!.paneId).toMatch(/^%\d+\//);
    // The packet lane-b g1 wrote on the host, copied here, checked against the checkout there, accepted by g2 there.
    const packet = String(s.events('handoff_reported').find((e) => e.lane === 'lane-b')!.packet);
    expect(existsSync(packet)).toBe(true);
    expect(s.events('packet_accepted').find((e) => e.lane === 'lane-b')).toMatchObject({ generation: 2, packet });
    expect(there(`cat '${packet}'`)).toBe(readFileSync(packet, 'utf8'));
    expect(there(`ls '${packet}.accepted.json'`)).toContain('accepted');
    // Each side's files are its own: the host's checkout is not here, this side's plan is not there.
    expect(existsSync(checkout)).toBe(false);
    expect(there(`ls '${s.plan}/.swarm/spool/r1'`).split('\n')).toEqual(expect.arrayContaining(['lane-b-g1', 'lane-b-g2']));
    expect(there(`ls '${s.plan}/.swarm/spool/r1'`)).not.toContain('lane-a-g1');
    expect(there(`test -e '${s.plan}/journal.jsonl' && echo yes || echo no`).trim()).toBe('no');
    // swarm down ends the host's session as it ends this machine's.
    expect(there(`tmux -L ${s.socket}-box list-sessions -F '#{session_name}'`).trim()).toBe('swarm-e2e');
    const down = await s.run(['down']);
    expect(down.code, down.stderr).toBe(0);
    expect(sshd.ssh(`tmux -L ${s.socket}-box list-sessions`).code).not.toBe(0);
  }, 120_000);
});

describe('an agent there that dies', () => {
  it("gets a degraded packet naming its checkout there (read there), which its successor there accepts; plan done", async () => {
    const checkout = hostCheckout('wg');
    const s = (t = makeSwarm({
      root: sshd.privateDir,
      lanes: [{ name: 'lane-b', host: { name: 'box', checkout }, agent: { AGENT_G1: 'ready,sleep500,crash', AGENT_G2: 'done' } }],
      extra: hostsYaml(),
    }));
    const result = await s.up(['--timeout', '90s']);
    expect(result.all).toContain('plan done');
    expect(result.exitCode).toBe(0);
    const degraded = s.events('degraded_handoff').filter((e) => e.lane === 'lane-b');
    expect(degraded).toHaveLength(1);
    const packet = readFileSync(String(s.events('packet_accepted').find((e) => e.lane === 'lane-b')!.packet), 'utf8');
    expect(packet).toContain('branch: lane/wg');
    expect(packet).toMatch(/head: [0-9a-f]{40}/);
  }, 120_000);
});

describe('a restart', () => {
  it('swarm up killed (-9) and started again re-adopts the lane running on the host: same agent, its records read on, plan done', async () => {
    const checkout = hostCheckout('we');
    const s = (t = makeSwarm({
      root: sshd.privateDir,
      lanes: [{ name: 'lane-b', host: { name: 'box', checkout }, agent: { AGENT_G1: 'ready,sleep6000,done' } }],
      extra: hostsYaml(),
    }));
    const first = s.up(['--timeout', '90s']);
    await waitFor(() => existsSync(join(s.plan, '.swarm', 'spool', 'r1', 'lane-b-g1', 'records.jsonl')), { what: "lane-b's first record copied here", timeout: 30_000 });
    first.kill('SIGKILL');
    await first;
    const result = await s.up(['--timeout', '90s']);
    expect(result.all).toContain('plan done');
    expect(result.exitCode).toBe(0);
    expect(s.events('readopted')).toMatchObject([{ panes: 2 }]); // the lead's here, lane-b's there
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-b')).toHaveLength(1);
    expect(s.events('lane_result').filter((e) => e.lane === 'lane-b')).toMatchObject([{ generation: 1, result: 'done' }]);
    // Its reports reached the lead's mailbox through the copy here, the last one after the restart. (A
    // record read but not yet saved as read when the engine was killed is read again: its message may
    // be delivered twice, as for a lane here — the engine's inbox is at least once across a kill.)
    const fromB = parseMailbox(readFileSync(join(s.plan, '.swarm', 'mailbox', 'lead.md'), 'utf8')).filter((m) => m.from === 'lane-b').map((m) => m.text.split('\n')[0]);
    expect(fromB.at(-1)).toBe('done');
    expect(new Set(fromB)).toEqual(new Set(['plan ready', 'done']));
  }, 120_000);
});

describe('the connection to the host', () => {
  it('killed under a running lane: reconnected, the lane keeps its agent, the plan is done', async () => {
    const checkout = hostCheckout('wc');
    const s = (t = makeSwarm({
      root: sshd.privateDir,
      lanes: [{ name: 'lane-b', host: { name: 'box', checkout }, agent: { AGENT_G1: 'ready,sleep6000,done' } }],
      extra: hostsYaml(),
    }));
    const run = s.up(['--timeout', '90s']);
    // lane-b's first report came through the relay: the connection carries records.
    await waitFor(() => existsSync(join(s.plan, '.swarm', 'spool', 'r1', 'lane-b-g1', 'records.jsonl')), { what: "lane-b's first record copied here", timeout: 30_000 });
    const killed = swarmSsh(s.plan);
    expect(killed.length).toBeGreaterThan(1); // the shared connection and its sessions
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    const result = await run;
    expect(result.all).toContain('plan done');
    expect(result.exitCode).toBe(0);
    expect(s.events('host_unreachable')).toMatchObject([{ host: 'box' }]);
    expect(s.events('host_reconnected')).toMatchObject([{ host: 'box' }]);
    expect(s.events('host_lost')).toEqual([]);
    expect(s.events('degraded_handoff')).toEqual([]);
    expect(s.events('lane_result').filter((e) => e.lane === 'lane-b')).toMatchObject([{ generation: 1, result: 'done' }]);
  }, 120_000);

  it('not back after three tries in 30 s: that host\'s lane is lost and its successor waits for the host; the lane here is done', async () => {
    const checkout = hostCheckout('wd');
    const s = (t = makeSwarm({
      root: sshd.privateDir,
      lanes: [
        { name: 'lane-a', agent: { AGENT_G1: 'ready,sleep20000,done' } },
        { name: 'lane-b', host: { name: 'box', checkout }, agent: { AGENT_G1: 'ready,sleep60000,done' } },
      ],
      extra: hostsYaml(),
    }));
    const run = s.up(['--timeout', '90s']);
    await waitFor(() => existsSync(join(s.plan, '.swarm', 'spool', 'r1', 'lane-b-g1', 'records.jsonl')), { what: "lane-b's first record copied here", timeout: 30_000 });
    // The host gone from the network: no new connection is taken, the open one is cut (its tmux server and agents run on).
    await sshd.halt();
    for (const pid of swarmSsh(s.plan)) process.kill(pid, 'SIGKILL');
    const lost = await s.waitEvent('host_lost', 1, 45_000);
    expect(lost).toMatchObject([{ host: 'box', lane: null }]);
    // lane-a, at work all along here, finishes; lane-b's successor waits: nothing more will happen, so the run is ended here.
    await waitFor(() => s.events('lane_result').some((e) => e.lane === 'lane-a') && s.events('waiting_for_account').some((e) => e.lane === 'lane-b'), { what: 'lane-a done and lane-b waiting', timeout: 30_000 });
    run.kill('SIGTERM');
    await run;
    expect(s.events('host_unreachable')).toMatchObject([{ host: 'box' }]);
    // Its lane is lost as any lane whose pane went; the swarm's own host (this machine's tmux) is not.
    expect(s.events('degraded_handoff').map((e) => [e.lane, e.reason]), JSON.stringify(s.journal().map((e) => [e.event, e.lane, e.reason ?? e.why ?? e.error ?? '']))).toEqual([['lane-b', 'lane_lost']]);
    expect(s.events('host_lost').every((e) => e.host === 'box')).toBe(true);
    expect(s.events('lane_result').filter((e) => e.lane === 'lane-a')).toMatchObject([{ result: 'done' }]);
    // Its successor waits for the host: no account is tried (and blamed) while it cannot be reached.
    expect(s.events('waiting_for_account').filter((e) => e.lane === 'lane-b')).toMatchObject([{ for_generation: 2, why: expect.stringMatching(/^host box is unreachable: /) }]);
    expect(s.events('lease_acquired').filter((e) => e.lane === 'lane-b')).toEqual([]);
  }, 120_000);

  it('unreachable from the start (swarm up --force): the lane here runs and is done, the lane there waits for its host', async () => {
    await sshd.halt(); // the host gone from the network (already, after the test above)
    const s = (t = makeSwarm({
      root: sshd.privateDir,
      lanes: [
        { name: 'lane-a', agent: { AGENT_G1: 'ready,done' } },
        { name: 'lane-b', host: { name: 'box', checkout: join(sshd.privateDir, 'wf') }, agent: { AGENT_G1: 'ready,done' } },
      ],
      extra: hostsYaml(),
    }));
    const run = s.up(['--force', '--timeout', '90s']);
    await waitFor(() => s.events('lane_result').some((e) => e.lane === 'lane-a') && s.events('waiting_for_account').some((e) => e.lane === 'lane-b'), { what: 'lane-a done and lane-b waiting', timeout: 45_000 });
    run.kill('SIGTERM');
    await run;
    expect(s.events('waiting_for_account').filter((e) => e.lane === 'lane-b')).toMatchObject([{ for_generation: 1, why: expect.stringMatching(/^host box is unreachable: .*Connection refused/) }]);
    expect(s.events('host_unreachable')).toMatchObject([{ host: 'box' }]);
    expect(s.events('lane_started').map((e) => e.lane)).toEqual(['lead', 'lane-a']);
    expect(s.events('lane_result').filter((e) => e.lane === 'lane-a')).toMatchObject([{ result: 'done' }]);
  }, 120_000);
});
