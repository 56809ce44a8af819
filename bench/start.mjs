#!/usr/bin/env node
// npm run bench (part: starting, issue 12 §6), on private tmux sockets:
//  1. time to start 32 and 64 lanes: `swarm up --headless` spawned → every lane's agent started (the
//     scripted agents' own log stamps, tests/fixtures/agents/lane.mjs); the first lane's start too;
//  2. `swarm up` to the dashboard's first frame (target ≤ 1 s): `swarm up` run as a person runs it, in
//     a 120×40 pane of another private tmux server (its terminal), with BENCH_FRAME_LANES (default 16)
//     lanes; the pane's shell stamps the time just before it execs `swarm up`, then window 0 of the
//     swarm's session (`tmux capture-pane`, every 20 ms) is polled for the dashboard's header
//     (`swarm <name> · plan `) — and the terminal's own pane for the same text, what the person sees.
// BENCH_START_LANES="32,64" and BENCH_FRAME_RUNS (default 3) change the sizes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
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

/** One `swarm up` on a terminal: ms from its exec to the header in window 0, and in the terminal. */
async function firstFrame(run) {
  const name = `frame${run}`;
  const s = makeSwarm(name, lanesOf(FRAME_LANES), { AGENT_G1: 'ready' });
  const terminal = `${s.socket}-term`;
  const stamp = join(s.dir, 'spawned');
  const env = { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  const header = new RegExp(`swarm ${name} · plan `);
  let engine = null;
  try {
    const command = `date +%s%3N >'${stamp}'; exec '${process.execPath}' '${CLI}' up swarm.yaml`;
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
    return { window0_ms: window0 - spawned, terminal_ms: seen - spawned, lanes_started: starts.length, last_lane_ms: starts.length > 0 ? Math.max(...starts) : null };
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

const frames = [];
for (let run = 1; run <= FRAME_RUNS; run += 1) frames.push({ ...(await firstFrame(run)), load: loadavg()[0] });
const w = frames.map((f) => f.window0_ms);
const t = frames.map((f) => f.terminal_ms);
result('first_frame', { lanes: FRAME_LANES, runs: frames, window0_p50_ms: quantile(w, 0.5), terminal_p50_ms: quantile(t, 0.5), target_ms: FRAME_TARGET_MS });
console.log(`swarm up on a terminal → first dashboard frame, ${FRAME_LANES} lanes, ${FRAME_RUNS} runs: in window 0 ${w.join(', ')} ms (p50 ${quantile(w, 0.5)}), ` +
  `on the terminal ${t.join(', ')} ms (p50 ${quantile(t, 0.5)}) (target ≤ ${FRAME_TARGET_MS} ms${quantile(t, 0.5) > FRAME_TARGET_MS ? ': MISSED' : ''}; load ${frames.map((f) => f.load.toFixed(1)).join(', ')}); ` +
  `lanes' agents started by then: ${frames.map((f) => `${f.lanes_started}, the last at ${f.last_lane_ms} ms`).join('; ')}`);
