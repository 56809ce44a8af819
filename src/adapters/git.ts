/** The checkout's git state, as a packet records it and `swarm accept` re-checks it. */
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

export interface GitState {
  repo: string | null;
  branch: string | null;
  head: string | null;
  pushed: boolean | null;
  /** `git status --porcelain` paths (relative to the repository), less the plan's own runtime folders. */
  uncommitted: string[];
}

/** Run git in `cwd` for its effect; throws (with git's stderr) when it fails. */
export function runGit(cwd: string, args: string[]): void {
  execFileSync('git', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

/**
 * What a lane's checkout did since `since` (the head recorded when the run began): its branch now,
 * the commits and the files they changed; commits and files null when `since` is unknown or gone.
 */
export function workSince(checkout: string, since: string | null): { branch: string | null; commits: number | null; files: string[] | null } {
  const branch = branchOf(checkout);
  if (since === null || !/^[0-9a-f]{7,64}$/.test(since)) return { branch, commits: null, files: null };
  const count = git(checkout, ['rev-list', '--count', `${since}..HEAD`])?.trim();
  const files = git(checkout, ['diff', '--name-only', '-z', since, 'HEAD']);
  return { branch, commits: count && /^\d+$/.test(count) ? Number(count) : null, files: files === null ? null : files.split('\0').filter(Boolean) };
}

/** The branch checked out in `checkout`, or null (a detached head, or no repository). */
export function branchOf(checkout: string): string | null {
  return git(checkout, ['symbolic-ref', '--quiet', '--short', 'HEAD'])?.trim() || null;
}

/**
 * The folders git writes for a checkout: its own git folder and the common one (for a worktree, its
 * `.git/worktrees/<name>` and the main repository's `.git`), absolute; none outside a repository.
 */
export function gitDirs(checkout: string): string[] {
  const out = git(checkout, ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir']);
  if (out === null) return [];
  return [...new Set(out.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('/')))];
}

/** The checkout's head commit, or null (not a repository, or no commit yet). */
export function headOf(checkout: string): string | null {
  return git(checkout, ['rev-parse', '--verify', '--quiet', 'HEAD'])?.trim() || null;
}

/**
 * Read branch, head, upstream and uncommitted paths. Outside a repository every field is null/[]
 * (the lead's checkout need not be a repo). `planDir` paths `.swarm/` and `analysis_results/` are
 * left out of the uncommitted list (SPEC 5.1).
 */
export function gitState(checkout: string, planDir: string | null): GitState {
  const top = git(checkout, ['rev-parse', '--show-toplevel'])?.trim();
  if (!top) return { repo: null, branch: null, head: null, pushed: null, uncommitted: [] };
  const branch = git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD'])?.trim() || null;
  const head = git(top, ['rev-parse', '--verify', '--quiet', 'HEAD'])?.trim() || null;
  const upstream = git(top, ['rev-parse', '--verify', '--quiet', '@{upstream}'])?.trim() || null;
  const pushed = head && upstream ? git(top, ['merge-base', '--is-ancestor', head, upstream]) !== null : upstream ? false : null;
  const status = git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all']) ?? '';
  const runtime = planDir ? runtimePaths(top, planDir) : () => false;
  return { repo: top, branch, head, pushed, uncommitted: parsePorcelainZ(status).filter((p) => !runtime(p)) };
}

/**
 * The plan's runtime paths, relative to the repository: `.swarm/`, `analysis_results/`,
 * `journal.jsonl`, and `lead.json` with the files that come and go beside it while it is changed
 * (`lead.json.lock`, `lead.json.<pid>.<n>.tmp`): a lead handing over while a lane writes or accepts
 * a packet must not change the lane's uncommitted paths. git reports the repository's real path, so
 * the plan's path is made real too (a checkout reached through a symlink must still match).
 */
function runtimePaths(top: string, planDir: string): (path: string) => boolean {
  const rel = relative(realOr(top), realOr(resolve(planDir)));
  if (rel.startsWith('..')) return () => false;
  const base = rel === '' ? '' : `${rel.split(sep).join('/')}/`;
  const folders = [`${base}.swarm/`, `${base}analysis_results/`];
  const lead = `${base}lead.json`;
  return (p) => folders.some((f) => p === f.slice(0, -1) || p.startsWith(f)) || p === `${base}journal.jsonl` || p === lead || p.startsWith(`${lead}.`);
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `XY path\0` entries; renames carry a second path (the source), which is skipped. */
export function parsePorcelainZ(text: string): string[] {
  const parts = text.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const entry = parts[i];
    if (!entry || entry.length < 4) continue;
    const code = entry.slice(0, 2);
    paths.push(entry.slice(3));
    if (code.includes('R') || code.includes('C')) i += 1;
  }
  return [...new Set(paths)].sort();
}
