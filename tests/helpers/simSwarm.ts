/**
 * A swarm of simulated agents for end-to-end tests: the drill's layout (a temporary git repository
 * with a plan, a worktree per lane, swarm.yaml with `kind: sim` accounts) from any spec, and
 * `swarm up --headless` as a real child process on a private tmux socket that is killed afterwards.
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSimRepo, type SimRepo, type SimSwarmSpec } from '../../src/drill/repo.js';
import { CLI, tempDir } from './swarm.js';
import { endProcessesUnder } from './swarmUp.js';
import { killTestServer } from './tmuxServer.js';

export type Entry = Record<string, unknown> & { event: string; lane: string | null; generation: number | null; epoch: number | null };

export interface SimSwarm extends SimRepo {
  socket: string;
  /** `swarm up --headless` to its end (or `timeoutMs`). */
  up: (timeoutMs?: number) => Promise<{ code: number; stdout: string; ms: number }>;
  /** `swarm <args>` in the repository. */
  swarm: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  journal: () => Entry[];
  events: (name: string, lane?: string) => Entry[];
  /** A file of the plan's `.swarm/` runtime folder, or null. */
  runtimeFile: (path: string) => string | null;
  cleanup: () => void;
}

export function makeSimSwarm(spec: SimSwarmSpec): SimSwarm {
  const { dir, cleanup: remove } = tempDir('swarm-sim-');
  const repo = writeSimRepo(dir, spec);
  const socket = `swarm-sim-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, NO_COLOR: '1', SWARM_TMUX_SOCKET: socket };
  const journalPath = join(repo.plan, 'journal.jsonl');
  const journal = () => (existsSync(journalPath) ? readFileSync(journalPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Entry) : []);
  return {
    ...repo,
    socket,
    up: async (timeoutMs = 90_000) => {
      const started = Date.now();
      const r = await execa('node', [CLI, 'up', repo.file, '--headless'], { cwd: repo.repo, env, extendEnv: false, reject: false, timeout: timeoutMs, stdin: 'ignore', all: true });
      return { code: r.exitCode ?? -1, stdout: String(r.all), ms: Date.now() - started };
    },
    swarm: async (args) => {
      const r = await execa('node', [CLI, ...args], { cwd: repo.repo, env, extendEnv: false, reject: false, stdin: 'ignore' });
      return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
    },
    journal,
    events: (name, lane) => journal().filter((e) => e.event === name && (lane === undefined || e.lane === lane)),
    runtimeFile: (path) => {
      const abs = join(repo.plan, '.swarm', path);
      return existsSync(abs) ? readFileSync(abs, 'utf8') : null;
    },
    cleanup: () => {
      killTestServer(socket);
      // A sim agent that outlived its server for a moment writes on into the folder being removed
      // (its run's quota files: ENOTEMPTY): end what this test started there, then remove it.
      endProcessesUnder(dir);
      remove();
    },
  };
}
