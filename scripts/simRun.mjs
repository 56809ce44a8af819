/**
 * What `npm run chaos` and `npm run soak` share: a sim swarm's temporary repository (a plan, a
 * swarm.yaml, a worktree per lane), its own tmux server on a private socket, `swarm up` started
 * headless with its output kept, and the removal of all of it. Nothing outside the run's folder and
 * its socket is touched.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (scripts/..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The CLI a run drives: `override` (a copy of another build's bin/swarm.cjs), else this checkout's. */
export const cliPath = (override) => override ?? join(ROOT, 'bin', 'swarm.cjs');

export const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/** A fresh folder for one run under the system's temporary folder. */
export const runFolder = (prefix) => mkdtempSync(join(tmpdir(), prefix));

/** The environment of a run's `swarm up`: nothing of the caller's but PATH and HOME, its own socket. */
export function runEnv(dir, socket) {
  // The run's own machine lease folder (SPEC 10.4): never the developer's ~/.local/state.
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, NO_COLOR: '1', SWARM_TMUX_SOCKET: socket, SWARM_STATE_DIR: join(dir, 'state') };
}

function git(cwd, ...args) {
  execFileSync('git', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * The run's repository in `dir`: repo/ with plans/<name>/PLAN.md (`planMd`) and swarm.yaml (`yaml`),
 * committed on main, and one worktree wt-<lane> per lane on branch lane/<lane>.
 */
export function layOut(dir, { name, planMd, yaml, lanes }) {
  const repo = join(dir, 'repo');
  const plan = join(repo, 'plans', name);
  mkdirSync(plan, { recursive: true });
  writeFileSync(join(plan, 'PLAN.md'), planMd);
  writeFileSync(join(repo, '.gitignore'), 'plans/*/.swarm/\nplans/*/journal.jsonl\nplans/*/lead.json\nplans/*/analysis_results/\n');
  writeFileSync(join(repo, 'swarm.yaml'), yaml);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', `${name}@swarm.invalid`);
  git(repo, 'config', 'user.name', `swarm ${name}`);
  git(repo, 'config', 'commit.gpgsign', 'false');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', `${name} plan`);
  for (const lane of lanes) git(repo, 'worktree', 'add', '-q', '-b', `lane/${lane}`, join(dir, `wt-${lane}`));
  return { repo, plan, file: join(repo, 'swarm.yaml') };
}

/** A sim plan: each lane appends `lines` numbered lines to out.txt, passes a gate on them, commits. */
export function simPlanMd(title, contract, lines) {
  const block = Object.entries(lines)
    .map(([lane, n]) => {
      const body = [];
      for (let i = 1; i <= n; i += 1) body.push(`  - append: out.txt\n    text: "${lane} ${i}\\n"`);
      body.push(`  - gate: test "$(wc -l < out.txt)" -ge ${n}`, `  - commit: "${lane}: out"`);
      return `${lane}:\n${body.join('\n')}`;
    })
    .join('\n');
  return `---\ncontract: ${contract}\n---\n# ${title}\n\nEach lane appends to out.txt and commits.\n\n\`\`\`sim\n${block}\n\`\`\`\n`;
}

/**
 * `swarm up <file> --headless --until-done …args` in the run's repository: the child, a promise of
 * how it exited ({ code, signal, out }) and its output so far (the last `keep` characters).
 */
export function startUp(cli, layout, env, args, keep = 200_000) {
  const child = spawn(process.execPath, [cli, 'up', layout.file, '--headless', '--until-done', ...args], { cwd: layout.repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const add = (d) => (out = (out + d).slice(-keep));
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const done = new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, out })));
  return { child, done, output: () => out };
}

/** Kill the run's own tmux server (never another) and remove the socket file a killed server leaves. */
export function killServer(socket) {
  try {
    execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // no server left
  }
  rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
}

/**
 * Remove a run's folder (its worktrees too). A pane's process that outlived its server for a moment
 * (the sim writes its run's quota files) would write on into the folder being removed (ENOTEMPTY):
 * every process working under the run's own folder, which only this run started, is ended first.
 */
export function removeRun(dir) {
  endProcessesUnder(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

function endProcessesUnder(dir) {
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return; // no /proc
  }
  for (const pid of pids) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}
