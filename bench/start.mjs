#!/usr/bin/env node
// npm run bench (part: starting, issue 12 §6), on private tmux sockets:
//  1. time to start 32 and 64 lanes: `swarm up --headless` spawned → every lane's agent started (the
//     scripted agents' own log stamps, tests/fixtures/agents/lane.mjs); the first lane's start too;
//  2. `swarm up` to the dashboard's first frame (target ≤ 1 s): `swarm up` run as a person runs it (the
//     `swarm` program: bin/swarm.cjs run itself, as npm links it), in a 120×40 pane of another private
//     tmux server (its terminal), with BENCH_FRAME_LANES (default 16) lanes; the pane's shell stamps
//     the time just before it execs `swarm up`, then window 0 of the swarm's session (`tmux
//     capture-pane`, every 20 ms) is polled for the dashboard's header (`swarm <name> · plan `) — and
//     the terminal's own pane for the same text, what the person sees;
//  3. the memory of that `swarm up` on a terminal, once every lane's agent started: VmRSS summed over
//     the processes on the person's terminal (the pane's process and its descendants: what waits behind
//     the tmux client, and the client) and over window 0's (its restart loop and the engine), side by
//     side for the two ways it is launched: `swarm` (its shell runs `tmux attach`, no node behind it) and
//     `node bin/swarm.cjs` (node runs the client and waits behind it, as every `swarm up` did before).
// BENCH_START_LANES="32,64" and BENCH_FRAME_RUNS (default 3) change the sizes; BENCH_START_LANES= and
// BENCH_FRAME_RUNS=0 run part 3 alone.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { CLI, cleanup, makeSwarm, quantile, result, sleep, waitFor } from './lib.mjs';

const SIZES = (process.env.BENCH_START_LANES ?? '32,64').split(',').filter(Boolean).map(Number);
const FRAME_LANES = Number(process.env.BENCH_FRAME_LANES ?? 16);
const FRAME_RUNS = Number(process.env.BENCH_FRAME_RUNS ?? 3);
const FRAME_TARGET_MS = 1000;

const lanesOf = (n) => Array.from({ length: n }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);
const readLog = (s) => (existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '');

/** ms from `swarm up --headless` spawned to the first and to the last of `n` lane agents started. */
async function startLanes(n) {
  const s = makeSwarm(`start${n}`, lanesOf(n), { AGENT_G1: 'ready' });
  const spawned = Date.now();
  const child = spawn(process.execPath, [CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  try {
    const starts = () => [...readLog(s).matchAll(/^(\d+) lane-\d+ g1 started$/gm)].map((m) => Number(m[1]));
    await waitFor(() => starts().length >= n, 180_000, `${n} lanes started`);
    const at = starts();
    return { lanes: n, first_ms: Math.min(...at) - spawned, all_ms: Math.max(...at) - spawned };
  } finally {
    cleanup(s, child);
  }
}

const capture = (socket, target) => {
  const out = spawnSync('tmux', ['-L', socket, 'capture-pane', '-p', '-t', target], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout : '';
};

/** Every process's parent, now. */
function parents() {
  const parent = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return parent;
}

/** `root` and its descendants: pid, program and VmRSS in kB (0 for one gone meanwhile). */
function processTree(root) {
  const parent = parents();
  const pids = [root];
  for (let i = 0; i < pids.length; i += 1) for (const [pid, ppid] of parent) if (ppid === pids[i]) pids.push(pid);
  return pids.map((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      let name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
      try {
        name = basename(realpathSync(`/proc/${pid}/exe`));
      } catch {
        // its Name (the script's, for a script)
      }
      return { pid, name, rssKb: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) };
    } catch {
      return { pid, name: '?', rssKb: 0 };
    }
  });
}

const panePid = (socket, target) => Number(spawnSync('tmux', ['-L', socket, 'display-message', '-p', '-t', target, '#{pane_pid}'], { encoding: 'utf8' }).stdout.trim());

/**
 * Once every lane's agent started and 3 s more: the most RSS of the terminal's processes and of window
 * 0's over 10 samples 300 ms apart, in MB, and the terminal's processes (program and MB) at its most.
 */
async function memory(s, terminal, session) {
  await waitFor(() => [...readLog(s).matchAll(/^\d+ lane-\d+ g1 started$/gm)].length >= FRAME_LANES, 60_000, `${FRAME_LANES} lanes' agents started`);
  await sleep(3000);
  const mb = (tree) => tree.reduce((sum, p) => sum + p.rssKb, 0) / 1024;
  let onTerminal = 0;
  let window0 = 0;
  let names = [];
  for (let i = 0; i < 10; i += 1) {
    const term = processTree(panePid(terminal, 'term'));
    if (mb(term) > onTerminal) names = term.map((p) => `${p.name} ${(p.rssKb / 1024).toFixed(1)}`);
    onTerminal = Math.max(onTerminal, mb(term));
    window0 = Math.max(window0, mb(processTree(panePid(s.socket, `${session}:swarm`))));
    await sleep(300);
  }
  return { terminal_mb: Number(onTerminal.toFixed(1)), window0_mb: Number(window0.toFixed(1)), total_mb: Number((onTerminal + window0).toFixed(1)), terminal_processes: names };
}

/**
 * One `swarm up` on a terminal: ms from its exec to the header in window 0, and in the terminal;
 * `launcher` how it is run (`swarm`: bin/swarm.cjs as a program; `node`: `node bin/swarm.cjs`); with
 * `rss`, then its memory (`memory`).
 */
async function firstFrame(run, { launcher = 'swarm', rss = false } = {}) {
  const name = `frame${run}${launcher === 'swarm' ? '' : launcher}`;
  const s = makeSwarm(name, lanesOf(FRAME_LANES), { AGENT_G1: 'ready' });
  const terminal = `${s.socket}-term`;
  const stamp = join(s.dir, 'spawned');
  const env = { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  const header = new RegExp(`swarm ${name} · plan `);
  let engine = null;
  try {
    const swarm = launcher === 'swarm' ? `'${CLI}'` : `'${process.execPath}' '${CLI}'`;
    const command = `date +%s%3N >'${stamp}'; exec ${swarm} up swarm.yaml`;
    spawnSync('tmux', ['-L', terminal, 'new-session', '-d', '-s', 'term', '-x', '120', '-y', '40', '-c', s.repo, 'sh', '-c', command], { env, stdio: 'ignore' });
    let window0 = null;
    let seen = null;
    const deadline = Date.now() + 30_000;
    while (window0 === null || seen === null) {
      if (Date.now() > deadline) throw new Error(`bench: no dashboard header within 30 s (window 0: ${window0 ?? 'none'}, terminal: ${seen ?? 'none'})`);
      if (window0 === null && header.test(capture(s.socket, `swarm-${name}:swarm`))) window0 = Date.now();
      if (seen === null && header.test(capture(terminal, 'term'))) seen = Date.now();
      await sleep(20);
    }
    const spawned = Number(readFileSync(stamp, 'utf8').trim());
    engine = JSON.parse(readFileSync(join(s.plan, '.swarm', 'lock'), 'utf8')).pid;
    // For reading the figure: when the lanes' agents started, on the same clock.
    const starts = [...readLog(s).matchAll(/^(\d+) lane-\d+ g1 started$/gm)].map((m) => Number(m[1]) - spawned);
    const frame = { window0_ms: window0 - spawned, terminal_ms: seen - spawned, lanes_started: starts.length, last_lane_ms: starts.length > 0 ? Math.max(...starts) : null };
    return rss ? { ...frame, launcher, ...(await memory(s, terminal, `swarm-${name}`)) } : frame;
  } finally {
    spawnSync('tmux', ['-L', terminal, 'kill-server'], { stdio: 'ignore' });
    spawnSync('tmux', ['-L', s.socket, 'kill-server'], { stdio: 'ignore' });
    const gone = () => { try { process.kill(engine, 0); return false; } catch { return true; } };
    for (let i = 0; engine !== null && !gone() && i < 50; i += 1) await sleep(100);
    cleanup(s, null);
  }
}

const rows = [];
for (const n of SIZES) {
  const load = loadavg()[0];
  const r = { ...(await startLanes(n)), load };
  rows.push(r);
  console.log(`start ${n} lanes (swarm up --headless spawned → agent started): first lane ${r.first_ms} ms, every lane ${r.all_ms} ms (load ${load.toFixed(1)} on ${cpus().length} cores)`);
}
result('lane_start', { rows });

if (FRAME_RUNS > 0) {
  const frames = [];
  for (let run = 1; run <= FRAME_RUNS; run += 1) frames.push({ ...(await firstFrame(run)), load: loadavg()[0] });
  const w = frames.map((f) => f.window0_ms);
  const t = frames.map((f) => f.terminal_ms);
  result('first_frame', { lanes: FRAME_LANES, runs: frames, window0_p50_ms: quantile(w, 0.5), terminal_p50_ms: quantile(t, 0.5), target_ms: FRAME_TARGET_MS });
  console.log(`swarm up on a terminal → first dashboard frame, ${FRAME_LANES} lanes, ${FRAME_RUNS} runs: in window 0 ${w.join(', ')} ms (p50 ${quantile(w, 0.5)}), ` +
    `on the terminal ${t.join(', ')} ms (p50 ${quantile(t, 0.5)}) (target ≤ ${FRAME_TARGET_MS} ms${quantile(t, 0.5) > FRAME_TARGET_MS ? ': MISSED' : ''}; load ${frames.map((f) => f.load.toFixed(1)).join(', ')}); ` +
    `lanes' agents started by then: ${frames.map((f) => `${f.lanes_started}, the last at ${f.last_lane_ms} ms`).join('; ')}`);
}

const memories = [];
for (const launcher of ['swarm', 'node']) memories.push(await firstFrame(FRAME_RUNS + 1, { launcher, rss: true }));
result('terminal_rss', { lanes: FRAME_LANES, runs: memories.map(({ launcher, terminal_mb, window0_mb, total_mb, terminal_processes }) => ({ launcher, terminal_mb, window0_mb, total_mb, terminal_processes })) });
for (const m of memories) {
  console.log(`swarm up on a terminal, ${FRAME_LANES} lanes, launched as ${m.launcher === 'swarm' ? '`swarm`' : '`node bin/swarm.cjs`'}: RSS ${m.total_mb} MB = ` +
    `window 0 ${m.window0_mb} MB + the terminal ${m.terminal_mb} MB (${m.terminal_processes.join(' MB, ')} MB) (load ${loadavg()[0].toFixed(1)})`);
}
