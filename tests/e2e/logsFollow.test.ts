/**
 * `swarm logs <lane> --follow` (SPEC 10.2) on the shipped demo, real tmux, this build's CLI: the lane
 * followed from its first line through its handoff into its successor's pane, every line once, each
 * pane's lines under its header; Ctrl-C ends it with exit 0. `--generation 1` ends by itself once that
 * pane is closed; with no swarm running, the saved log is printed and stderr says so.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';
import { demoRepo } from '../helpers/demoRepo.js';
import { postmortem } from '../helpers/postmortem.js';
import { waitFor } from '../helpers/waitFor.js';

describe('swarm logs --follow', () => {
  const { repo, cleanup } = demoRepo();
  const socket = `swarm-logs-follow-${process.pid}`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SWARM_TMUX_SOCKET: socket };
  const swarm = (args: string[]) => execa('node', [CLI, ...args], { cwd: repo, env, extendEnv: false, reject: false, all: true, stdin: 'ignore' });

  afterAll(() => {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    cleanup();
  });

  it('follows lane-a from g1 through its handoff into g2, each line once; Ctrl-C ends it (exit 0)', async () => {
    const up = swarm(['up', '--headless']);
    await waitFor(() => {
      execFileSync('tmux', ['-L', socket, 'has-session', '-t', '=swarm-demo'], { stdio: 'ignore' });
      return true;
    }, { timeout: 30_000, what: 'the demo session' });
    const follow = swarm(['logs', 'lane-a', '--follow']);
    const oneG1 = swarm(['logs', 'lane-a', '--generation', '1', '-f']);
    let out = '';
    let err = '';
    follow.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    follow.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const finished = await up;
    expect(finished.exitCode, `${finished.all}\n${postmortem(join(repo, 'plans', 'demo'), socket)}`).toBe(0);
    await waitFor(() => out.includes('[sim] report: done'), { timeout: 30_000, what: `g2's last report in:\n${out}\nstderr of swarm logs --follow:\n${err}` });

    follow.kill('SIGINT');
    const ended = await follow;
    expect(ended.exitCode).toBe(0);
    const lines = String(ended.stdout).split('\n');
    // Started as soon as the session exists, it may come before lane-a's first pane: then it says so first.
    const waited = lines[0] === '--- no pane of lane-a yet: waiting for one' ? 1 : 0;
    const g1 = lines.indexOf('==> lane-a g1 @sim-a2 <==');
    const g2 = lines.findIndex((l) => /^==> lane-a g2 @sim-o\d <==$/.test(l));
    expect(g1).toBe(waited);
    expect(g2).toBeGreaterThan(g1);
    expect(lines.filter((l) => l.startsWith('[sim] lane-a g1 @sim-a2'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('[sim] report: handoff '))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('[sim] accepted '))).toHaveLength(1);
    expect(lines.filter((l) => l === '[sim] report: done')).toHaveLength(1);
    expect(lines).toContain('--- lane-a g1 closed');
    expect(lines.slice(g2).some((l) => l.startsWith('[sim] accepted '))).toBe(true);

    // --generation 1: ends by itself once g1's pane is closed (it was, at g2's acceptance).
    const one = await oneG1;
    expect(one.exitCode, `${one.stderr}`).toBe(0);
    expect(String(one.stdout)).toContain('--- lane-a g1 closed');
    expect(String(one.stdout)).not.toContain('g2 @');

    // No swarm running: the saved log, and a word on stderr.
    expect((await swarm(['down'])).exitCode).toBe(0);
    const saved = await swarm(['logs', 'lane-a', '--follow']);
    expect(saved.exitCode).toBe(0);
    expect(saved.stderr).toContain('no swarm is running');
    expect(saved.stdout).toContain('[sim] report: done');
  }, 150_000);
});
