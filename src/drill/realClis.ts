/**
 * The published CLIs `swarm drill --real` runs: `claude` and `codex` from PATH, else from
 * the cache folder scripts/real-clis.mjs installs them into ($SWARM_REAL_CLIS, else
 * $XDG_CACHE_HOME/swarm/real-clis, else ~/.cache/swarm/real-clis). Their versions go into the evidence.
 */
import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { DependencyError } from '../errors.js';
import { findOnPath } from '../adapters/which.js';

export interface RealClis {
  /** Folders to put first on the panes' PATH. */
  dirs: string[];
  versions: Record<'claude' | 'codex', string>;
}

export function cacheBin(env: NodeJS.ProcessEnv): string {
  const dir = env.SWARM_REAL_CLIS || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'swarm', 'real-clis');
  return join(dir, 'node_modules', '.bin');
}

/**
 * Find both and ask their versions. `scratch` is an empty folder of the run: `--version` runs with
 * HOME, CLAUDE_CONFIG_DIR and CODEX_HOME there, since even `codex --version` writes helper binaries
 * into $CODEX_HOME/tmp (by default the developer's ~/.codex).
 */
export function findRealClis(env: NodeJS.ProcessEnv, scratch: string): RealClis {
  // PATH first, as the README promises: the developer's own CLIs win over the pinned cache.
  const search = { PATH: [env.PATH ?? '', cacheBin(env)].join(delimiter) };
  const dirs: string[] = [];
  const versions = { claude: '', codex: '' };
  for (const name of ['claude', 'codex'] as const) {
    const path = findOnPath(name, search);
    if (path === null) {
      throw new DependencyError(`swarm drill --real: \`${name}\` is neither on PATH nor in ${cacheBin(env)}`, {
        hint: 'install the pinned CLIs with `node scripts/real-clis.mjs` (from a swarm checkout), or put them on PATH',
      });
    }
    try {
      const quiet = { ...env, HOME: scratch, CLAUDE_CONFIG_DIR: scratch, CODEX_HOME: scratch, DISABLE_AUTOUPDATER: '1' };
      versions[name] = execFileSync(path, ['--version'], { env: quiet, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim();
    } catch (error) {
      throw new DependencyError(`swarm drill --real: \`${path} --version\` failed: ${(error as Error).message}`);
    }
    if (!dirs.includes(dirname(path))) dirs.push(dirname(path));
  }
  return { dirs, versions };
}
