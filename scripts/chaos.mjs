#!/usr/bin/env node
/**
 * `npm run chaos [-- --runs N] [-- --seed S]` (issue 12 §2; not part of `npm test`): randomized
 * sim swarms (kind: sim, fast step timings) under faults — SIGKILL of `swarm up` at random moments
 * (then `swarm up` again, which must resume), lane agents crashing before a random step
 * (SIM_CRASH_AT) or killed from outside (kill -9 of a lane's pane process), and accounts capped so
 * lanes hand off. After each run the invariants are checked from the journal, the lease files, the
 * packets and tmux (scripts/chaosCheck.mjs); it prints runs, kills, crashes, handoffs, violations
 * and the seed of every failing run (`--seed S` replays that one run).
 *
 * Each run has its own temporary repository and its own tmux server (`tmux -L swarm-chaos-…`),
 * killed afterwards; nothing else is touched. Run `npm run build` first (npm run chaos does).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkRun, livePanes } from './chaosCheck.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** SWARM_CHAOS_BIN: another build's bin/swarm.cjs (a copy, so a rebuild cannot change a long run halfway). */
const CLI = process.env.SWARM_CHAOS_BIN ?? join(ROOT, 'bin', 'swarm.cjs');

/** mulberry32: a small seeded generator, so a run replays from its seed. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), chance: (p) => next() < p };
}

/** What one run does, from its seed alone. */
export function planRun(seed) {
  const r = rng(seed);
  const lanes = ['lane-a', 'lane-b', 'lane-c'].slice(0, r.int(2, 3));
  const steps = Object.fromEntries(lanes.map((l) => [l, r.int(3, 6)]));
  const capped = lanes.filter(() => r.chance(0.5));
  const crashAt = Object.fromEntries(lanes.filter((l) => !capped.includes(l) && r.chance(0.35)).map((l) => [l, r.int(1, steps[l])]));
  const paneKills = lanes.filter((l) => !(l in crashAt) && r.chance(0.3)).map((l) => ({ lane: l, atMs: r.int(500, 3500) }));
  const swarmKills = Array.from({ length: r.int(0, 3) }, () => r.int(300, 4000));
  return { seed, lanes, steps, capped, crashAt, paneKills, swarmKills };
}

function simBlock(run) {
  return run.lanes
    .map((lane) => {
      const n = run.steps[lane];
      const body = [];
      for (let i = 1; i < n; i += 1) body.push(`  - append: out.txt\n    text: "${lane} ${i}\\n"`);
      body.push(`  - gate: test "$(wc -l < out.txt)" -ge ${n - 1}`, `  - commit: "${lane}: out"`);
      return `${lane}:\n${body.join('\n')}`;
    })
    .join('\n');
}

const HERMETIC = { AGENTKIT_CAPACITY_LOW: '25', AGENTKIT_CAPACITY_CRITICAL: '10', AGENTKIT_CAPACITY_CAP: '', SIM_STEP_MS: '250' };

function swarmYaml(run) {
  const laneAccount = (lane) => `acct-${lane}`;
  const account = (id, vendor, env = {}) => ({ id, kind: 'sim', vendor, env: { ...HERMETIC, ...env } });
  const accounts = [
    account('acct-lead', 'anthropic-sim'),
    ...run.lanes.map((lane) => account(laneAccount(lane), 'anthropic-sim', {
      ...(run.capped.includes(lane) ? { AGENTKIT_CAPACITY_CAP: `@${laneAccount(lane)}=20` } : {}),
      ...(lane in run.crashAt ? { SIM_CRASH_AT: String(run.crashAt[lane]) } : {}),
    })),
    account('spare-o1', 'openai-sim'),
    account('spare-o2', 'openai-sim'),
    account('spare-o3', 'openai-sim'),
  ];
  const doc = {
    version: 1,
    name: 'chaos',
    plan: 'plans/chaos',
    backend: 'tmux',
    accounts,
    lead: { name: 'lead', account: 'acct-lead', succession: [] },
    lanes: run.lanes.map((lane) => ({ name: lane, checkout: `../wt-${lane}`, task: `${lane} steps of PLAN.md`, account: laneAccount(lane), done_when: `test "$(wc -l < out.txt)" -ge ${run.steps[lane] - 1}` })),
    max_lanes: 4,
    thresholds: { capacity_low: 25, capacity_critical: 10, max_generations: 4 },
    timeouts: { accept: '20s', packet: '10s', stall: '60s', ask: '20s', release: '3s' },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function git(cwd, ...args) {
  execFileSync('git', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function layOut(dir, run) {
  const repo = join(dir, 'repo');
  const plan = join(repo, 'plans', 'chaos');
  mkdirSync(plan, { recursive: true });
  writeFileSync(join(plan, 'PLAN.md'), `---\ncontract: chaos-${run.seed}\n---\n# Chaos run ${run.seed}\n\nEach lane appends to out.txt and commits.\n\n\`\`\`sim\n${simBlock(run)}\n\`\`\`\n`);
  writeFileSync(join(repo, '.gitignore'), 'plans/*/.swarm/\nplans/*/journal.jsonl\nplans/*/lead.json\nplans/*/analysis_results/\n');
  writeFileSync(join(repo, 'swarm.yaml'), swarmYaml(run));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 'chaos@swarm.invalid');
  git(repo, 'config', 'user.name', 'swarm chaos');
  git(repo, 'config', 'commit.gpgsign', 'false');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'chaos plan');
  for (const lane of run.lanes) git(repo, 'worktree', 'add', '-q', '-b', `lane/${lane}`, join(dir, `wt-${lane}`));
  return { repo, plan, file: join(repo, 'swarm.yaml') };
}

function up(layout, env) {
  const child = spawn(process.execPath, [CLI, 'up', layout.file, '--headless', '--until-done', '--timeout', '90s'], { cwd: layout.repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const done = new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, out })));
  return { child, done };
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/** One run: lay out, start, inject faults, restart after each kill, then check. */
export async function oneRun(seed, { keep = false } = {}) {
  const run = planRun(seed);
  const dir = mkdtempSync(join(tmpdir(), `swarm-chaos-${seed}-`));
  const socket = `swarm-chaos-${process.pid}-${seed}`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, NO_COLOR: '1', SWARM_TMUX_SOCKET: socket };
  const stats = { kills: 0, crashes: Object.keys(run.crashAt).length, paneKills: 0, handoffs: 0, violations: [] };
  const samples = [];
  const snapshots = [];
  let ended = null;
  try {
    const layout = layOut(dir, run);
    const journalPath = join(layout.plan, 'journal.jsonl');
    const started = Date.now();
    const pending = run.paneKills.map((k) => ({ ...k }));
    let current = up(layout, env);
    const kills = [...run.swarmKills].sort((a, b) => a - b);
    let sinceStart = Date.now();
    for (;;) {
      const exited = await Promise.race([current.done, sleep(150).then(() => null)]);
      const panes = livePanes(socket);
      if (panes !== null) samples.push(panes);
      const now = Date.now() - started;
      for (const k of pending.filter((p) => !p.done && now >= p.atMs)) {
        k.done = true;
        const target = (panes ?? []).find((p) => p.lane === k.lane && p.generation === 1);
        if (target) {
          try {
            process.kill(target.pid, 'SIGKILL');
            stats.paneKills += 1;
          } catch {
            // already gone
          }
        }
      }
      if (exited) {
        ended = exited;
        break;
      }
      if (kills.length > 0 && Date.now() - sinceStart >= kills[0]) {
        kills.shift();
        snapshots.push(existsSync(journalPath) ? readFileSync(journalPath, 'utf8') : '');
        current.child.kill('SIGKILL');
        await current.done;
        stats.kills += 1;
        current = up(layout, env);
        sinceStart = Date.now();
      }
      if (Date.now() - started > 150_000) {
        current.child.kill('SIGKILL');
        ended = { ...(await current.done), code: -1 };
        stats.violations.push('the run took over 150 s');
        break;
      }
    }
    const result = checkRun({ plan: layout.plan, socket, exit: ended, samples, snapshots, lanes: run.lanes });
    stats.handoffs = result.handoffs;
    stats.violations.push(...result.violations);
    if (stats.violations.length > 0) stats.output = ended?.out?.split('\n').slice(-15).join('\n');
  } catch (error) {
    stats.violations.push(`the run failed: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    if (!keep) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
  return { run, stats, dir };
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' }, seed: { type: 'string' }, keep: { type: 'boolean' }, base: { type: 'string' } } });
  const seeds = values.seed !== undefined
    ? [Number(values.seed)]
    : Array.from({ length: Number(values.runs) }, (_, i) => (values.base !== undefined ? Number(values.base) : Date.now() % 1_000_000) + i);
  const total = { runs: 0, kills: 0, crashes: 0, paneKills: 0, handoffs: 0, violations: 0 };
  const failing = [];
  const started = Date.now();
  for (const seed of seeds) {
    const { run, stats, dir } = await oneRun(seed, { keep: Boolean(values.keep) });
    total.runs += 1;
    total.kills += stats.kills;
    total.crashes += stats.crashes;
    total.paneKills += stats.paneKills;
    total.handoffs += stats.handoffs;
    total.violations += stats.violations.length;
    const line = `run ${total.runs}/${seeds.length} seed ${seed}: ${run.lanes.length} lanes, ${stats.kills} kills, ${stats.crashes} crashes, ${stats.paneKills} pane kills, ${stats.handoffs} handoffs, ${stats.violations.length} violations`;
    process.stdout.write(`${line}\n`);
    if (stats.violations.length > 0) {
      failing.push(seed);
      for (const v of stats.violations) process.stdout.write(`  ✗ ${v}\n`);
      if (stats.output) process.stdout.write(`  last output:\n${stats.output.replace(/^/gm, '    ')}\n`);
      if (values.keep) process.stdout.write(`  kept: ${dir}\n`);
    }
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\nchaos: ${total.runs} runs in ${minutes} min, ${total.kills} swarm kills (SIGKILL), ${total.crashes} lane crashes (SIM_CRASH_AT) + ${total.paneKills} lane pane kills (SIGKILL), ${total.handoffs} handoffs, ${total.violations} violations\n`);
  if (failing.length > 0) process.stdout.write(`failing seeds: ${failing.join(' ')} (replay one: npm run chaos -- --seed S --keep)\n`);
  process.exitCode = failing.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
