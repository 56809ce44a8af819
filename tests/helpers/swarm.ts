/** Run the built `swarm` CLI as a user or an agent would, and build throwaway plans and repos. */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { claim } from '../../src/core/lead/epochs.js';
import { updateLeadRecord } from '../../src/adapters/leadStore.js';
import { appendJournal } from '../../src/adapters/journal.js';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The `swarm` command as installed (bin/swarm.cjs picks the agents' fast path for notify/capacity). */
export const CLI = join(ROOT, 'bin', 'swarm.cjs');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** An agent's identity as swarm records it for a pane it starts (tests/fixtures/pane.mjs records it for a stand-in pane). */
export interface PaneAgent {
  plan: string;
  lane: string;
  role?: 'lead' | 'lane';
  generation?: number;
  account?: string;
  run?: number;
}

export const PANE = join(ROOT, 'tests', 'fixtures', 'pane.mjs');

/**
 * `swarm <args>` with a clean environment (no SWARM_* of the caller's, no CI colour surprises).
 * An agent's command (SPEC 10.3: an agent is known by the pane swarm started it in, never by its
 * environment) runs under a stand-in pane recorded for `pane`; by default, for an environment that
 * names a plan and a lane (t.agentEnv), the agent it names. `pane: false`: outside every pane.
 */
export async function swarm(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string; pane?: PaneAgent | false; before?: string } = {}): Promise<Run> {
  const base: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, SWARM_STATE_DIR: process.env.SWARM_STATE_DIR, NO_COLOR: '1' };
  const env = options.env ?? {};
  const agent = options.pane === false ? null : options.pane ?? paneOf(env);
  // `before`: a shell line the stand-in pane runs first (e.g. wait for a file), then the command.
  const command = options.before === undefined ? [process.execPath, CLI, ...args] : ['sh', '-c', `${options.before}\nexec "$0" "$@"`, process.execPath, CLI, ...args];
  const argv = agent === null ? [CLI, ...args] : [PANE, JSON.stringify(paneRecord(agent)), ...command];
  const result = await execa('node', argv, {
    cwd: options.cwd ?? ROOT,
    env: { ...base, ...env },
    extendEnv: false,
    reject: false,
    input: options.input ?? '',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The agent an agent environment names (SWARM_PLAN and SWARM_LANE set), else null. */
function paneOf(env: Record<string, string | undefined>): PaneAgent | null {
  if (!env.SWARM_PLAN || !env.SWARM_LANE) return null;
  return {
    plan: env.SWARM_PLAN,
    lane: env.SWARM_LANE,
    role: env.SWARM_ROLE === 'lead' ? 'lead' : 'lane',
    generation: Number(env.SWARM_GENERATION ?? '1') || 1,
    account: env.SWARM_ACCOUNT ?? 'a1',
    run: Number(env.SWARM_RUN ?? '1') || 1,
  };
}

function paneRecord(agent: PaneAgent): Required<PaneAgent> {
  return { role: agent.lane.startsWith('lead') ? 'lead' : 'lane', generation: 1, account: 'a1', run: 1, ...agent };
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

/**
 * The lead record as `swarm up` claims it before it starts any lane (SPEC 10.3: no command claims
 * it), for tests of the commands that need one; returns a Run so call sites read as the CLI did.
 */
export function claimAsUp(plan: string, options: { lead?: string; account?: string; succession?: string[] } = {}): Run {
  const lead = options.lead ?? 'lead';
  const outcome = updateLeadRecord(plan, (current) => claim(current, { plan: basename(plan), lead, account: options.account ?? `acct-${lead}`, succession: options.succession ?? [], now: new Date().toISOString() }));
  if (!outcome.ok) return { code: 3, stdout: '', stderr: outcome.message };
  appendJournal(plan, { type: 'observation', event: 'lead_claimed', lane: lead, epoch: outcome.record.epoch, by: lead });
  return { code: 0, stdout: `${basename(plan)}: lead ${lead}@${outcome.record.epoch}\n`, stderr: '' };
}

/** Every record the plan's agents wrote, from all their spools (SPEC 10.3), as written (not as the engine attributes them). */
export function spoolRecords(plan: string): Record<string, unknown>[] {
  const root = join(plan, '.swarm', 'spool');
  const out: Record<string, unknown>[] = [];
  for (const run of existsSync(root) ? readdirSync(root).sort() : []) {
    for (const agent of readdirSync(join(root, run)).sort()) {
      const file = join(root, run, agent, 'records.jsonl');
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line) as Record<string, unknown>);
    }
  }
  return out;
}

/** One agent's spool file (`r<run>/<name>-g<N>/records.jsonl`). */
export function spoolPath(plan: string, lane: string, generation = 1, run = 1): string {
  return join(plan, '.swarm', 'spool', `r${run}`, `${lane}-g${generation}`, 'records.jsonl');
}
