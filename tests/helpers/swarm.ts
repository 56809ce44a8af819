/** Run the built `swarm` CLI as a user or an agent would, and build throwaway plans and repos. */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The `swarm` command as installed (bin/swarm.cjs picks the agents' fast path for notify/capacity). */
export const CLI = join(ROOT, 'bin', 'swarm.cjs');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `swarm <args>` with a clean environment (no SWARM_* of the caller's, no CI colour surprises). */
export async function swarm(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): Promise<Run> {
  const base: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
  const result = await execa('node', [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...base, ...options.env },
    extendEnv: false,
    reject: false,
    input: options.input ?? '',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function tempDir(prefix = 'swarm-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A repository on `main` in `dir`, with a test identity and one commit of everything in it. */
export function initRepo(dir: string, message = 'start'): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.invalid');
  git(dir, 'config', 'user.name', 'test');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** Files from an object literal: { 'a/b.txt': 'text' }. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, text);
  }
}

export interface TestPlan {
  root: string;
  plan: string;
  cleanup: () => void;
  /** The SWARM_* environment of an agent in a pane of this plan. */
  agentEnv: (lane: string, extra?: Record<string, string>) => Record<string, string>;
}

/**
 * A git repository with a plan (PLAN.md with a contract), runtime files ignored, one commit.
 */
export function testPlan(options: { contract?: string } = {}): TestPlan {
  const { dir, cleanup } = tempDir();
  const plan = join(dir, 'plans', 'p1');
  writeTree(dir, {
    'plans/p1/PLAN.md': `---\ncontract: ${options.contract ?? 'c-1'}\n---\n# Plan\n\nSteps.\n`,
    '.gitignore': 'plans/*/.swarm/\nplans/*/journal.jsonl\nplans/*/lead.json\nplans/*/analysis_results/\n',
    'src/app.txt': 'one\n',
  });
  initRepo(dir);
  const agentEnv = (lane: string, extra: Record<string, string> = {}) => ({
    SWARM_PLAN: plan,
    SWARM_LANE: lane,
    SWARM_ROLE: lane.startsWith('lead') ? 'lead' : 'lane',
    SWARM_ACCOUNT: `acct-${lane}`,
    SWARM_GENERATION: '1',
    SWARM_EPOCH: '1',
    ...extra,
  });
  return { root: dir, plan, cleanup, agentEnv };
}
