/**
 * A test swarm's repository with a remote, for end-to-end tests of pushes to the base branch (SPEC
 * 10.5): `origin` is a local bare repository that main is pushed to as the developer, and the
 * fixture agents run shell scripts in their panes whose lines (`tried`) keep each command's output and
 * exit status in a folder the test reads.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSwarm } from './swarmUp.js';

export interface BareRemote {
  /** The test swarm's repository, and its `origin`. */
  repo: string;
  remote: string;
  /** Where `tried` keeps each command's output. */
  out: string;
  /** The swarm's environment with the developer's git identity. */
  dev: Record<string, string>;
  /** Write a shell script of `lines` beside the repository; its path. */
  script: (name: string, lines: string[]) => string;
  /** What the command `tried` as `name` printed, with its `rc=` line. */
  said: (name: string) => string;
}

/** `origin` for the swarm's repository: a bare repository beside it, main pushed there. */
export function bareRemote(s: Pick<TestSwarm, 'root' | 'env'>): BareRemote {
  const repo = join(s.root, 'repo');
  const remote = join(s.root, 'remote.git');
  const out = join(s.root, 'out');
  mkdirSync(out);
  const dev = { ...s.env, GIT_AUTHOR_NAME: 'dev', GIT_AUTHOR_EMAIL: 'dev@x', GIT_COMMITTER_NAME: 'dev', GIT_COMMITTER_EMAIL: 'dev@x' };
  execFileSync('git', ['init', '-q', '--bare', remote]);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: repo });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: repo, env: dev });
  const script = (name: string, lines: string[]): string => {
    writeFileSync(join(s.root, name), `${lines.join('\n')}\n`);
    return join(s.root, name);
  };
  return { repo, remote, out, dev, script, said: (name) => readFileSync(join(out, name), 'utf8') };
}

/** A script line: run `command`, keep its output and exit status in out/<name>. */
export const tried = (out: string, name: string, command: string): string => `( ${command} ) > '${join(out, name)}' 2>&1; echo "rc=$?" >> '${join(out, name)}'`;
