#!/usr/bin/env node
// npm run bench (part 3) — the dashboard, in absolute figures (the targets are absolute):
//  1. frame render time with 64 lanes: a new frame → React → Ink → written, at 120×40 (the lanes
//     scroll) and 200×80 (all 64 in view), for two kinds of frame: every lane changed (the worst
//     case) and one lane's report plus the clock (what a running swarm mostly draws); mean, p50,
//     p95 (target ≤ 5 ms). The frames are drawn, in turns of 20, by the dashboard's output stage
//     (ui/inkOutput.ts) and by Ink's own, side by side in one run, so their ratio is not noise;
//     Then the dashboard's heap over 10,000 such frames (what it keeps per frame);
//  2. memory of the engine with 64 lanes: the real window-0 process (`swarm up --dashboard`, engine
//     and dashboard together) on a private tmux socket, 64 lanes that report once and then idle;
//     VmRSS once every lane has reported, and VmHWM, its peak (target ≤ 120 MB RSS).
// BENCH_FRAMES (default 400) and BENCH_LANES (default 64) change the sizes; BENCH_ONLY=render|memory
// runs one part. Absolute figures depend on the machine: its speed is printed first for scale.
import { EventEmitter } from 'node:events';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { result } = await import('./lib.mjs');
const CLI = join(ROOT, 'dist', 'cli.js');
const FRAMES = Number(process.env.BENCH_FRAMES ?? 400);
const LANES = Number(process.env.BENCH_LANES ?? 64);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

// ---- 1. frame render time -------------------------------------------------------------------
// As the dashboard loads them (runtime/dashboard/dashboard.ts): React's and Ink's production builds.
process.env.NODE_ENV ??= 'production';
const { createElement } = await import('react');
const { render } = await import('ink');
const { createStore } = await import('zustand/vanilla');
const { App } = await import(join(ROOT, 'dist', 'ui', 'App.js'));
const { installFastOutput, inkOutput, drawn } = await import(join(ROOT, 'dist', 'ui', 'inkOutput.js'));

class Screen extends EventEmitter {
  constructor(columns, rows) {
    super();
    this.columns = columns;
    this.rows = rows;
    this.isTTY = false;
    this.waiter = null;
  }
  write(text) {
    this.last = text;
    const w = this.waiter;
    this.waiter = null;
    w?.();
    return true;
  }
}

function laneView(i, tick) {
  const now = Date.now();
  const phases = [null, 'near', 'writing', 'reported', 'spawning', 'accepted'];
  return {
    lane: {
      name: `lane-${String(i).padStart(2, '0')}`, role: 'lane', generation: 1 + (tick % 3), account: `x${i}`, paneId: `%${i + 10}`,
      state: i % 9 === 0 ? 'blocked' : 'working', phase: phases[(i + tick) % phases.length], phaseSince: now - 1000 * ((i + tick) % 90),
      blocked: i % 9 === 0 ? { class: 'permission', what: 'Bash command: Do you want to proceed?', source: 'screen' } : null,
      capacity: `capacity=${['ok', 'low', 'critical'][(i + tick) % 3]} ${(i * 7 + tick) % 100}% @x${i} context=${(i + tick) % 100}%`,
      capacityState: ['ok', 'low', 'critical'][(i + tick) % 3], remainingPct: (i * 7 + tick) % 100, contextPct: (i + tick) % 100,
      last: `PR open https://example.com/pr/${i}?tick=${tick}`, startedAt: now - 60_000, lastActivity: now,
      quickExits: 0, nearGeneration: null, stallNudged: false, gatePending: false, handoff: null,
    },
    vendor: i % 2 ? 'openai' : 'anthropic',
    task: `task ${i}`,
  };
}

const events = (now, tick) => Array.from({ length: 50 }, (_, i) => ({
  ts: new Date(now - 1000 * (50 - i)).toISOString(), type: 'observation', event: 'capacity_verdict',
  lane: `lane-${String((i + tick) % LANES).padStart(2, '0')}`, generation: 1, epoch: 1, decision: 'continue', state: 'ok',
}));

/** Every lane changed since the last frame. */
function everyLane(tick) {
  const now = Date.now();
  return {
    now,
    view: {
      name: 'bench', plan: '/repo/plans/bench', session: 'swarm-bench', backend: 'tmux', startedAt: now - 3_600_000,
      lead: { name: 'lead', epoch: 1, account: 'a1', state: 'working' },
      lanes: Array.from({ length: LANES }, (_, i) => laneView(i, tick)), events: events(now, tick), outcome: null,
    },
  };
}

/** The last frame with one lane's report changed, one event more, and the clock a second on. */
function oneLane(previous, tick) {
  const now = previous.now + 1000;
  const lanes = [...previous.view.lanes];
  const i = (tick * 7) % LANES;
  lanes[i] = { ...lanes[i], lane: { ...lanes[i].lane, last: `step ${tick} done, tests green`, lastActivity: now } };
  return { now, view: { ...previous.view, lanes, events: events(now, tick) } };
}

const fakeStdin = () => Object.assign(new EventEmitter(), { isTTY: false, setRawMode() {}, setEncoding() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });

/** Frames a stage draws before the other takes its turn (long enough for its garbage to be its own). */
const BLOCK = 20;

/**
 * ms per frame, `FRAMES` frames for each output stage (the first 20 warm up): a new frame set in
 * the store → React → Ink → written; the stages take turns, `BLOCK` frames each.
 */
async function timeFrames(columns, rows, next, stages) {
  const screen = new Screen(columns, rows);
  const frames = createStore(() => everyLane(0));
  const actions = { focusPane: () => undefined, detach: () => undefined };
  const ink = render(createElement(App, { frames, actions, color: true }), { stdout: screen, stdin: fakeStdin(), debug: true, exitOnCtrlC: false, patchConsole: false });
  const times = stages.map(() => []);
  const cpu = stages.map(() => 0);
  for (let tick = 1; tick <= FRAMES * stages.length; tick += 1) {
    const s = Math.floor(tick / BLOCK) % stages.length;
    stages[s].use();
    const state = next(frames.getState(), tick);
    const written = new Promise((r) => { screen.waiter = r; });
    const start = performance.now();
    const used = process.cpuUsage();
    frames.setState(state);
    await written;
    const spent = process.cpuUsage(used);
    if (tick > 20 * stages.length) {
      times[s].push(performance.now() - start);
      cpu[s] += (spent.user + spent.system) / 1000;
    }
  }
  ink.unmount();
  return times.map((t, s) => Object.assign(t, { cpuMs: cpu[s] / t.length }));
}

const p50 = (t) => quantile(t, 0.5);
const figures = (t) => `mean ${(t.reduce((a, b) => a + b, 0) / t.length).toFixed(2)} ms, p50 ${p50(t).toFixed(2)} ms, p95 ${quantile(t, 0.95).toFixed(2)} ms (CPU ${t.cpuMs.toFixed(2)} ms a frame)`;

async function renderBench(columns, rows) {
  const why = await installFastOutput();
  if (why !== null) throw new Error(`bench: the dashboard's output stage is not in use: ${why}`);
  const found = await inkOutput();
  const proto = found.Output.prototype;
  const fastGet = proto.get;
  const stages = [{ use: () => { proto.get = fastGet; } }, { use: () => { proto.get = found.inkGet; } }];
  for (const [kind, next] of [['every lane changed', (_last, tick) => everyLane(tick)], ['one lane changed', oneLane]]) {
    const before = { ...drawn };
    const [ours, inks] = await timeFrames(columns, rows, next, stages);
    proto.get = fastGet;
    result('frame', { lanes: LANES, columns, rows, change: kind, p50_ms: p50(ours), p95_ms: quantile(ours, 0.95), ink_p50_ms: p50(inks), target_ms: 5 });
    console.log(`frame render, ${LANES} lanes at ${columns}×${rows}, ${kind}: ${figures(ours)} over ${ours.length} frames (target ≤ 5 ms); ` +
      `the same frames through Ink's own output stage: ${figures(inks)} — ${(p50(inks) / p50(ours)).toFixed(1)}× (p50); frames Ink's code drew for the dashboard: ${drawn.ink - before.ink}`);
  }
}

/**
 * What the dashboard keeps as it draws: the heap (after a full GC) once 2,000 and once 10,000 frames
 * with every lane changed have been drawn. Flat means nothing is kept per frame (Ink keeps every
 * text it lays out; the dashboard gives it placeholders, components/Line.tsx).
 */
async function heapBench(columns, rows) {
  if (typeof global.gc !== 'function') return;
  const screen = new Screen(columns, rows);
  const frames = createStore(() => everyLane(0));
  const ink = render(createElement(App, { frames, actions: { focusPane: () => undefined, detach: () => undefined }, color: true }),
    { stdout: screen, stdin: fakeStdin(), debug: true, exitOnCtrlC: false, patchConsole: false });
  const heap = [];
  for (let tick = 1; tick <= 10_000; tick += 1) {
    const written = new Promise((r) => { screen.waiter = r; });
    frames.setState(everyLane(tick));
    await written;
    if (tick === 2_000 || tick === 10_000) {
      global.gc();
      heap.push(process.memoryUsage().heapUsed / 1e6);
    }
  }
  ink.unmount();
  result('dashboard_heap', { lanes: LANES, columns, rows, after_2000_mb: heap[0], after_10000_mb: heap[1] });
  console.log(`dashboard heap with ${LANES} lanes at ${columns}×${rows}, every lane changed each frame: ${heap[0].toFixed(1)} MB after 2,000 frames, ` +
    `${heap[1].toFixed(1)} MB after 10,000 (${((heap[1] - heap[0]) / 8).toFixed(2)} MB per 1,000 frames)`);
}

const ONLY = process.env.BENCH_ONLY ?? '';
if (!process.env.BENCH_QUIET) {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 1e8; i += 1) x += i;
  console.log(`this machine: 1e8 additions in ${(performance.now() - start).toFixed(0)} ms (x=${x > 0})`);
}
if (ONLY === 'render') {
  await renderBench(120, 40);
  await renderBench(200, 80);
  await heapBench(120, 40);
} else if (ONLY === '') {
  // Frames are timed in a process started like the dashboard's own (its V8 flags).
  const { ENGINE_NODE_FLAGS } = await import(join(ROOT, 'dist', 'runtime', 'dashboard', 'window.js'));
  console.log(`frames timed under node ${ENGINE_NODE_FLAGS.join(' ')} (as window 0 runs the dashboard)`);
  spawnSync(process.execPath, [...ENGINE_NODE_FLAGS, '--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, BENCH_ONLY: 'render', BENCH_QUIET: '1' } });
}

// ---- 2. engine memory with 64 lanes ---------------------------------------------------------
const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();

function makeSwarm() {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-ui-'));
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'plans', 'p'), { recursive: true });
  writeFileSync(join(repo, 'plans', 'p', 'PLAN.md'), '---\ncontract: bench\n---\n# bench\n');
  writeFileSync(join(repo, '.gitignore'), 'plans/*/.swarm/\nplans/*/journal.jsonl\nplans/*/lead.json\nplans/*/analysis_results/\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.email=b@x.invalid', '-c', 'user.name=b', 'commit', '-q', '-m', 'plan');
  const lanes = Array.from({ length: LANES }, (_, i) => `lane-${String(i).padStart(2, '0')}`);
  for (const lane of lanes) git(repo, 'worktree', 'add', '-q', '-b', `lane/${lane}`, join(dir, `wt-${lane}`));
  // Each lane reports once (a capacity line for the dashboard), then idles as a plain `sleep`.
  const report = 'swarm notify lead "plan ready capacity=ok 80% @$SWARM_ACCOUNT context=41%"; exec sleep 3600';
  const yaml = [
    'version: 1', 'name: benchui', 'plan: plans/p', 'backend: tmux', 'accounts:',
    '  - { id: a1, kind: command, vendor: anthropic }',
    ...lanes.map((_, i) => `  - { id: x${i}, kind: command, vendor: ${i % 2 ? 'openai' : 'anthropic'} }`),
    'lead:', '  name: lead', '  account: a1', '  command: "exec sleep 3600"',
    `max_lanes: ${LANES}`, 'lanes:',
    ...lanes.flatMap((lane) => [`  - name: ${lane}`, `    checkout: ../wt-${lane}`, '    task: bench', `    command: ${JSON.stringify(report)}`]),
    'timeouts: { accept: 60s, packet: 60s, stall: 60m, release: 60m }',
  ].join('\n');
  writeFileSync(join(repo, 'swarm.yaml'), `${yaml}\n`);
  const socket = `swarm-bench-ui-${process.pid}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SWARM_TMUX_SOCKET: socket, SWARM_STATE_DIR: join(dir, 'state'), TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  return { dir, repo, socket, env, plan: join(repo, 'plans', 'p'), file: join(repo, 'swarm.yaml') };
}

function status(s) {
  const out = spawnSync(process.execPath, [CLI, 'status', s.file, '--json'], { cwd: s.repo, env: s.env, encoding: 'utf8' });
  try {
    return JSON.parse(out.stdout);
  } catch {
    return null;
  }
}

const memKb = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const { pidAlive: alive } = await import(join(ROOT, 'dist', 'adapters', 'lock.js'));

if (ONLY === '' || ONLY === 'memory') await memoryBench();

async function memoryBench() {
  const s = makeSwarm();
  let pid = null;
  try {
    const env = Object.entries(s.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // Window 0 exactly as `swarm up` on a terminal starts it (runtime/dashboard/dashboard.ts).
    const { dashboardLoop } = await import(join(ROOT, 'dist', 'runtime', 'dashboard', 'loop.js'));
    const { engineArgv } = await import(join(ROOT, 'dist', 'runtime', 'dashboard', 'window.js'));
    execFileSync('tmux', ['-L', s.socket, 'new-session', '-d', '-s', 'swarm-benchui', '-n', 'swarm', '-x', '200', '-y', '80', '-c', s.repo, ...env, '--',
      ...dashboardLoop(engineArgv(s.file, []))], { env: s.env });
    const deadline = Date.now() + 180_000;
    for (;;) {
      const st = status(s);
      const reported = st?.lanes?.filter((l) => l.capacity !== null).length ?? 0;
      if (st && st.lanes.length === LANES && reported === LANES) break;
      if (Date.now() > deadline) throw new Error(`bench: only ${reported} of ${LANES} lanes reported within 180 s`);
      await sleep(500);
    }
    pid = JSON.parse(readFileSync(join(s.plan, '.swarm', 'lock'), 'utf8')).pid;
    // Every lane has reported: now 20 s of the dashboard running (a clock tick a second, ages moving).
    const samples = [];
    for (let i = 0; i < 40; i += 1) {
      samples.push(memKb(pid, 'VmRSS'));
      await sleep(500);
    }
    const rss = Math.max(...samples) / 1024;
    const hwm = memKb(pid, 'VmHWM') / 1024;
    result('engine_rss', { lanes: LANES, rss_mb: rss, peak_mb: hwm, target_mb: 120 });
    console.log(`engine + dashboard with ${LANES} lanes (real tmux, every lane reported): RSS ${rss.toFixed(1)} MB, peak ${hwm.toFixed(1)} MB (target ≤ 120 MB RSS)`);
  } finally {
    spawnSync('tmux', ['-L', s.socket, 'kill-server'], { stdio: 'ignore' });
    for (let i = 0; pid !== null && alive(pid) && i < 50; i += 1) await sleep(100);
    if (existsSync(s.dir)) rmSync(s.dir, { recursive: true, force: true, maxRetries: 5 });
  }
}
