// Shared by the engine benchmarks (bench/engine.mjs, bench/streaming.mjs): a throwaway repository with
// a plan, one worktree per lane and a swarm.yaml of scripted command agents on a private tmux socket;
// waiting with a deadline; quantiles; a process's CPU from /proc (clock ticks, or ns on a CPU).
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CLI = join(ROOT, 'bin', 'swarm.cjs');
export const AGENT = join(ROOT, 'tests', 'fixtures', 'agents', 'lane.mjs');
export const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

export const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A throwaway folder (in `root`) with a repository holding a plan (`plans/p`) and one worktree per
 * lane (`../wt-<lane>`).
 */
export function makeRepo(lanes, root = tmpdir()) {
  // No name in the random folder name: a checkout's path goes into packets, and a path segment of 24
  // characters or more mixing cases and digits (`swarm-bench-stream16-CXe5Y8`) is refused there as a secret.
  const dir = mkdtempSync(join(root, 'swarm-bench-'));
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'plans', 'p'), { recursive: true });
  writeFileSync(join(repo, 'plans', 'p', 'PLAN.md'), '---\ncontract: bench\n---\n# bench\n');
  writeFileSync(join(repo, '.gitignore'), 'plans/*/.swarm/\nplans/*/journal.jsonl\nplans/*/lead.json\nplans/*/analysis_results/\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.email=b@x.invalid', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'start');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.email=b@x.invalid', '-c', 'user.name=b', 'commit', '-q', '-m', 'plan');
  for (const lane of lanes) git(repo, 'worktree', 'add', '-q', '-b', `lane/${lane}`, join(dir, `wt-${lane}`));
  return { dir, repo };
}

/** A repo with a plan and one worktree per lane; returns paths and the env to run swarm with. */
export function makeSwarm(name, lanes, agentEnv, extra = '', { kind = 'command', panes = {} } = {}) {
  const { dir, repo } = makeRepo(lanes);
  const cmd = (env) => [...Object.entries(env).map(([k, v]) => `${k}='${v}'`), 'exec', process.execPath, AGENT].join(' ');
  const accounts = ['a1', 'a2', 'a3', 'o1', 'o2', 'o3'];
  for (let i = 0; i < lanes.length; i += 1) accounts.push(`x${i}`);
  const yaml = [
    'version: 1', `name: ${name}`, 'plan: plans/p', 'backend: tmux', 'accounts:',
    ...accounts.map((id) => `  - { id: ${id}, kind: ${kind}, vendor: ${id.startsWith('o') ? 'openai' : 'anthropic'} }`),
    'lead:', '  name: lead', '  account: a1', `  command: "${cmd({ AGENT_G1: 'ready' })}"`,
    `max_lanes: ${Math.max(8, lanes.length)}`,
    'lanes:',
    ...lanes.flatMap((lane) => [`  - name: ${lane}`, `    checkout: ../wt-${lane}`, '    task: bench', `    command: "${cmd(agentEnv)}"`]),
    'timeouts: { accept: 30s, packet: 30s, stall: 30m, release: 1s }',
    extra,
  ].join('\n');
  writeFileSync(join(repo, 'swarm.yaml'), `${yaml}\n`);
  if (Object.keys(panes).length > 0) mkdirSync(join(repo, 'panes'));
  for (const [name, text] of Object.entries(panes)) writeFileSync(join(repo, 'panes', `${name}.yaml`), text);
  const socket = `swarm-bench-${process.pid}-${name}`;
  // Its own lease folder (SPEC 10.4): a bench never leases in, nor leaves leases in, the user's ~/.local/state.
  // BENCH_OTHER_LEASES=<folder>: other swarms' leases copied into it first (a machine where crashes left many).
  if (process.env.BENCH_OTHER_LEASES) cpSync(process.env.BENCH_OTHER_LEASES, join(dir, 'state', 'leases'), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SWARM_TMUX_SOCKET: socket, SWARM_STATE_DIR: join(dir, 'state'), AGENT_LOG: join(dir, 'agents.log'), AGENT_STAMP: '1' };
  return { dir, repo, socket, env, plan: join(repo, 'plans', 'p') };
}

/** Whether process `pid` still runs (signal 0). */
export const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Kill the engine and the swarm's tmux server, and remove the folder once the server is gone: with
 * many panes it takes a while to end, and its pane-death hooks write into the plan meanwhile.
 */
export function cleanup(s, child, graceful = false) {
  // graceful: SIGTERM first and wait (a profiling engine writes its --cpu-prof on the way out).
  if (graceful && child && child.exitCode === null) {
    child.kill('SIGTERM');
    const running = () => { try { return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${child.pid}/stat`, 'utf8')); } catch { return false; } };
    for (let i = 0; running() && i < 100; i += 1) pause(100);
  }
  if (child && child.exitCode === null) child.kill('SIGKILL');
  const server = Number(spawnSync('tmux', ['-L', s.socket, 'display', '-p', '#{pid}'], { encoding: 'utf8' }).stdout.trim());
  spawnSync('tmux', ['-L', s.socket, 'kill-server'], { stdio: 'ignore' });
  for (let i = 0; server > 0 && alive(server) && i < 100; i += 1) pause(100);
  rmSync(join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`, s.socket), { force: true }); // tmux 3.3a leaves it
  rmSync(s.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

export async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(100);
  }
}

export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** user+system CPU ticks of a process (and, with children, of its waited-for children). */
export function cpuTicks(pid, children = false) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const [utime, stime, cutime, cstime] = [fields[11], fields[12], fields[13], fields[14]].map(Number);
  return utime + stime + (children ? cutime + cstime : 0);
}

/**
 * Nanoseconds a process's threads have spent on a CPU (the first figure of each thread's schedstat):
 * a clock tick of 10 ms is a twentieth of what an idle engine spends in 40 s.
 */
export function onCpuNs(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns;
}

/**
 * One part's figures for `npm run bench -- --json` (bench/index.mjs): appended as a JSON line to
 * $BENCH_JSON_OUT when the runner set it; without it, nothing (the part prints its own table).
 */
export function result(part, figures) {
  const out = process.env.BENCH_JSON_OUT;
  if (out) appendFileSync(out, `${JSON.stringify({ part, ...figures })}\n`);
}
