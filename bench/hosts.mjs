#!/usr/bin/env node
// npm run bench (part: lanes on other hosts, SPEC 10.9) — a real sshd on 127.0.0.1 in a mount namespace
// of its own (bench/sshd.mjs) standing in for the host "box"; each swarm lives in its private folder (an
// ordinary folder here, another empty one there: the plan folder at the same path on both sides), the
// host's `swarm` this build. Both measures put a lane here and a lane there side by side, in one run:
//  1. handoff turnaround, local vs remote: one swarm with a lane here and one on box, each g1
//     `ready,wait,handoff` and g2 `done`, the two handoffs 3 s apart (the first alternating); from the
//     handoff report's record (its `ts`, stamped by `swarm notify` where the agent runs) to the
//     successor's agent running (its first AGENT_STAMP line, `started`, where it runs): both ends on the
//     agent's side, so the remote figure holds what reaches the engine over ssh (the host relay's copy)
//     and what goes back (the spawn over the shared connection, the host's tmux), and nothing of either
//     side's clock (one machine). BENCH_HOSTS_RUNS swarms (default 5); p50 of each, and remote / local
//     (target ≤ 2×). The journal's handoff_reported and successor_spawned split it into three parts
//     (each its own p50): the report read by the engine, the successor spawned, its agent's first line
//     (below zero when the agent printed before the engine journaled its spawn). Beside it, one tmux
//     command, spawn → exit, here and on box as its own session over swarm's shared connection: what a
//     pane's spawn would cost if swarm sent it so — that session includes the host user's shell start
//     (bash reads ~/.bashrc for a command sshd runs: ~80 ms here, which put remote at 1.9–2.3× local);
//     swarm sends it through the host relay instead (no session, no shell).
//  2. the engine's CPU with 8 streaming lanes on box and, side by side over the same window, another
//     swarm's with 8 streaming lanes here (lane.mjs `stream` at 12 Hz, one status line, as
//     streaming.mjs's default): ns on a CPU (/proc/<pid>/task/*/schedstat) over BENCH_HOSTS_WINDOW_S
//     (default 20) seconds, BENCH_HOSTS_WARM_S (default 10) after every lane streams; remote / local.
//     Apart: the ssh processes swarm started (its shared connection's master, `ssh: … [mux]`, and the
//     sessions over it, `ssh … ControlPath=…`: the relay, tmux's control client, each command's), and
//     each side's tmux server, and on box what sshd runs for the connection (its sessions, the host
//     relay, tmux clients). Processes are sampled each second: one that lived less than that is missed.
// Everything started is ended: the engines, both tmux servers (the host's by its socket: tmux's folder
// is the same on both sides), the shared connection (swarm's `ssh -O exit`; checked), sshd.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT, CLI, ROOT, alive, makeRepo, onCpuNs, quantile, result, sleep, waitFor } from './lib.mjs';
import { SSHD, startSshd } from './sshd.mjs';

const { remoteCommand, shQuote: q, sshArgv } = await import(join(ROOT, 'dist', 'core', 'host', 'ssh.js'));
const { sharedSocket } = await import(join(ROOT, 'dist', 'adapters', 'remote', 'host.js'));

const RUNS = Number(process.env.BENCH_HOSTS_RUNS ?? 5);
const WINDOW_S = Number(process.env.BENCH_HOSTS_WINDOW_S ?? 20);
const WARM_S = Number(process.env.BENCH_HOSTS_WARM_S ?? 10);
const STREAMERS = 8;
const HOST = 'box';
/** The two handoffs of a run, each this long after its agent started: far enough apart not to meet. */
const HANDOFF_AT_MS = [1500, 4500];

const lanesOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);
const lines = (text) => text.split('\n').filter(Boolean);
const journalOf = (s) => (existsSync(join(s.plan, 'journal.jsonl')) ? lines(readFileSync(join(s.plan, 'journal.jsonl'), 'utf8')).map((l) => JSON.parse(l)) : []);

// The sshd harness needs root (unshare -m) and Debian's sshd: without them, this part says so and is skipped.
const skip = process.getuid?.() !== 0 ? 'it needs root (sshd in a mount namespace of its own)' : existsSync(SSHD) ? null : `it needs ${SSHD} (apt-get install -y openssh-server)`;
if (skip !== null) {
  result('hosts', { skipped: skip });
  console.log(`\nlanes on another host: skipped, ${skip}`);
  process.exit(0);
}
const sshd = await startSshd({ path: (privateDir) => [join(privateDir, 'bin')] });
/** Run a shell line on box; it must succeed. */
function there(command) {
  const run = sshd.ssh(command);
  if (run.code !== 0) throw new Error(`bench: ssh ${command}: exit ${run.code}: ${run.stderr}`);
  return run.stdout;
}
/** tmux's socket folder: the same on both sides (only the private folder and /run are sshd's own). */
const TMUX_DIR = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 'u'}`);
/** The shared connection's socket of a plan's swarm, as swarm names it (adapters/remote/host.ts); each one used is ended at the end if swarm left it. */
const CONTROLS = new Set();
const controlOf = (plan) => {
  const control = sharedSocket(plan);
  CONTROLS.add(control);
  return control;
};
const hostsYaml = [
  'hosts:', `  ${HOST}:`, `    ssh: ${sshd.host.ssh}`, `    port: ${sshd.port}`,
  `    identity: ${JSON.stringify(sshd.host.identity)}`, `    options: ${JSON.stringify(sshd.host.options)}`,
].join('\n');

/**
 * A swarm in sshd's private folder: `lanes` ({ name, remote, agent }) each a command lane running
 * lane.mjs, a remote one on box in a checkout made there. Every agent logs with stamps into
 * `<dir>/agents.log` where it runs (the same path: one file here, another on box).
 */
function makeHostSwarm(label, lanes) {
  const { dir, repo } = makeRepo(lanes.filter((l) => !l.remote).map((l) => l.name), sshd.privateDir);
  const log = join(dir, 'agents.log');
  const cmd = (env) => [...Object.entries({ AGENT_LOG: log, AGENT_STAMP: '1', ...env }).map(([k, v]) => `${k}='${v}'`), 'exec', process.execPath, AGENT].join(' ');
  const checkout = (lane) => join(dir, `box-${lane}`);
  for (const lane of lanes.filter((l) => l.remote)) {
    there(`mkdir -p ${q(checkout(lane.name))} && cd ${q(checkout(lane.name))} && git init -q -b lane/${lane.name} && git -c user.email=b@x.invalid -c user.name=b commit -q --allow-empty -m start`);
  }
  // Two accounts a lane: a handoff leaves its account (capacity critical), its successor takes another.
  const accounts = ['l1', ...lanes.flatMap((_, i) => [`x${i + 1}`, `y${i + 1}`])];
  const yaml = [
    'version: 1', `name: ${label}`, 'plan: plans/p', 'backend: tmux', hostsYaml, 'accounts:',
    ...accounts.map((id) => `  - { id: ${id}, kind: command, vendor: anthropic }`),
    'lead:', '  name: lead', '  account: l1', `  command: "${cmd({ AGENT_G1: 'ready' })}"`,
    `max_lanes: ${Math.max(8, lanes.length)}`,
    'lanes:',
    ...lanes.flatMap((lane) => [
      `  - name: ${lane.name}`, `    checkout: ${lane.remote ? JSON.stringify(checkout(lane.name)) : `../wt-${lane.name}`}`,
      ...(lane.remote ? [`    host: ${HOST}`] : []), '    task: bench', `    command: "${cmd(lane.agent)}"`,
    ]),
    'timeouts: { accept: 30s, packet: 30s, stall: 30m, release: 1s }',
  ].join('\n');
  writeFileSync(join(repo, 'swarm.yaml'), `${yaml}\n`);
  const socket = `swarm-bench-${process.pid}-${label}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SWARM_TMUX_SOCKET: socket, SWARM_STATE_DIR: join(dir, 'state') };
  const up = (args = [], output = 'ignore') => spawn(process.execPath, [CLI, 'up', join(repo, 'swarm.yaml'), '--headless', ...args], { env, cwd: repo, stdio: ['ignore', output, output] });
  /** The agents' log lines here and on box: [ms, "lane gN", action]. */
  const agentLog = (remote) => {
    const text = remote ? there(`cat ${q(log)} 2>/dev/null || true`) : existsSync(log) ? readFileSync(log, 'utf8') : '';
    return lines(text).map((l) => /^(\d+) (\S+ g\d+) (.*)$/.exec(l)).filter(Boolean).map((m) => [Number(m[1]), m[2], m[3]]);
  };
  return { dir, repo, socket, plan: join(repo, 'plans', 'p'), up, agentLog };
}

/** A tmux server's pid on a private socket, or null. */
function tmuxPid(socket) {
  const pid = Number(spawnSync('tmux', ['-L', socket, 'display', '-p', '#{pid}'], { encoding: 'utf8' }).stdout.trim());
  return pid > 0 ? pid : null;
}


/** Every process's argv and parent, by pid. */
function processes() {
  const all = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      all.set(Number(name), { argv, ppid });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** The shared connection's master on `control` (ssh says its pid), or null. */
function masterPid(control) {
  const check = spawnSync('ssh', ['-o', `ControlPath=${control}`, '-p', String(sshd.port), '-O', 'check', '--', sshd.host.ssh], { encoding: 'utf8', timeout: 5000 });
  const pid = /pid=(\d+)/.exec(check.stderr)?.[1];
  return pid === undefined ? null : Number(pid);
}

/** swarm's ssh processes to box (`master`, and the sessions over it), and what sshd runs for them on box. */
function connectionProcesses(master, control) {
  const all = processes();
  const client = [...all].filter(([pid, p]) => pid === master || (p.argv[0] === 'ssh' && p.argv.includes(String(sshd.port)) && p.argv.includes(`ControlPath=${control}`)
    && !p.argv.includes('-O'))).map(([pid]) => pid);
  // On box: sshd's descendants (its sessions, the relay, tmux clients, commands), not the tmux server (daemonised away from them).
  const below = new Set([sshd.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of all) {
      if (below.has(pid) || !below.has(p.ppid)) continue;
      below.add(pid);
      grew = true;
    }
  }
  below.delete(sshd.pid);
  return { client, host: [...below] };
}

/**
 * What one tmux command costs the engine, wall ms from spawn to exit (p50 of 10, the two taken in
 * turn): on box, over a new session of swarm's shared connection (the argv swarm runs: its
 * ControlPath, so its master), and here.
 */
function commandMs(localSocket, remoteSocket, control) {
  const [program, ...argv] = sshArgv(sshd.host, remoteCommand(['tmux', '-L', remoteSocket, 'display', '-p', '#{pid}']), process.env.HOME ?? '', 5, control);
  const times = { local: [], remote: [] };
  const time = (side, file, args) => {
    const t0 = process.hrtime.bigint();
    const run = spawnSync(file, args, { stdio: 'ignore', timeout: 10_000 });
    if (run.status !== 0) throw new Error(`bench: ${file} ${args.slice(-4).join(' ')} failed (exit ${run.status ?? run.signal})`);
    times[side].push(Number(process.hrtime.bigint() - t0) / 1e6);
  };
  for (let i = 0; i < 10; i += 1) {
    time('remote', program, argv);
    time('local', 'tmux', ['-L', localSocket, 'display', '-p', '#{pid}']);
  }
  return { local: quantile(times.local, 0.5), remote: quantile(times.remote, 0.5) };
}

/** End a swarm: its engine (SIGTERM: swarm ends its shared connection on the way out), its tmux servers here and on box. */
async function end(s, child) {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await Promise.race([new Promise((r) => child.once('exit', r)), sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const socket of [s.socket, `${s.socket}-${HOST}`]) {
    const pid = tmuxPid(socket);
    spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    await waitFor(() => pid === null || !alive(pid), 10_000, `tmux server ${socket} gone`);
    rmSync(join(TMUX_DIR, socket), { force: true }); // tmux 3.3 leaves its socket file behind
  }
}

/** One swarm, a lane here and one on box, each handing off once: both lanes' turnaround and its parts. */
async function handoffRun(i) {
  const first = i % 2 === 0 ? 'local' : 'remote';
  const lanes = [
    { name: 'lane-l', remote: false },
    { name: 'lane-r', remote: true },
  ].map((lane) => ({
    ...lane,
    agent: {
      AGENT_G1: 'ready,wait,handoff', AGENT_G2: 'done',
      [`AGENT_WAIT_MS_${lane.name.replace(/-/g, '_')}`]: String(HANDOFF_AT_MS[(lane.remote ? 'remote' : 'local') === first ? 0 : 1]),
    },
  }));
  const s = makeHostSwarm(`hand${i}`, lanes);
  controlOf(s.plan); // its shared connection: checked at the end, as every one swarm should have closed
  const child = s.up(['--timeout', '90s'], 'pipe');
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => void (output += chunk));
  try {
    const code = await new Promise((r) => child.on('exit', r));
    if (code !== 0) {
      const told = journalOf(s).map((e) => [e.event, e.lane, e.generation, e.reason ?? e.why ?? e.error ?? ''].join(' ').trim());
      throw new Error(`bench: the handoff swarm ended with exit ${code}; its journal: ${told.join(' | ')}; its last lines: ${output.trim().split('\n').slice(-8).join(' | ')}`);
    }
    const journal = journalOf(s);
    const at = (event, lane) => Date.parse(journal.find((e) => e.event === event && e.lane === lane)?.ts);
    const row = (lane, remote) => {
      const spool = join(s.plan, '.swarm', 'spool', 'r1', `${lane}-g1`, 'records.jsonl');
      const report = lines(readFileSync(spool, 'utf8')).map((l) => JSON.parse(l)).find((r) => r.kind === 'message' && r.text.startsWith('handoff '));
      const started = s.agentLog(remote).find(([, who, action]) => who === `${lane} g2` && action === 'started')?.[0];
      if (report === undefined || started === undefined) throw new Error(`bench: ${lane}'s handoff report or its successor's first line is missing`);
      const sent = Date.parse(report.ts);
      const [read, spawned] = [at('handoff_reported', lane), at('successor_spawned', lane)];
      return { ms: started - sent, toEngine: read - sent, toSpawn: spawned - read, toAgent: started - spawned };
    };
    return { first, local: row('lane-l', false), remote: row('lane-r', true) };
  } finally {
    await end(s, child);
  }
}

/** Both engines over one window: 8 streaming lanes on box for one, 8 here for the other. */
async function streamingPair() {
  const agent = { AGENT_G1: 'ready,stream' };
  const remote = makeHostSwarm('streamr', lanesOf('lane-r', STREAMERS).map((name) => ({ name, remote: true, agent })));
  const local = makeHostSwarm('streaml', lanesOf('lane-l', STREAMERS).map((name) => ({ name, remote: false, agent })));
  const children = { remote: remote.up(), local: local.up() };
  const streaming = (s, isRemote) => s.agentLog(isRemote).filter(([, , action]) => action === 'stream').length >= STREAMERS;
  try {
    await waitFor(() => streaming(local, false), 60_000, `${STREAMERS} streaming lanes here`);
    // Over ssh, each look is a handshake: look once a second.
    for (const deadline = Date.now() + 60_000; !streaming(remote, true);) {
      if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${STREAMERS} streaming lanes on ${HOST}`);
      await sleep(1000);
    }
    await sleep(WARM_S * 1000);
    const servers = { local: tmuxPid(local.socket), remote: tmuxPid(`${remote.socket}-${HOST}`) };
    const ns = (pid) => (pid === null ? 0 : onCpuNs(pid));
    const t0 = { local: ns(children.local.pid), remote: ns(children.remote.pid), localTmux: ns(servers.local), remoteTmux: ns(servers.remote) };
    // Each connection process's ns when first seen in the window (0 for one that started in it) and last seen.
    const seen = { client: new Map(), host: new Map() };
    const control = controlOf(remote.plan);
    const master = masterPid(control);
    const sample = (started) => {
      const found = connectionProcesses(master, control);
      for (const side of ['client', 'host']) {
        for (const pid of found[side]) {
          let now;
          try {
            now = onCpuNs(pid);
          } catch {
            continue; // gone meanwhile
          }
          const known = seen[side].get(pid);
          seen[side].set(pid, { from: known?.from ?? (started ? 0 : now), to: now });
        }
      }
    };
    sample(false);
    const started = Date.now();
    while (Date.now() - started < WINDOW_S * 1000) {
      await sleep(Math.min(1000, started + WINDOW_S * 1000 - Date.now()));
      sample(true);
    }
    const seconds = (Date.now() - started) / 1000;
    const t1 = { local: ns(children.local.pid), remote: ns(children.remote.pid), localTmux: ns(servers.local), remoteTmux: ns(servers.remote) };
    const pct = (value) => (100 * value) / 1e9 / seconds;
    const sum = (side) => [...seen[side].values()].reduce((n, p) => n + p.to - p.from, 0);
    return {
      seconds, commandMs: commandMs(local.socket, `${remote.socket}-${HOST}`, control),
      remote: { engine: pct(t1.remote - t0.remote), tmux: pct(t1.remoteTmux - t0.remoteTmux), ssh: pct(sum('client')), sshProcesses: seen.client.size, hostSide: pct(sum('host')), hostProcesses: seen.host.size },
      local: { engine: pct(t1.local - t0.local), tmux: pct(t1.localTmux - t0.localTmux) },
    };
  } finally {
    await end(remote, children.remote);
    await end(local, children.local);
  }
}

/** What of ours is left once all is ended: processes of the sshd's or of our swarms, ssh to its port, our tmux sockets. */
function leftovers() {
  const temp = dirname(sshd.privateDir);
  const ours = [...processes()].filter(([, p]) => {
    const line = p.argv.join(' ');
    return line.includes(`swarm-bench-${process.pid}-`) || line.includes(temp) || (p.argv[0]?.startsWith('ssh') && line.includes(String(sshd.port)));
  }).map(([pid, p]) => `${pid} ${p.argv.join(' ').slice(0, 100)}`);
  const files = existsSync(TMUX_DIR) ? readdirSync(TMUX_DIR).filter((name) => name.startsWith(`swarm-bench-${process.pid}-`)).map((name) => `tmux socket ${name}`) : [];
  return [...ours, ...files];
}

const handoffs = [];
let pair = null;
try {
  // The host's own swarm: this build, on the PATH of its ssh sessions.
  const bin = join(sshd.privateDir, 'bin');
  there(`mkdir -p ${q(bin)} && printf '#!/bin/sh\\nexec %s %s "$@"\\n' ${q(process.execPath)} ${q(CLI)} > ${q(join(bin, 'swarm'))} && chmod +x ${q(join(bin, 'swarm'))}`);
  for (let i = 0; i < RUNS; i += 1) handoffs.push(await handoffRun(i));
  pair = await streamingPair();
} finally {
  // swarm ends its shared connection as it exits (`ssh -O exit`): one still there is reported below, and ended.
  await sleep(500);
  const masters = [...CONTROLS].map((control) => [control, masterPid(control)]).filter(([, pid]) => pid !== null);
  pair = pair === null ? null : { ...pair, master: masters.length > 0 ? masters[0][1] : null };
  for (const [control] of masters) spawnSync('ssh', ['-o', `ControlPath=${control}`, '-p', String(sshd.port), '-O', 'exit', '--', sshd.host.ssh], { stdio: 'ignore', timeout: 5000 });
  await sshd.stop();
}
const left = leftovers();

const p50 = (side, key = 'ms') => quantile(handoffs.map((r) => r[side][key]), 0.5);
const ratio = p50('remote') / p50('local');
const parts = (side) => ({ to_engine: p50(side, 'toEngine'), to_spawn: p50(side, 'toSpawn'), to_agent: p50(side, 'toAgent') });
result('hosts_handoff', {
  runs: RUNS, local_ms: handoffs.map((r) => r.local.ms), remote_ms: handoffs.map((r) => r.remote.ms),
  local_p50_ms: p50('local'), remote_p50_ms: p50('remote'), ratio, parts_p50_ms: { local: parts('local'), remote: parts('remote') },
  tmux_command_p50_ms: pair.commandMs, targets: { ratio: 2 },
});
result('hosts_streaming_cpu', {
  lanes: STREAMERS, hz: 12, window_s: pair.seconds, warm_s: WARM_S,
  engine_remote_pct: pair.remote.engine, engine_local_pct: pair.local.engine, ratio: pair.remote.engine / pair.local.engine,
  ssh_pct: pair.remote.ssh, ssh_processes: pair.remote.sshProcesses, host_sshd_pct: pair.remote.hostSide, host_sshd_processes: pair.remote.hostProcesses,
  tmux_remote_pct: pair.remote.tmux, tmux_local_pct: pair.local.tmux, master_left: pair.master !== null, left_over: left,
});
const ms = (r) => `${String(r.ms).padStart(5)}  (${r.toEngine} + ${r.toSpawn} + ${r.toAgent})`.padEnd(28);
const f = (v) => v.toFixed(2).padStart(6);
console.log(`\nlanes on another host (a real sshd on 127.0.0.1 in a mount namespace of its own), node ${process.version}   load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(`handoff report's record → successor's agent running, ms (→ engine read it + spawned + agent's first line), ${RUNS} swarms of a lane here and one on ${HOST} (target remote p50 ≤ 2× local)`);
console.log(`run  first   here                         on ${HOST}`);
handoffs.forEach((r, i) => console.log(`${String(i + 1).padStart(3)}  ${r.first.padEnd(6)}  ${ms(r.local)} ${ms(r.remote)}`));
console.log(`p50          ${ms({ ms: p50('local'), toEngine: p50('local', 'toEngine'), toSpawn: p50('local', 'toSpawn'), toAgent: p50('local', 'toAgent') })} ${ms({ ms: p50('remote'), toEngine: p50('remote', 'toEngine'), toSpawn: p50('remote', 'toSpawn'), toAgent: p50('remote', 'toAgent') })}  remote / local ${ratio.toFixed(2)}×`);
console.log(`one tmux command, spawn → exit, p50: here ${pair.commandMs.local.toFixed(1)} ms, on ${HOST} as a session of swarm's shared ssh connection ${pair.commandMs.remote.toFixed(1)} ms (swarm sends them through its host relay instead)`);
console.log(`\n${STREAMERS} lanes streaming 12×/s on ${HOST}, ${STREAMERS} here, two swarms side by side: % of one core over ${pair.seconds.toFixed(1)} s, ${WARM_S} s after all stream`);
console.log(`          engine   tmux server   ssh (swarm's connection)   on ${HOST}: sshd's sessions, relay, tmux clients`);
console.log(`on ${HOST}    ${f(pair.remote.engine)}        ${f(pair.remote.tmux)}      ${f(pair.remote.ssh)} (${pair.remote.sshProcesses} processes)         ${f(pair.remote.hostSide)} (${pair.remote.hostProcesses} processes)`);
console.log(`here      ${f(pair.local.engine)}        ${f(pair.local.tmux)}`);
console.log(`engine remote / local ${(pair.remote.engine / pair.local.engine).toFixed(2)}×   shared connection left by swarm: ${pair.master === null ? 'no' : `YES (pid ${pair.master}, ended)`}   left over: ${left.length === 0 ? 'nothing' : left.join('; ')}`);
