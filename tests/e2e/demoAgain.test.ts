/**
 * The demo runs again and again (SPEC 10.1): simulated accounts' quotas belong to a run, so the
 * shipped demo ends `plan done` on every one of five `swarm up --headless` / `swarm down` cycles in
 * one copy of it (its spent quotas once stayed in .swarm/sim/ and the 4th run failed).
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';
import { demoRepo } from '../helpers/demoRepo.js';
import { postmortem } from '../helpers/postmortem.js';

const CYCLES = 5;

describe('the shipped demo, again and again', () => {
  const { repo, cleanup } = demoRepo();
  const socket = `swarm-demo-again-${process.pid}`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SWARM_TMUX_SOCKET: socket };
  const swarm = (args: string[], timeout = 60_000) => execa('node', [CLI, ...args], { cwd: repo, env, extendEnv: false, reject: false, timeout, stdin: 'ignore', all: true });

  afterAll(() => {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    cleanup();
  });

  it(`ends plan done on ${CYCLES} consecutive swarm up / swarm down cycles, each its own run`, async () => {
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const up = await swarm(['up', '--headless']);
      // A failure says what happened: swarm's output, the journal's end and every pane's last lines.
      const why = up.exitCode === 0 ? '' : `\n${postmortem(join(repo, 'plans', 'demo'), socket)}`;
      expect(up.exitCode, `cycle ${cycle}:\n${String(up.all).split('\n').slice(-15).join('\n')}${why}`).toBe(0);
      expect(String(up.all)).toContain('swarm demo: plan done');
      const down = await swarm(['down'], 30_000);
      expect(down.exitCode, `cycle ${cycle} down: ${String(down.all)}`).toBe(0);
    }
    const journal = readFileSync(join(repo, 'plans', 'demo', 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; run?: number });
    expect(journal.filter((e) => e.event === 'run_started').map((e) => e.run)).toEqual([1, 2, 3, 4, 5]);
    expect(journal.filter((e) => e.event === 'plan_done')).toHaveLength(CYCLES);
  }, CYCLES * 75_000);
});
