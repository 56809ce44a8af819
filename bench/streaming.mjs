#!/usr/bin/env node
// npm run bench (part: agents that never stop drawing) — lanes whose agents redraw 12 times a second, as
// a working coding agent does, on a private tmux socket: 4, 16 and 64 of them (BENCH_STREAM_LANES), each
// redraw one status line or a Claude-Code-sized frame of 20 coloured lines (BENCH_STREAM_ROWS="1,20",
// the agents' AGENT_STREAM_ROWS; 64 lanes of 20 rows print ~1.1 MB/s), one swarm after another in one run:
//  1. the engine's CPU and the tmux server's while they stream (ns on a CPU, /proc/<pid>/task/*/schedstat),
//     over BENCH_STREAM_S (default 10) seconds, BENCH_STREAM_WARM_S (default 10) after every lane streams;
//  2. then half the lanes (at most 16) stop on a permission screen, 750 ms apart, and go quiet: the time
//     from the screen drawn to swarm's escalation, p50 / p95 / max. The last few do so in a successor's
//     pane (g2: their first agent hands off at once), which must be seen like a first agent's.
// Targets: at 64 lanes screen → blocked p50 ≤ 300 ms and p95 ≤ 600 ms with the engine ≤ 2 % of a core;
// at 16 lanes of one status line the engine ≤ 1 %. With 64 lanes, a second window BENCH_STREAM_STEADY_S
// (default 60; 0: none; for fewer lanes, default none) after they stream: V8 compiles the hot paths in
// the first minute, so this is what agents streaming for hours cost. BENCH_STREAM_FLOOR (default 1; 0:
// none): the tmux server's CPU with the same panes and nothing watching them, first (what swarm adds).
// "drawn": the redraws a second the dialog lanes' agents got out over their life, of 12: fewer when
// tmux, its writes to swarm blocked, stopped reading their panes.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT, CLI, cleanup, makeSwarm, onCpuNs, quantile, result, sleep, waitFor } from './lib.mjs';

const WINDOW_S = Number(process.env.BENCH_STREAM_S ?? 10);
const WARM_S = Number(process.env.BENCH_STREAM_WARM_S ?? 10);
/** The steady window's start for `n` lanes (0: none). */
const steadyS = (n) => Number(process.env.BENCH_STREAM_STEADY_S ?? (n >= 64 ? 60 : 0));
const FLOOR = process.env.BENCH_STREAM_FLOOR !== '0';
const SIZES = (process.env.BENCH_STREAM_LANES ?? '4,16,64').split(',').map(Number);
const ROWS = (process.env.BENCH_STREAM_ROWS ?? '1,20').split(',').map(Number);
/** How many lanes draw a dialog (half, at most 16), and how many of those, the last, in a successor's pane. */
const blockersOf = (n) => Math.max(1, Math.min(16, Math.floor(n / 2)));
const successorsOf = (blockers) => Math.min(3, Math.floor(blockers / 2));
const STAGGER_MS = 750;
// BENCH_STREAM_NODE_ARGS: extra node flags for the engine, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it
// (the engine is then stopped with SIGTERM, so it writes the profile), or `--perf-basic-prof` for perf.
const NODE_ARGS = (process.env.BENCH_STREAM_NODE_ARGS ?? '').split(' ').filter(Boolean);

// A kind of our own: command lanes with Claude Code's permission screen, so a screen blocks them.
const STREAMER = [
  'kind: streamer', 'seen_in: null', 'launch: null', 'account_env: null', 'idle: null',
  'screens:', '  permission:', "    - 'do you want to proceed\\?'", '',
].join('\n');

/** % of one core, from ns on a CPU over `seconds`. */
const pct = (ns, seconds) => (100 * ns) / 1e9 / seconds;
const lanesOf = (n) => Array.from({ length: n }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);

/** The tmux server's CPU with `n` streaming panes of `rows` rows and nothing watching them. */
async function floor(n, rows) {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-floor-'));
  const socket = `swarm-bench-${process.pid}-floor${n}x${rows}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  try {
    const cmd = `env AGENT_G1=stream AGENT_STREAM_ROWS=${rows} SWARM_LANE=x ${process.execPath} ${AGENT}`;
    tmux('new-session', '-d', '-x', '200', '-y', '50', '-c', dir, cmd);
    for (let i = 1; i < n; i += 1) tmux('new-window', '-d', '-c', dir, cmd);
    await sleep(2000);
    const server = Number(tmux('display', '-p', '#{pid}'));
    const t0 = onCpuNs(server);
    await sleep(WINDOW_S * 1000);
    return pct(onCpuNs(server) - t0, WINDOW_S);
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `n` lanes of `rows` rows: the engine's and the tmux server's CPU while they stream, then the screen → escalation latencies. */
async function watched(n, rows) {
  const lanes = lanesOf(n);
  const blockers = lanes.slice(0, blockersOf(n));
  const successors = successorsOf(blockers.length);
  // The dialogs come once the windows are over: the lanes started up to a few seconds before the last (slack).
  const STEADY_S = steadyS(n);
  const dialogsS = Math.max(WARM_S, STEADY_S) + WINDOW_S + 2 + n / 8;
  const key = (lane) => lane.replace(/-/g, '_');
  const blockAt = Object.fromEntries(blockers.map((lane, i) => [`AGENT_BLOCK_MS_${key(lane)}`, String(dialogsS * 1000 + i * STAGGER_MS)]));
  const handOff = Object.fromEntries(blockers.slice(blockers.length - successors).map((lane) => [`AGENT_G1_${key(lane)}`, 'ready,handoff']));
  const agents = { AGENT_G1: 'ready,stream', AGENT_G2: 'stream', AGENT_STREAM_ROWS: String(rows), ...handOff, ...blockAt };
  const s = makeSwarm(`stream${n}x${rows}`, lanes, agents, `thresholds: { max_generations: 3 }`, { kind: 'streamer', panes: { streamer: STREAMER } });
  const child = spawn(process.execPath, [...NODE_ARGS, CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  const log = () => (existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '');
  try {
    await waitFor(() => (log().match(/ stream$/gm) ?? []).length >= n, 120_000, `${n} streaming lanes`);
    const streaming = Date.now();
    const server = Number(execFileSync('tmux', ['-L', s.socket, 'display', '-p', '#{pid}']).toString().trim());
    /** The engine's and the server's CPU over one window starting `fromS` after every lane streams. */
    const window = async (fromS) => {
      await sleep(Math.max(0, streaming + fromS * 1000 - Date.now()));
      const e0 = onCpuNs(child.pid);
      const s0 = onCpuNs(server);
      await sleep(WINDOW_S * 1000);
      return { enginePct: pct(onCpuNs(child.pid) - e0, WINDOW_S), serverPct: pct(onCpuNs(server) - s0, WINDOW_S) };
    };
    const first = await window(WARM_S);
    const steady = STEADY_S > 0 ? await window(STEADY_S) : null;
    const journal = () => readFileSync(join(s.plan, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const escalated = () => journal().filter((e) => e.event === 'escalation' && e.class === 'permission');
    const deadline = (dialogsS + blockers.length * STAGGER_MS / 1000 + 30) * 1000 - (Date.now() - streaming);
    await waitFor(() => escalated().length >= blockers.length, deadline, `${blockers.length} permission escalations (${successors} of them drawn by successors)`);
    const shown = new Map();
    for (const line of log().split('\n')) {
      const m = /^(\d+) (lane-\d+ g\d+) permission-shown$/.exec(line);
      if (m) shown.set(m[2], Number(m[1]));
    }
    // The redraws the dialog lanes' agents got out, a second, over their life: 12 unless tmux held their panes back.
    const fps = [];
    for (const line of log().split('\n')) {
      const m = /^lane-\d+ g\d+ frames (\d+) (\d+)$/.exec(line);
      if (m && Number(m[2]) > 0) fps.push((1000 * Number(m[1])) / Number(m[2]));
    }
    const latency = (e) => Date.parse(e.ts) - shown.get(`${e.lane} g${e.generation}`);
    const found = escalated();
    const ms = found.map(latency).filter((v) => Number.isFinite(v));
    return {
      ...first, engineSteadyPct: steady?.enginePct ?? null, serverSteadyPct: steady?.serverPct ?? null,
      drawnHz: fps.length > 0 ? quantile(fps, 0.5) : null, drawnMinHz: fps.length > 0 ? Math.min(...fps) : null,
      blockP50Ms: quantile(ms, 0.5), blockP95Ms: quantile(ms, 0.95), blockMaxMs: Math.max(...ms), blocks: ms.length,
      successorBlocks: found.filter((e) => e.generation === 2 && Number.isFinite(latency(e))).length, successors,
    };
  } finally {
    cleanup(s, child, NODE_ARGS.some((a) => a.startsWith('--cpu-prof')));
  }
}

const rows = [];
for (const r of ROWS) {
  for (const n of SIZES) {
    const serverFloorPct = FLOOR ? await floor(n, r) : null;
    rows.push({ lanes: n, rows: r, serverFloorPct, ...(await watched(n, r)) });
  }
}
result('streaming', {
  window_s: WINDOW_S, warm_s: WARM_S, steady_s: Object.fromEntries(SIZES.map((n) => [n, steadyS(n)])), hz: 12, rows,
  targets: { at_64_lanes: { block_p50_ms: 300, block_p95_ms: 600, engine_pct: 2 }, at_16_lanes_1_row: { engine_pct: 1 } },
});
const f = (v) => (v === null ? '      —' : v.toFixed(2).padStart(7));
const STEADY = Math.max(...SIZES.map(steadyS));
console.log(`\nlanes redrawing 12×/s, each redraw \`rows\` lines; % of one core over a ${WINDOW_S} s window ${WARM_S} s after they all stream${STEADY > 0 ? ` (steady: ${STEADY} s after, ${SIZES.filter((n) => steadyS(n) > 0).join(', ')} lanes)` : ''}`);
console.log('(targets: 64 lanes screen → blocked p50 ≤ 300 ms, p95 ≤ 600 ms, engine ≤ 2 %; 16 lanes of 1 row engine ≤ 1 %)');
console.log('(drawn: the redraws a second the dialog lanes\' agents got out, p50 / min, of 12: fewer when tmux held their panes back)');
console.log(`lanes  rows   engine     tmux  (floor)${STEADY > 0 ? '   steady: engine     tmux' : ''}   drawn Hz   screen → blocked p50 / p95 / max (dialogs seen, by g2)   load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
for (const r of rows) {
  const steady = STEADY > 0 ? `           ${f(r.engineSteadyPct)}  ${f(r.serverSteadyPct)}` : '';
  const hz = r.drawnHz === null ? '     —     ' : `${r.drawnHz.toFixed(1).padStart(5)} / ${r.drawnMinHz.toFixed(1).padStart(4)}`;
  console.log(`${String(r.lanes).padStart(5)}  ${String(r.rows).padStart(4)}  ${f(r.enginePct)}  ${f(r.serverPct)}  ${f(r.serverFloorPct)}${steady}   ${hz}   ${r.blockP50Ms} / ${r.blockP95Ms} / ${r.blockMaxMs} ms (${r.blocks}, ${r.successorBlocks}/${r.successors} by g2)`);
}
