#!/usr/bin/env node
// npm run bench (part) — `swarm init --yes` as a newcomer runs it: a git repository with one commit and a
// HOME holding 8 signed-in profiles (4 `~/.claude*`, 4 `~/.codex*`), two lanes (two `git worktree add`),
// then validate and doctor (no agent CLI on PATH: doctor says so). Wall time of the whole command,
// median and max of BENCH_RUNS (default 5; target ≤ 1 s), beside `node -e 0` in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, git } from './lib.mjs';

const { result } = await import('./lib.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-init-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const home = join(dir, 'home');
  for (let i = 1; i <= 4; i += 1) {
    mkdirSync(join(home, `.claude-w${i}`), { recursive: true });
    writeFileSync(join(home, `.claude-w${i}`, '.credentials.json'), '{}');
    mkdirSync(join(home, `.codex-w${i}`), { recursive: true });
    writeFileSync(join(home, `.codex-w${i}`, 'auth.json'), '{}');
  }
  const tmux = execFileSync('sh', ['-c', 'dirname "$(command -v tmux)"'], { encoding: 'utf8' }).trim();
  const env = { PATH: [tmux, join(process.execPath, '..'), '/usr/bin', '/bin'].join(':'), HOME: home };
  const init = [];
  const bare = [];
  for (let i = 0; i <= RUNS; i += 1) {
    const repo = join(dir, `r${i}`, 'app');
    mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, '-c', 'user.email=b@x.invalid', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'start');
    let t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env });
    const nodeMs = performance.now() - t;
    t = performance.now();
    const run = spawnSync(process.execPath, [CLI, 'init', '--yes'], { cwd: repo, env, encoding: 'utf8' });
    const ms = performance.now() - t;
    if (run.status !== 0 || !run.stdout.includes('swarm validate: ok')) throw new Error(`swarm init failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
    if (i > 0) { init.push(ms); bare.push(nodeMs); } // the first run warms the file cache
  }
  const m = median(init);
  result('init', { profiles: 8, lanes: 2, median_ms: m, max_ms: Math.max(...init), node_ms: median(bare), ratio: m / median(bare), target_ms: 1000 });
  console.log(`init: swarm init --yes, 8 profiles, 2 worktrees, validate + doctor  median ${m.toFixed(0)} ms  max ${Math.max(...init).toFixed(0)} ms  (node -e 0: ${median(bare).toFixed(0)} ms, ${(m / median(bare)).toFixed(1)}×)  (target ≤ 1000 ms)  ${m <= 1000 ? 'ok' : 'OVER'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
