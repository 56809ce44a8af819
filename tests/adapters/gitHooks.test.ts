/**
 * swarm's git hooks (SPEC 10.5) run by real git in a real repository with a bare remote: the
 * repository's own hook first, swarm's guard woken only by the base branch or a tag, its refusal
 * stopping git, nothing written into the repository. The guard here is a stand-in script (the real
 * one, `swarm git-guard`, is tested through panes in tests/e2e/gitFence.test.ts) that logs what it got.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitHooksDir, readGuard, runBase, writeGitHooks } from '../../src/adapters/gitHooks.js';
import { HOOK_NAMES, gitHooksEnv } from '../../src/core/git/hookScripts.js';
import { initRepo, tempDir, writeTree } from '../helpers/swarm.js';

let root: string;
let done: () => void;
let repo: string;
let plan: string;
let log: string;

const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
const base = () => ({ ...clean, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' });
/** A pane's git: swarm's hooks through the environment (after `extra`, the pane's own GIT_CONFIG_* entries). */
const pane = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...base(), ...extra, ...gitHooksEnv(extra, gitHooksDir(plan)) });
const git = (env: NodeJS.ProcessEnv, ...args: string[]) => spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
const head = (ref: string) => execFileSync('git', ['rev-parse', ref], { cwd: repo, env: base(), encoding: 'utf8' }).trim();
const guardLog = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
const verdict = (code: number) => writeFileSync(join(root, 'verdict'), String(code));

beforeEach(() => {
  ({ dir: root, cleanup: done } = tempDir('swarm-githooks-'));
  repo = join(root, 'repo');
  plan = join(repo, 'plans', 'p');
  log = join(root, 'guard.log');
  writeTree(repo, { 'README.md': 'x\n', '.gitignore': 'plans/*/.swarm/\n', 'plans/p/PLAN.md': '# p\n' });
  initRepo(repo);
  execFileSync('git', ['init', '-q', '--bare', join(root, 'remote.git')], { env: base() });
  execFileSync('git', ['remote', 'add', 'origin', join(root, 'remote.git')], { cwd: repo, env: base() });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: repo, env: base() });
  // The stand-in guard: `node bin git-guard <hook> <plan> args` becomes `sh fake git-guard …`.
  const fake = join(root, 'fake-guard.sh');
  writeFileSync(fake, `echo "args: $*" >> '${log}'\ncat >> '${log}'\nexit "$(cat '${join(root, 'verdict')}')"\n`);
  verdict(0);
  writeGitHooks(plan, 1, 'main', { node: '/bin/sh', bin: fake });
});
afterEach(() => done());

function ownHook(dir: string, name: string, body: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

describe("swarm's git hooks, run by git from a pane's environment", () => {
  it('writes every hook name git runs, executable, and guard.json with the run and base', () => {
    for (const name of HOOK_NAMES) expect(readFileSync(join(gitHooksDir(plan), name), 'utf8')).toMatch(/^#!\/bin\/sh\n/);
    expect(readGuard(plan)).toEqual({ run: 1, base: 'main' });
  });

  it("a commit on a lane's own branch: the repository's own hooks run, the guard is not woken", () => {
    ownHook(join(repo, '.git', 'hooks'), 'pre-commit', `echo pre-commit >> '${join(root, 'own.log')}'`);
    ownHook(join(repo, '.git', 'hooks'), 'reference-transaction', `echo "rt $1" >> '${join(root, 'own.log')}'; cat >> '${join(root, 'own.log')}'`);
    expect(git(pane(), 'switch', '-q', '-c', 'swarm/lane-a').status).toBe(0);
    expect(git(pane(), 'commit', '-q', '--allow-empty', '-m', 'lane work').status).toBe(0);
    const own = readFileSync(join(root, 'own.log'), 'utf8');
    expect(own).toContain('pre-commit');
    expect(own).toMatch(/rt prepared\n\S+ \S+ refs\/heads\/swarm\/lane-a/);
    expect(guardLog()).toBe('');
  });

  it('a commit on main wakes the guard with the prepared update; its refusal leaves main where it was', () => {
    const before = head('main');
    verdict(3);
    const r = git(pane(), 'commit', '-q', '--allow-empty', '-m', 'on main');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/reference-transaction hook|aborted/);
    expect(head('main')).toBe(before);
    // git's lines as they came: HEAD (the symbolic ref) and the branch it points at.
    expect(guardLog()).toMatch(new RegExp(`^args: git-guard reference-transaction ${plan} prepared\\n${before} [0-9a-f]{40} HEAD\\n${before} [0-9a-f]{40} refs/heads/main\\n$`));
    verdict(0);
    expect(git(pane(), 'commit', '-q', '--allow-empty', '-m', 'on main').status).toBe(0);
    expect(head('main')).not.toBe(before);
  });

  it("the repository's own refusal comes first: the guard is not asked", () => {
    ownHook(join(repo, '.git', 'hooks'), 'reference-transaction', 'cat > /dev/null; [ "$1" = prepared ] && exit 1; exit 0');
    expect(git(pane(), 'commit', '-q', '--allow-empty', '-m', 'x').status).not.toBe(0);
    expect(guardLog()).toBe('');
  });

  it('a push of a lane branch goes unasked; a push to main and a tag wake the guard with git\'s lines, and its refusal stops the push', () => {
    expect(git(pane(), 'push', '-q', 'origin', 'HEAD:refs/heads/swarm/lane-a').status).toBe(0);
    expect(guardLog()).toBe('');
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'dev'], { cwd: repo, env: base() }); // the developer's own commit, no hooks
    expect(guardLog()).toBe('');
    const remoteBefore = execFileSync('git', ['rev-parse', 'main'], { cwd: join(root, 'remote.git'), encoding: 'utf8' }).trim();
    verdict(3);
    const r = git(pane(), 'push', 'origin', 'main');
    expect(r.status).not.toBe(0);
    expect(execFileSync('git', ['rev-parse', 'main'], { cwd: join(root, 'remote.git'), encoding: 'utf8' }).trim()).toBe(remoteBefore);
    expect(guardLog()).toContain(`args: git-guard pre-push ${plan} origin ${join(root, 'remote.git')}\nrefs/heads/main ${head('main')} refs/heads/main ${remoteBefore}`);
    verdict(0);
    expect(git(pane(), 'push', '-q', 'origin', 'main').status).toBe(0);
    execFileSync('git', ['tag', 'v1'], { cwd: repo, env: base() });
    expect(git(pane(), 'push', '-q', 'origin', 'v1').status).toBe(0);
    expect(guardLog()).toMatch(/refs\/tags\/v1 [0-9a-f]{40} refs\/tags\/v1 0{40}/);
  });

  it("the repository's own core.hooksPath is honoured first, and nothing is written into the repository", () => {
    execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: repo, env: base() });
    ownHook(join(repo, '.husky'), 'pre-commit', `echo husky >> '${join(root, 'own.log')}'`);
    execFileSync('git', ['add', '.husky'], { cwd: repo, env: base() });
    expect(git(pane(), 'commit', '-q', '-m', 'hooks').status).toBe(0);
    expect(readFileSync(join(root, 'own.log'), 'utf8')).toBe('husky\n');
    expect(execFileSync('git', ['config', '--local', '--get', 'core.hooksPath'], { cwd: repo, env: base(), encoding: 'utf8' }).trim()).toBe('.husky');
    expect(git(pane(), 'status', '--porcelain').stdout).toBe('');
  });

  it('the pane’s own GIT_CONFIG_* entries still hold, swarm’s comes after them', () => {
    const env = pane({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'from-env' });
    expect(env.GIT_CONFIG_COUNT).toBe('2');
    expect(git(env, 'config', 'user.name').stdout.trim()).toBe('from-env');
    expect(git(env, 'config', 'core.hooksPath').stdout.trim()).toBe(gitHooksDir(plan));
  });

  it("the developer's git, without swarm's environment, never runs them", () => {
    verdict(3);
    expect(git(base(), 'commit', '-q', '--allow-empty', '-m', 'dev').status).toBe(0);
    expect(guardLog()).toBe('');
  });
});

describe('gitHooksEnv: after the entries that reached the pane whole', () => {
  it.each([
    [{}, '1', 'GIT_CONFIG_KEY_0', '0'],
    [{ GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'a.b', GIT_CONFIG_VALUE_0: '1', GIT_CONFIG_KEY_1: 'c.d', GIT_CONFIG_VALUE_1: '2' }, '3', 'GIT_CONFIG_KEY_2', '2'],
    // A key held back (it looked like a credential): git would refuse the count; swarm's entry takes the gap.
    [{ GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'a.b', GIT_CONFIG_VALUE_0: '1', GIT_CONFIG_VALUE_1: '2' }, '2', 'GIT_CONFIG_KEY_1', '1'],
    [{ GIT_CONFIG_COUNT: 'many' }, '1', 'GIT_CONFIG_KEY_0', '0'],
    [{ GIT_CONFIG_COUNT: ' 1 \r' }, '1', 'GIT_CONFIG_KEY_0', '0'],
  ])('%j', (given, count, key, before) => {
    const env = gitHooksEnv(given, '/p/.swarm/git-hooks');
    expect(env).toMatchObject({ GIT_CONFIG_COUNT: count, [key]: 'core.hooksPath', SWARM_GIT_CONFIG_COUNT: before });
  });
});

describe('runBase', () => {
  it('base: wins; else this run keeps what it chose; else the lead checkout’s branch now', () => {
    expect(runBase(plan, 1, 'release', repo)).toBe('release');
    execFileSync('git', ['switch', '-q', '-c', 'other'], { cwd: repo, env: base() });
    expect(runBase(plan, 1, null, repo)).toBe('main'); // run 1 chose main (beforeEach)
    expect(runBase(plan, 2, null, repo)).toBe('other');
    execFileSync('git', ['switch', '-q', '--detach'], { cwd: repo, env: base() });
    expect(runBase(plan, 2, null, repo)).toBeNull();
    expect(runBase(plan, 2, null, root)).toBeNull(); // no repository
  });
});
