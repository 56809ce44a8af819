/**
 * A newcomer's first night (SPEC 10.2), with this build's CLI on real git and tmux: a scratch git
 * repository, a scratch HOME holding signed-in profiles (`.credentials.json`, `auth.json`; never read)
 * and fake `claude` / `codex` on PATH (they answer --version, then act as the scripted fixture agent).
 * `swarm init --yes` writes the swarm and the worktrees; `validate` passes; `doctor` names exactly the
 * trust left to give; `swarm up` refuses (exit 4) until the test writes that trust (swarm never does),
 * then runs to `plan done`. With no profile at all, init writes a simulated swarm that runs at once.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, git, tempDir } from '../helpers/swarm.js';

const ARGV = join(ROOT, 'tests', 'fixtures', 'bin-argv');
const DOCTOR = join(ROOT, 'tests', 'fixtures', 'bin-doctor');

describe('swarm init: a first night', () => {
  const t = tempDir('swarm-init-');
  const socket = `swarm-init-${process.pid}`;
  afterAll(() => {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    t.cleanup();
  });

  function scratch(name: string): { repo: string; home: string; bin: string } {
    const repo = join(t.dir, name, 'app');
    const home = join(t.dir, name, 'home');
    const bin = join(t.dir, name, 'bin');
    for (const d of [repo, home, bin]) mkdirSync(d, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, '-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'start');
    for (const cli of ['claude', 'codex']) {
      writeFileSync(join(bin, cli), `#!/bin/sh\nif [ "$1" = "--version" ]; then exec ${join(DOCTOR, cli)} --version; fi\nexec ${join(ARGV, cli)} "$@"\n`);
      chmodSync(join(bin, cli), 0o755);
    }
    return { repo, home, bin };
  }

  const run = (where: { repo: string; home: string; bin: string }, args: string[], extra: Record<string, string> = {}) =>
    execa('node', [CLI, ...args], {
      cwd: where.repo, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000,
      env: { PATH: `${where.bin}:${process.env.PATH ?? ''}`, HOME: where.home, NO_COLOR: '1', SWARM_TMUX_SOCKET: socket, ...extra },
    });

  it('finds the profiles, writes the swarm and the worktrees; up refuses until trust is given, then the plan is done', async () => {
    const s = scratch('real');
    for (const [dir, file] of [['.claude', '.credentials.json'], ['.claude-work1', '.credentials.json'], ['.codex-empty', '']] as const) {
      mkdirSync(join(s.home, dir));
      if (file) writeFileSync(join(s.home, dir, file), 'SECRET-NEVER-READ');
    }
    // A profile kept elsewhere and linked into HOME (a dotfiles repository) is found too.
    mkdirSync(join(t.dir, 'real', 'dotfiles', 'codex-night'), { recursive: true });
    writeFileSync(join(t.dir, 'real', 'dotfiles', 'codex-night', 'auth.json'), 'SECRET-NEVER-READ');
    symlinkSync(join(t.dir, 'real', 'dotfiles', 'codex-night'), join(s.home, '.codex-night'));

    const init = await run(s, ['init', '--yes']);
    expect(init.exitCode, init.all).toBe(0);
    expect(init.all).toContain('signed-in profiles: ~/.claude (claude), ~/.claude-work1 (claude), ~/.codex-night (codex)');
    expect(init.all).not.toContain('SECRET');
    const yaml = readFileSync(join(s.repo, 'swarm.yaml'), 'utf8');
    expect(yaml).toContain('  - { id: claude, kind: claude, vendor: anthropic }'); // the default profile: no env
    expect(yaml).toContain('  - { id: claude-work1, kind: claude, vendor: anthropic, env: { CLAUDE_CONFIG_DIR: "~/.claude-work1" } }');
    expect(yaml).toContain('  - { id: codex-night, kind: codex, vendor: openai, env: { CODEX_HOME: "~/.codex-night" } }');
    expect(readFileSync(join(s.repo, 'plans', 'app', 'PLAN.md'), 'utf8')).toMatch(/^---\ncontract: app-v1\n# approvals:/);
    expect(readFileSync(join(s.repo, '.gitignore'), 'utf8')).toContain('plans/app/.swarm/\n');
    const lanes = ['lane-a', 'lane-b'].map((lane) => join(t.dir, 'real', `app-${lane}`));
    for (const [i, path] of lanes.entries()) expect(git(path, 'branch', '--show-current')).toBe(`swarm/lane-${'ab'[i]}`);
    expect(init.all).toMatch(/left to do:\n {2}1\. write the plan/);

    expect((await run(s, ['validate'])).exitCode).toBe(0);
    const doctor = await run(s, ['doctor', '--json']);
    const problems = (JSON.parse(String(doctor.stdout)) as { problems: { what: string }[] }).problems.map((p) => p.what);
    expect(problems).toEqual([
      `claude (claude): the checkout ${s.repo} is not trusted on ${join(s.home, '.claude')}`,
      ...lanes.map((l) => `claude-work1 (claude): the checkout ${l} is not trusted on ${join(s.home, '.claude-work1')}`),
      ...lanes.map((l) => `codex-night (codex): the checkout ${l} is not trusted on ${join(s.home, '.codex-night')}`),
    ]);

    // The preflight refuses the night as doctor would.
    const refused = await run(s, ['up', '--headless']);
    expect(refused.exitCode, refused.all).toBe(4);
    expect(refused.all).toContain('the preflight found 5 problem(s)');

    // The developer trusts the checkouts (the test writes what the CLIs would; swarm never does).
    const trusted = (paths: string[]) => JSON.stringify({ projects: Object.fromEntries(paths.map((p) => [p, { hasTrustDialogAccepted: true }])) });
    writeFileSync(join(s.home, '.claude.json'), trusted([s.repo]));
    writeFileSync(join(s.home, '.claude-work1', '.claude.json'), trusted(lanes));
    writeFileSync(join(s.home, '.codex-night', 'config.toml'), lanes.map((l) => `[projects."${l}"]\ntrust_level = "trusted"\n`).join('\n'));
    expect((await run(s, ['doctor'])).exitCode).toBe(0);

    const up = await run(s, ['up', '--headless'], { ARGV_LEAD_G1: 'ready,release', ARGV_LANE_A_G1: 'ready,done', ARGV_LANE_B_G1: 'ready,done' });
    expect(up.exitCode, up.all).toBe(0);
    expect(up.all).toContain('swarm app: plan done');
    expect((await run(s, ['down'])).exitCode).toBe(0);

    // Run again: init never overwrites (exit 2, the file named, nothing written).
    const again = await run(s, ['init', '--yes']);
    expect(again.exitCode).toBe(2);
    expect(again.all).toContain(`${join(s.repo, 'swarm.yaml')} exists`);
  }, 240_000);

  it('with no profile: a simulated swarm that runs to plan done at once', async () => {
    const s = scratch('sim');
    const init = await run(s, ['init', '--yes', '--lanes', '3']);
    expect(init.exitCode, init.all).toBe(0);
    expect(init.all).toContain('no signed-in profile was found');
    expect(init.all).toContain('doctor: this swarm can run through the night');
    const up = await run(s, ['up', '--headless']);
    expect(up.exitCode, up.all).toBe(0);
    expect(up.all).toContain('swarm app: plan done');
    for (const lane of ['lane-a', 'lane-b', 'lane-c']) expect(existsSync(join(t.dir, 'sim', `app-${lane}`, `${lane}.txt`))).toBe(true);
    expect((await run(s, ['down'])).exitCode).toBe(0);
  }, 240_000);

  it('outside a git repository, or without --yes off a terminal: exit 2, nothing written', async () => {
    const s = scratch('bad');
    const none = join(t.dir, 'bad', 'plain');
    mkdirSync(none);
    const outside = await execa('node', [CLI, 'init', '--yes'], { cwd: none, reject: false, all: true, env: { ...process.env, HOME: s.home } });
    expect(outside.exitCode).toBe(2);
    expect(outside.all).toContain('a git repository with at least one commit');
    const asked = await run(s, ['init']);
    expect(asked.exitCode).toBe(2);
    expect(asked.all).toContain('pass --yes');
    expect(existsSync(join(s.repo, 'swarm.yaml'))).toBe(false);
    expect((await run(s, ['init', '--lanes', '0'])).exitCode).toBe(2);
  });
});
