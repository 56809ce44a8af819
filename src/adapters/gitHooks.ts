/**
 * swarm's git hooks on disk (SPEC 10.5): `.swarm/git-hooks/` of the plan, one script per hook name
 * (core/git/hookScripts.ts), and `guard.json` naming the run's base branch. Written when a run
 * begins and checked again on every re-adopt; a script is rewritten only when its text changed, and
 * atomically, so a pane's git never runs a half-written hook.
 */
import { join } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { HOOK_NAMES, hookScript } from '../core/git/hookScripts.js';
import { ensureDir, readTextIfExists, writeFileAtomic } from './files.js';
import { branchOf } from './git.js';

export const gitHooksDir = (plan: string): string => join(planPaths(plan).swarmDir, 'git-hooks');

const guardFile = (plan: string): string => join(gitHooksDir(plan), 'guard.json');

export interface GuardRecord {
  /** The run the base was chosen for. */
  run: number;
  /** The base branch (`base:`, else the lead checkout's branch when the run began); null when there was none (a detached head, no repository). */
  base: string | null;
}

export function readGuard(plan: string): GuardRecord | null {
  const text = readTextIfExists(guardFile(plan));
  if (text === null) return null;
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const run = typeof j.run === 'number' ? j.run : 0;
    return { run, base: typeof j.base === 'string' && j.base !== '' ? j.base : null };
  } catch {
    return null;
  }
}

/**
 * The run's base branch: swarm.yaml's `base:`, else the one this run already chose (a re-adopt keeps
 * it, whatever the lead's checkout holds now), else the branch of the lead's checkout now.
 */
export function runBase(plan: string, run: number, configured: string | null, leadCheckout: string): string | null {
  if (configured !== null) return configured;
  const saved = readGuard(plan);
  if (saved !== null && saved.run === run) return saved.base;
  return branchOf(leadCheckout);
}

/** Write the hooks and guard.json for `run`; returns the folder. */
export function writeGitHooks(plan: string, run: number, base: string | null, target: { node: string; bin: string }): string {
  const dir = gitHooksDir(plan);
  ensureDir(dir, 0o755);
  for (const name of HOOK_NAMES) {
    const path = join(dir, name);
    const script = hookScript(name, { ...target, plan, base });
    if (readTextIfExists(path) !== script) writeFileAtomic(path, script, 0o755);
  }
  const guard = `${JSON.stringify({ run, base } satisfies GuardRecord)}\n`;
  if (readTextIfExists(guardFile(plan)) !== guard) writeFileAtomic(guardFile(plan), guard);
  return dir;
}
