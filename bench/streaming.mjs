#!/usr/bin/env node
// npm run bench (part: agents that never stop drawing, issue 12 §5) — lanes whose agents redraw a status
// line 12 times a second, as a working coding agent does, on a private tmux socket:
//  1. the tmux server's CPU with those panes and no watcher at all (the floor);
//  2. the same with swarm watching them: the engine's CPU, and what it adds to the tmux server's
//     (targets with 16 lanes: ≤ 1 % of a core each);
//  3. while they stream, lanes stop on a permission screen one by one and go quiet: the time from the
//     screen printed to swarm's escalation (target p50 ≤ 300 ms). Half of them do so in a successor's
//     pane (g2: their first agent hands off at once), which must be seen like a first agent's.
// 16 lanes, then 64 (BENCH_STREAM_LANES="16,64"); BENCH_STREAM_S (default 20) is each CPU window.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT, CLI, TICKS, cleanup, cpuTicks, makeSwarm, quantile, result, sleep, waitFor } from './lib.mjs';

const WINDOW_S = Number(process.env.BENCH_STREAM_S ?? 20);
// BENCH_STREAM_WARM_S (default 2): how long after every lane streams the first CPU window starts. The
// first minute holds the engine's JIT warm-up (V8 compiling the hot paths: the flood's in the first
// 20 s, the screen reads', taken every 2 s, between 30 and 60 s; --trace-opt), so a second window of
// the same length starts BENCH_STREAM_STEADY_S (default 90) after they stream: the steady state, what
// agents streaming for hours cost.
const WARM_S = Number(process.env.BENCH_STREAM_WARM_S ?? 2);
const STEADY_S = Math.max(WARM_S + WINDOW_S, Number(process.env.BENCH_STREAM_STEADY_S ?? 90));
const SIZES = (process.env.BENCH_STREAM_LANES ?? '16,64').split(',').map(Number);
const BLOCKERS = 6;
/** The last this many of the BLOCKERS hand off at once: their dialog is drawn by generation 2. */
const SUCCESSORS = 3;
// BENCH_STREAM_NODE_ARGS: extra node flags for the engine, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it
// (the engine is then stopped with SIGTERM, so it writes the profile), or `--perf-basic-prof` for perf.
const NODE_ARGS = (process.env.BENCH_STREAM_NODE_ARGS ?? '').split(' ').filter(Boolean);

// A kind of our own: command lanes with Claude Code's permission screen, so a screen blocks them.
const STREAMER = [
  'kind: streamer', 'seen_in: null', 'launch: null', 'account_env: null', 'idle: null',
  'screens:', '  permission:', "    - 'do you want to proceed\\?'", '',
].join('\n');

const pct = (ticks, seconds) => (100 * ticks) / TICKS / seconds;
const lanesOf = (n) => Array.from({ length: n }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);

/** The tmux server's CPU with `n` streaming panes and nothing watching them. */
async function floor(n) {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-floor-'));
  const socket = `swarm-bench-${process.pid}-floor${n}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  try {
    const cmd = `env AGENT_G1=stream SWARM_LANE=x ${process.execPath} ${AGENT}`;
    tmux('new-session', '-d', '-x', '200', '-y', '50', '-c', dir, cmd);
    for (let i = 1; i < n; i += 1) tmux('new-window', '-d', '-c', dir, cmd);
    await sleep(2000);
    const server = Number(tmux('display', '-p', '#{pid}'));
    const t0 = cpuTicks(server);
    await sleep(WINDOW_S * 1000);
    return pct(cpuTicks(server) - t0, WINDOW_S);
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The engine's and the tmux server's CPU while `n` lanes stream, then the screen → escalation latencies. */
async function watched(n) {
  const lanes = lanesOf(n);
  // Lanes 1..BLOCKERS stop on a permission screen after the CPU windows, a second and a half apart.
  const key = (lane) => lane.replace(/-/g, '_');
  const blockAt = Object.fromEntries(lanes.slice(0, BLOCKERS).map((lane, i) => [`AGENT_BLOCK_MS_${key(lane)}`, String((STEADY_S + WINDOW_S + 6 + i * 1.5) * 1000)]));
  const handOff = Object.fromEntries(lanes.slice(BLOCKERS - SUCCESSORS, BLOCKERS).map((lane) => [`AGENT_G1_${key(lane)}`, 'ready,handoff']));
  const agents = { AGENT_G1: 'ready,stream', AGENT_G2: 'stream', ...handOff, ...blockAt };
  const s = makeSwarm(`stream${n}`, lanes, agents, `thresholds: { max_generations: 3 }`, { kind: 'streamer', panes: { streamer: STREAMER } });
  const child = spawn(process.execPath, [...NODE_ARGS, CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  const log = () => (existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '');
  try {
    await waitFor(() => (log().match(/ stream$/gm) ?? []).length >= n, 120_000, `${n} streaming lanes`);
    const streaming = Date.now();
    const server = Number(execFileSync('tmux', ['-L', s.socket, 'display', '-p', '#{pid}']).toString().trim());
    /** The engine's and the server's CPU over one window starting `fromS` after every lane streams. */
    const window = async (fromS) => {
      await sleep(Math.max(0, streaming + fromS * 1000 - Date.now()));
      const e0 = cpuTicks(child.pid);
      const s0 = cpuTicks(server);
      await sleep(WINDOW_S * 1000);
      const ticks = cpuTicks(child.pid) - e0;
      return { ticks, enginePct: pct(ticks, WINDOW_S), serverPct: pct(cpuTicks(server) - s0, WINDOW_S) };
    };
    const first = await window(WARM_S);
    const steady = await window(STEADY_S);
    const journal = () => readFileSync(join(s.plan, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const escalated = () => journal().filter((e) => e.event === 'escalation' && e.class === 'permission');
    await waitFor(() => escalated().length >= BLOCKERS, (BLOCKERS * 1.5 + 30) * 1000, `${BLOCKERS} permission escalations (${SUCCESSORS} of them drawn by successors)`);
    const shown = new Map();
    for (const line of log().split('\n')) {
      const m = /^(\d+) (lane-\d+ g\d+) permission-shown$/.exec(line);
      if (m) shown.set(m[2], Number(m[1]));
    }
    const latency = (e) => Date.parse(e.ts) - shown.get(`${e.lane} g${e.generation}`);
    const found = escalated();
    const ms = found.map(latency).filter((v) => Number.isFinite(v));
    const successors = found.filter((e) => e.generation === 2).map(latency).filter((v) => Number.isFinite(v));
    return {
      enginePct: first.enginePct, engineCpuS: first.ticks / TICKS, serverPct: first.serverPct, engineSteadyPct: steady.enginePct, serverSteadyPct: steady.serverPct,
      blockP50: quantile(ms, 0.5), blockMax: Math.max(...ms), blocks: ms.length, successorBlocks: successors.length, successorBlockMax: Math.max(...successors),
    };
  } finally {
    cleanup(s, child, NODE_ARGS.some((a) => a.startsWith('--cpu-prof')));
  }
}

export async function streaming() {
  const rows = [];
  for (const n of SIZES) {
    const base = await floor(n);
    const w = await watched(n);
    rows.push({ lanes: n, serverFloorPct: base, enginePct: w.enginePct, engineCpuS: w.engineCpuS, serverAddedPct: w.serverPct - base, engineSteadyPct: w.engineSteadyPct, serverAddedSteadyPct: w.serverSteadyPct - base, blockP50Ms: w.blockP50, blockMaxMs: w.blockMax, blocks: w.blocks, successorBlocks: w.successorBlocks, successorBlockMaxMs: w.successorBlockMax });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await streaming();
  result('streaming', { window_s: WINDOW_S, warm_s: WARM_S, steady_s: STEADY_S, hz: 12, rows, targets: { lanes: 16, engine_pct: 1, tmux_added_pct: 1, block_p50_ms: 300 } });
  {
    const f = (v) => v.toFixed(2).padStart(7);
    console.log(`\nlanes redrawing a status line 12×/s, % of one core over ${WINDOW_S} s windows ${WARM_S} s and ${STEADY_S} s after they start (targets at 16: engine ≤ 1, tmux added ≤ 1, screen → blocked p50 ≤ 300 ms)`);
    console.log(`lanes   engine (CPU s)  tmux added  (tmux floor)   steady: engine  tmux added   screen→blocked p50 / max (blocks, by g2: max)   load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
    for (const r of rows) console.log(`${String(r.lanes).padStart(5)}  ${f(r.enginePct)} (${r.engineCpuS.toFixed(2)})   ${f(r.serverAddedPct)}     (${f(r.serverFloorPct)})        ${f(r.engineSteadyPct)}   ${f(r.serverAddedSteadyPct)}      ${r.blockP50Ms} / ${r.blockMaxMs} ms (${r.blocks}, ${r.successorBlocks}/${SUCCESSORS} by g2: ${r.successorBlockMaxMs} ms)`);
  }
}
