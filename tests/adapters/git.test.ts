import { execFileSync } from 'node:child_process';
import { symlinkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitState, parsePorcelainZ, workSince, type GitState } from '../../src/adapters/git.js';

describe('parsePorcelainZ', () => {
  it.each<[string, string, string[]]>([
    ['empty', '', []],
    ['only NULs', '\0\0', []],
    ['a modified file', ' M src/a.ts\0', ['src/a.ts']],
    ['staged and modified', 'MM src/a.ts\0', ['src/a.ts']],
    ['added, deleted, unmerged', 'A  new.ts\0D  gone.ts\0UU conflict.ts\0', ['conflict.ts', 'gone.ts', 'new.ts']],
    ['untracked', '?? notes.md\0', ['notes.md']],
    ['spaces in names', '?? a b.txt\0 M dir with space/c d.ts\0', ['a b.txt', 'dir with space/c d.ts']],
    ['a name with trailing spaces', '?? trail  \0', ['trail  ']],
    ['a name starting with a space', '??  lead.txt\0', [' lead.txt']],
    ['a name with a newline', '?? line\nbreak.txt\0', ['line\nbreak.txt']],
    ['a name with a CR', '?? cr\r.txt\0', ['cr\r.txt']],
    ['multi-byte names', '?? ünïcödé ✓.txt\0', ['ünïcödé ✓.txt']],
    ['a rename: the new path, not the source', 'R  new name.ts\0old name.ts\0', ['new name.ts']],
    ['a rename then another entry', 'RM new.ts\0old.ts\0 M x.ts\0', ['new.ts', 'x.ts']],
    ['a rename with a short source', 'R  renamed.ts\0a\0?? b.txt\0', ['b.txt', 'renamed.ts']],
    ['a rename in the worktree column', ' R moved.ts\0orig.ts\0', ['moved.ts']],
    ['a copy', 'C  copy.ts\0orig.ts\0', ['copy.ts']],
    ['no trailing NUL', ' M a.ts\0?? b.ts', ['a.ts', 'b.ts']],
    ['too short entries are skipped', 'M\0?? \0 M a.ts\0', ['a.ts']],
    ['sorted', '?? z.ts\0?? a.ts\0?? M.ts\0', ['M.ts', 'a.ts', 'z.ts']],
    ['deduplicated', ' M a.ts\0R  a.ts\0b.ts\0', ['a.ts']],
  ])('%s', (_name, text, expected) => {
    expect(parsePorcelainZ(text)).toEqual(expected);
  });
});

/** git with a fixed identity and no signing, whatever the machine's configuration. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Swarm Test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false',
    '-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Write files (creating folders) from an object literal. */
function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe('gitState', () => {
  let base: string;
  let repo: string;
  let head: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'swarm-git-')));
    repo = join(base, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, {
      'README.md': 'hello\n', 'src/a.ts': 'a\n', 'src/old name.ts': 'old\n', 'gone.txt': 'bye\n',
      'plans/demo/PLAN.md': '---\ncontract: v1\n---\n', '.gitignore': 'ignored.log\n',
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'init');
    head = git(repo, 'rev-parse', 'HEAD').trim();
    // The work in flight.
    write(repo, {
      'src/a.ts': 'changed\n',
      'src/deep/er/new file.ts': 'untracked in a subfolder\n',
      'staged.ts': 'staged\n',
      'plans/demo/PLAN.md': '---\ncontract: v2\n---\n',
      'plans/demo/.swarm/inbox.jsonl': '{}\n',
      'plans/demo/.swarm/state/lanes.json': '{}\n',
      'plans/demo/analysis_results/handoff/lane-a-g1.yaml': 'schema: dwp-handoff/v1\n',
      'plans/demo/.swarmish': 'not the runtime folder\n',
      'plans/other/.swarm/inbox.jsonl': 'another plan\n',
      '.swarm/top.json': 'not under the plan\n',
      'analysis_results/top.md': 'not under the plan\n',
      'ignored.log': 'ignored\n',
    });
    git(repo, 'add', 'staged.ts');
    git(repo, 'mv', 'src/old name.ts', 'src/new name.ts');
    unlinkSync(join(repo, 'gone.txt'));
  });

  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  const work = [
    '.swarm/top.json', 'analysis_results/top.md', 'gone.txt', 'plans/demo/.swarmish', 'plans/demo/PLAN.md',
    'plans/other/.swarm/inbox.jsonl', 'src/a.ts', 'src/deep/er/new file.ts', 'src/new name.ts', 'staged.ts',
  ];
  const planRuntime = [
    'plans/demo/.swarm/inbox.jsonl', 'plans/demo/.swarm/state/lanes.json', 'plans/demo/analysis_results/handoff/lane-a-g1.yaml',
  ];

  it('reads branch, head and every uncommitted path, less the plan\'s .swarm/ and analysis_results/', () => {
    expect(gitState(repo, join(repo, 'plans/demo'))).toEqual({ repo, branch: 'main', head, pushed: null, uncommitted: work });
  });

  it.each<[string, () => string, () => string | null, () => string[]]>([
    ['no plan: nothing left out', () => repo, () => null, () => [...work, ...planRuntime].sort()],
    ['from a subfolder of the checkout', () => join(repo, 'src/deep'), () => join(repo, 'plans/demo'), () => work],
    ['a plan path with a trailing slash', () => repo, () => `${join(repo, 'plans/demo')}/`, () => work],
    ['a plan at the top of the repository', () => repo, () => repo,
      () => [...work.filter((p) => p !== '.swarm/top.json' && p !== 'analysis_results/top.md'), ...planRuntime].sort()],
    ['a plan outside the repository: nothing left out', () => repo, () => join(base, 'elsewhere'), () => [...work, ...planRuntime].sort()],
  ])('%s', (_name, checkout, plan, uncommitted) => {
    expect(gitState(checkout(), plan()).uncommitted).toEqual(uncommitted());
  });

  it('a checkout and plan reached through a symlink still leave the plan runtime out', () => {
    const link = join(base, 'link-to-repo');
    symlinkSync(repo, link);
    expect(gitState(link, join(link, 'plans/demo')).uncommitted).toEqual(work);
  });

  it('leaves out lead.json with the lock and temporary files beside it while a lead hands over (the demo flake of session 8), and the journal', () => {
    const dir = join(base, 'lead-files');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    write(dir, {
      'plans/demo/lead.json': '{}\n', 'plans/demo/lead.json.lock': '1\n', 'plans/demo/lead.json.4242.k3j4.tmp': '{\n', 'plans/demo/journal.jsonl': '{}\n',
      'plans/demo/lead.jsonx': 'kept\n', 'plans/demo/lead.json-notes.md': 'kept\n', 'plans/other/lead.json.lock': 'kept\n',
    });
    expect(gitState(dir, join(dir, 'plans/demo')).uncommitted).toEqual(['plans/demo/lead.json-notes.md', 'plans/demo/lead.jsonx', 'plans/other/lead.json.lock']);
  });

  it('leaves out a file named exactly like a runtime folder of the plan', () => {
    const dir = join(base, 'flat');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    write(dir, { 'plans/demo/.swarm': 'a file, not a folder\n', 'plans/demo/analysis_results': 'also a file\n', 'kept.txt': 'k\n' });
    expect(gitState(dir, join(dir, 'plans/demo'))).toEqual({ repo: dir, branch: 'main', head: null, pushed: null, uncommitted: ['kept.txt'] });
  });

  it('a repository without commits: a branch, no head', () => {
    const dir = join(base, 'fresh');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'trunk');
    write(dir, { 'a/b/c.txt': 'c\n' });
    expect(gitState(dir, null)).toEqual({ repo: dir, branch: 'trunk', head: null, pushed: null, uncommitted: ['a/b/c.txt'] });
  });

  it('a detached head: no branch', () => {
    const dir = join(base, 'detached');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'one');
    const one = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'checkout', '-q', '--detach', one);
    expect(gitState(dir, null)).toEqual({ repo: dir, branch: null, head: one, pushed: null, uncommitted: [] });
  });

  it('pushed: true when the upstream has the head, false when it does not', () => {
    const remote = join(base, 'remote.git');
    const dir = join(base, 'pushing');
    mkdirSync(dir);
    git(base, 'init', '-q', '--bare', remote);
    git(dir, 'init', '-q', '-b', 'feature');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'one');
    git(dir, 'remote', 'add', 'origin', remote);
    git(dir, 'push', '-q', '-u', 'origin', 'feature');
    const one = git(dir, 'rev-parse', 'HEAD').trim();
    expect(gitState(dir, null)).toEqual<GitState>({ repo: dir, branch: 'feature', head: one, pushed: true, uncommitted: [] });
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'two');
    const two = git(dir, 'rev-parse', 'HEAD').trim();
    expect(gitState(dir, null)).toEqual<GitState>({ repo: dir, branch: 'feature', head: two, pushed: false, uncommitted: [] });
  });

  it('outside a repository: every field null, nothing uncommitted', () => {
    const dir = join(base, 'not-a-repo');
    write(dir, { 'file.txt': 'x\n' });
    expect(() => git(dir, 'rev-parse', '--show-toplevel')).toThrow();
    expect(gitState(dir, join(dir, 'plans/demo'))).toEqual({ repo: null, branch: null, head: null, pushed: null, uncommitted: [] });
  });

  it('a checkout that does not exist: every field null', () => {
    expect(gitState(join(base, 'missing'), null)).toEqual({ repo: null, branch: null, head: null, pushed: null, uncommitted: [] });
  });
});

describe('workSince: a lane\'s work since the run began', () => {
  it('its branch, the commits since the recorded head and the files they changed; null when the head is unknown or not a commit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-work-since-'));
    try {
      git(dir, 'init', '-q', '-b', 'swarm/lane-a');
      const commit = (file: string) => {
        writeFileSync(join(dir, file), `${file}\n`);
        git(dir, 'add', file);
        git(dir, '-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', file);
        return git(dir, 'rev-parse', 'HEAD').trim();
      };
      const since = commit('base.txt');
      commit('a.txt');
      commit('b c.txt');
      expect(workSince(dir, since)).toEqual({ branch: 'swarm/lane-a', commits: 2, files: ['a.txt', 'b c.txt'] });
      expect(workSince(dir, git(dir, 'rev-parse', 'HEAD').trim())).toEqual({ branch: 'swarm/lane-a', commits: 0, files: [] });
      expect(workSince(dir, null)).toEqual({ branch: 'swarm/lane-a', commits: null, files: null });
      expect(workSince(dir, 'f'.repeat(40))).toEqual({ branch: 'swarm/lane-a', commits: null, files: null });
      expect(workSince(dir, '--output=/tmp/x')).toEqual({ branch: 'swarm/lane-a', commits: null, files: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
