/**
 * `swarm init [--lanes N] [--yes]` (SPEC 10.2): a first swarm in this git repository. Finds the agent
 * CLIs on PATH and the signed-in profiles in the home folder (files looked at, never read, written or
 * run against), shows what it will write (core/init/scaffold.ts) and, on a terminal, asks once;
 * `--yes` for scripts. Writes swarm.yaml, the plan's PLAN.md and the missing .gitignore lines, makes
 * one git worktree per lane, then runs validate and doctor and prints what is left. When anything it
 * would write exists, it writes nothing and exits 2 naming it.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { scaffold, type FoundProfile, type Scaffold } from '../core/init/scaffold.js';
import { formatDoctor } from '../core/doctor/doctor.js';
import { UsageError } from '../errors.js';
import { readTextIfExists } from '../adapters/files.js';
import { findOnPath } from '../adapters/which.js';
import { loadConfig } from '../adapters/configFile.js';
import { argsProblem } from './argsProblem.js';
import type { CommandIO } from './io.js';

const USAGE = 'usage: swarm init [--lanes N] [--yes]';
const CLIS = ['claude', 'codex'];

export async function init(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: false, strict: true, options: { lanes: { type: 'string' }, yes: { type: 'boolean', short: 'y' } } });
  } catch (error) {
    throw new UsageError(`swarm init: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const lanesText = parsed.values.lanes?.trim() ?? '2';
  if (!/^[1-9]\d*$/.test(lanesText) || Number(lanesText) > 26) throw new UsageError(`swarm init --lanes takes a number from 1 to 26, got "${parsed.values.lanes}"`, { hint: USAGE });

  const root = gitRoot(io.cwd);
  const home = io.env.HOME || homedir();
  const profiles = findProfiles(home);
  const clis = CLIS.filter((c) => findOnPath(c, io.env) !== null);
  const plan = scaffold({ repo: basename(root), lanes: Number(lanesText), profiles, clis, gitignore: readTextIfExists(join(root, '.gitignore')) ?? '' });
  refuseExisting(root, plan);

  io.stdout(describe(root, plan, profiles, clis));
  if (!parsed.values.yes) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) throw new UsageError('swarm init asks before it writes, and this is no terminal', { hint: 'pass --yes to write without asking' });
    if (!(await confirm('write these and make the worktrees? [Y/n] '))) {
      io.stdout('swarm init: nothing written\n');
      return 1;
    }
  }

  for (const file of plan.files) {
    mkdirSync(dirname(join(root, file.path)), { recursive: true });
    writeFileSync(join(root, file.path), file.text, { flag: 'wx' });
  }
  if (plan.gitignore.length > 0) {
    const now = readTextIfExists(join(root, '.gitignore')) ?? '';
    appendFileSync(join(root, '.gitignore'), `${now === '' || now.endsWith('\n') ? '' : '\n'}# swarm's runtime files\n${plan.gitignore.join('\n')}\n`);
  }
  for (const w of plan.worktrees) git(root, 'worktree', 'add', '-q', '-b', w.branch, resolve(root, w.path));
  io.stdout(`swarm init: wrote ${plan.files.map((f) => f.path).join(', ')}${plan.gitignore.length ? ', .gitignore' : ''}; made ${plan.worktrees.length} worktree(s)\n\n`);

  // What is left: validate and doctor, as the user would run them next.
  const config = loadConfig(join(root, 'swarm.yaml'), { cwd: root, env: io.env });
  io.stdout('swarm validate: ok\n');
  const { doctorFor } = await import('./doctor.js');
  const report = await doctorFor(config, io.env);
  io.stdout(`\nswarm doctor:\n${formatDoctor(report)}\nleft to do:\n${plan.left.map((l, i) => `  ${i + 1}. ${l}`).join('\n')}\n`);
  return 0;
}

function gitRoot(cwd: string): string {
  try {
    const root = git(cwd, 'rev-parse', '--show-toplevel');
    git(root, 'rev-parse', '--verify', '-q', 'HEAD');
    return root;
  } catch {
    throw new UsageError('swarm init works in a git repository with at least one commit (its lanes are git worktrees of it)', { hint: 'git init && git commit --allow-empty -m start, then swarm init' });
  }
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `~/.claude*` folders holding `.credentials.json`, `~/.codex*` holding `auth.json`: only whether the file is there. */
function findProfiles(home: string): FoundProfile[] {
  let names: string[];
  try {
    names = readdirSync(home).sort();
  } catch {
    return [];
  }
  const found: FoundProfile[] = [];
  for (const name of names) {
    const kind = name.startsWith('.claude') ? 'claude' : name.startsWith('.codex') ? 'codex' : null;
    if (kind === null || name.endsWith('.json')) continue;
    const dir = join(home, name);
    if (!isDir(dir) || !existsSync(join(dir, kind === 'claude' ? '.credentials.json' : 'auth.json'))) continue;
    found.push({ kind, dir: `~/${name}`, isDefault: name === `.${kind}` });
  }
  // claude profiles first (the lead goes on the first), each kind in name order.
  return [...found.filter((p) => p.kind === 'claude'), ...found.filter((p) => p.kind === 'codex')];
}

/** A folder, or a symlink to one (profiles kept in a dotfiles repository are often linked). */
function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Anything init would write that exists already: exit 2 naming it, nothing written. */
function refuseExisting(root: string, plan: Scaffold): void {
  for (const file of plan.files) {
    if (existsSync(join(root, file.path))) throw new UsageError(`swarm init: ${join(root, file.path)} exists; init never overwrites, so nothing was written`, { hint: 'move it aside, or edit it yourself' });
  }
  for (const w of plan.worktrees) {
    const path = resolve(root, w.path);
    if (existsSync(path)) throw new UsageError(`swarm init: ${path} exists (${w.lane}'s worktree would go there); nothing was written`, { hint: 'move it aside, or write swarm.yaml yourself' });
    const branch = execFileSync('git', ['branch', '--list', w.branch], { cwd: root, encoding: 'utf8' }).trim();
    if (branch !== '') throw new UsageError(`swarm init: the branch ${w.branch} exists (${w.lane}'s worktree would use it); nothing was written`, { hint: `delete it (git branch -D ${w.branch}) or write swarm.yaml yourself` });
  }
}

function describe(root: string, plan: Scaffold, profiles: FoundProfile[], clis: string[]): string {
  const lines = [
    `swarm init in ${root}`,
    `  agent CLIs on PATH: ${clis.join(', ') || 'none'}`,
    `  signed-in profiles: ${profiles.map((p) => `${p.dir} (${p.kind})`).join(', ') || 'none (a simulated swarm will be written)'}`,
    '  will write:',
    ...plan.files.map((f) => `    ${f.path}`),
    ...(plan.gitignore.length ? [`    .gitignore (+ ${plan.gitignore.join(', ')})`] : []),
    '  will make worktrees:',
    ...plan.worktrees.map((w) => `    ${w.path} on branch ${w.branch} (${w.lane})`),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(question)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}
