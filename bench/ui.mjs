#!/usr/bin/env node
// npm run bench (part 3) — the dashboard, in absolute figures (the targets are absolute):
//  1. frame render time with 64 lanes: a new frame (every lane changed) → React → Ink → written,
//     at 120×40 (the lanes scroll) and 200×80 (all 64 in view); mean, p50, p95 (target ≤ 5 ms);
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
const CLI = join(ROOT, 'dist', 'cli.js');
const FRAMES = Number(process.env.BENCH_FRAMES ?? 400);
const LANES = Number(process.env.BENCH_LANES ?? 64);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

// ---- 1. frame render time -------------------------------------------------------------------
// As the dashboard loads them (runtime/dashboard.ts): React's and Ink's production builds.
process.env.NODE_ENV ??= 'production';
const { createElement } = await import('react');
const { render, Text } = await import('ink');
const { createStore } = await import('zustand/vanilla');
const { App } = await import(join(ROOT, 'dist', 'ui', 'App.js'));

class Screen extends EventEmitter {
  constructor(columns, rows) {
    super();
    this.columns = columns;
    this.rows = rows;
    this.isTTY = false;
    this.writes = 0;
    this.waiter = null;
  }
  write(text) {
    this.writes += 1;
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

function frame(tick) {
  const now = Date.now();
  return {
    now,
    view: {
      name: 'bench', plan: '/repo/plans/bench', session: 'swarm-bench', backend: 'tmux', startedAt: now - 3_600_000,
      lead: { name: 'lead', epoch: 1, account: 'a1', state: 'working' },
      lanes: Array.from({ length: LANES }, (_, i) => laneView(i, tick)),
      events: Array.from({ length: 50 }, (_, i) => ({
        ts: new Date(now - 1000 * (50 - i)).toISOString(), type: 'observation', event: 'capacity_verdict',
        lane: `lane-${String((i + tick) % LANES).padStart(2, '0')}`, generation: 1, epoch: 1, decision: 'continue', state: 'ok',
      })),
      outcome: null,
    },
  };
}

/** ms per frame: a new frame set → React → Ink → written, `FRAMES` times (the first 20 warm up). */
async function timeFrames(screen, element, update) {
  const ink = render(element, { stdout: screen, stdin: fakeStdin(), debug: true, exitOnCtrlC: false, patchConsole: false });
  const times = [];
  let cpu = 0;
  for (let tick = 1; tick <= FRAMES; tick += 1) {
    const written = new Promise((r) => { screen.waiter = r; });
    const start = performance.now();
    const used = process.cpuUsage();
    update(ink, tick);
    await written;
    const spent = process.cpuUsage(used);
    times.push(performance.now() - start);
    if (tick > 20) cpu += (spent.user + spent.system) / 1000;
  }
  ink.unmount();
  const kept = times.slice(Math.min(20, times.length - 1));
  kept.cpuMs = cpu / Math.max(1, FRAMES - 20);
  return kept;
}

const fakeStdin = () => Object.assign(new EventEmitter(), { isTTY: false, setRawMode() {}, setEncoding() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });
const figures = (t) => `mean ${(t.reduce((a, b) => a + b, 0) / t.length).toFixed(2)} ms, p50 ${quantile(t, 0.5).toFixed(2)} ms, p95 ${quantile(t, 0.95).toFixed(2)} ms (CPU ${t.cpuMs.toFixed(2)} ms a frame)`;

async function renderBench(columns, rows) {
  const screen = new Screen(columns, rows);
  const frames = createStore(() => frame(0));
  const actions = { focusPane: () => undefined, detach: () => undefined };
  const ours = await timeFrames(screen, createElement(App, { frames, actions, color: true }), (_ink, tick) => frames.setState(frame(tick)));
  // Ink's own share: the same frame text as one <Text>, so only Ink's layout and output remain.
  const text = screen.last.replace(/\n$/, '');
  const bare = await timeFrames(new Screen(columns, rows), createElement(Text, null, text), (ink, tick) => ink.rerender(createElement(Text, null, tick % 2 ? `${text} ` : text)));
  console.log(`frame render, ${LANES} lanes at ${columns}×${rows}: ${figures(ours)} over ${ours.length} frames (target ≤ 5 ms); ` +
    `Ink alone drawing the same text: ${figures(bare)}`);
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
} else if (ONLY === '') {
  // Frames are timed in a process started like the dashboard's own (its V8 flags).
  const { ENGINE_NODE_FLAGS } = await import(join(ROOT, 'dist', 'runtime', 'dashboard.js'));
  console.log(`frames timed under node ${ENGINE_NODE_FLAGS.join(' ')} (as window 0 runs the dashboard)`);
  spawnSync(process.execPath, [...ENGINE_NODE_FLAGS, fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, BENCH_ONLY: 'render', BENCH_QUIET: '1' } });
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
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SWARM_TMUX_SOCKET: socket, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
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
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

if (ONLY === '' || ONLY === 'memory') await memoryBench();

async function memoryBench() {
  const s = makeSwarm();
  let pid = null;
  try {
    const env = Object.entries(s.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // Window 0 exactly as `swarm up` on a terminal starts it (runtime/dashboard.ts).
    const { dashboardLoop, engineArgv } = await import(join(ROOT, 'dist', 'runtime', 'dashboard.js'));
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
    console.log(`engine + dashboard with ${LANES} lanes (real tmux, every lane reported): RSS ${rss.toFixed(1)} MB, peak ${hwm.toFixed(1)} MB (target ≤ 120 MB RSS)`);
  } finally {
    spawnSync('tmux', ['-L', s.socket, 'kill-server'], { stdio: 'ignore' });
    for (let i = 0; pid !== null && alive(pid) && i < 50; i += 1) await sleep(100);
    if (existsSync(s.dir)) rmSync(s.dir, { recursive: true, force: true, maxRetries: 5 });
  }
}
