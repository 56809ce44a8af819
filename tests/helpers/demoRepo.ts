/**
 * The shipped demo as a clone has it: the tracked (and not ignored) files of swarm.yaml, .gitignore,
 * panes/ and plans/demo/, copied into a new git repository in a temporary folder (the working tree is
 * never touched).
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, git, tempDir } from './swarm.js';
import { endProcessesUnder } from './swarmUp.js';

export function demoRepo(): { repo: string; cleanup: () => void } {
  const t = tempDir('swarm-demo-');
  const repo = join(t.dir, 'repo');
  const files = git(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard', '--', 'swarm.yaml', '.gitignore', 'panes', 'plans/demo').split('\n').filter(Boolean);
  for (const file of files) if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(repo, file));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'demo');
  // A simulated agent that outlived its tmux server (it ignored the hang-up) would write on into the
  // folder being removed (ENOTEMPTY): end what the test started there first, then remove it.
  return { repo, cleanup: () => { endProcessesUnder(t.dir); t.cleanup(); } };
}
