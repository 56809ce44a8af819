/**
 * Which `claude` and `codex` `swarm drill --real` runs: the ones on PATH first (as the README says),
 * else those of the cache folder scripts/real-clis.mjs installs; neither is exit 4 naming both places.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheBin, findRealClis } from '../../src/drill/realClis.js';
import { DependencyError } from '../../src/errors.js';
import { tempDir } from '../helpers/swarm.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('swarm-real-clis-');
  mkdirSync(join(t.dir, 'scratch'));
});
afterEach(() => t.cleanup());

/** A folder with fake `claude` and `codex` that print `<name> <where>` for --version. */
function bin(dir: string, where: string): string {
  mkdirSync(dir, { recursive: true });
  for (const name of ['claude', 'codex']) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} ${where}"\n`);
    chmodSync(file, 0o755);
  }
  return dir;
}

describe('the CLIs of swarm drill --real', () => {
  it('takes PATH first when both PATH and the cache have them', () => {
    const env = { SWARM_REAL_CLIS: join(t.dir, 'cache'), HOME: t.dir };
    bin(cacheBin(env), 'cache');
    const onPath = bin(join(t.dir, 'path-bin'), 'path');
    const clis = findRealClis({ ...env, PATH: onPath }, join(t.dir, 'scratch'));
    expect(clis).toEqual({ dirs: [onPath], versions: { claude: 'claude path', codex: 'codex path' } });
  });

  it('falls back to the cache for what PATH lacks', () => {
    const env = { SWARM_REAL_CLIS: join(t.dir, 'cache'), HOME: t.dir };
    const cache = bin(cacheBin(env), 'cache');
    const clis = findRealClis({ ...env, PATH: join(t.dir, 'empty') }, join(t.dir, 'scratch'));
    expect(clis).toEqual({ dirs: [cache], versions: { claude: 'claude cache', codex: 'codex cache' } });
  });

  it('neither on PATH nor in the cache: exit 4 naming both', () => {
    const env = { SWARM_REAL_CLIS: join(t.dir, 'cache'), HOME: t.dir, PATH: join(t.dir, 'empty') };
    let error: unknown = null;
    try {
      findRealClis(env, join(t.dir, 'scratch'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as DependencyError).message).toBe(`swarm drill --real: \`claude\` is neither on PATH nor in ${cacheBin(env)}`);
  });
});
