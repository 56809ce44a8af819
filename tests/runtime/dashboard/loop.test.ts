import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardLoop, exitedStatus } from '../../../src/runtime/dashboard/loop.js';
import { tempDir } from '../../helpers/swarm.js';

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe('dashboardLoop: window 0 restarts an engine that died', () => {
  it('passes the engine argv as "$@", never inside the script', () => {
    const argv = dashboardLoop(['/usr/bin/node', '/x/cli.js', 'up', "/it's here/swarm.yaml", '--dashboard']);
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv.slice(3)).toEqual(['swarm-dashboard', '/usr/bin/node', '/x/cli.js', 'up', "/it's here/swarm.yaml", '--dashboard']);
    expect(argv[2]).not.toContain('swarm.yaml');
  });

  it('runs again after a crash, stops after a clean exit, and hides CI from the engine', () => {
    const { dir, cleanup: remove } = tempDir('swarm-loop-');
    cleanup = remove;
    const runs = join(dir, 'runs');
    const engine = join(dir, 'engine.sh');
    writeFileSync(runs, '');
    // First run: exit 3 (a crash); second run: exit 0 (a deliberate end).
    writeFileSync(engine, `#!/bin/sh\necho "run CI=\${CI-unset}" >> "$1"\n[ "$(wc -l < "$1")" -ge 2 ] && exit 0\nexit 3\n`, { mode: 0o755 });
    const [sh, c, script, name, ...rest] = dashboardLoop([engine, runs]);
    const out = execFileSync(sh!, [c!, script!, name!, ...rest], { env: { PATH: process.env.PATH, CI: 'true' }, encoding: 'utf8', timeout: 10_000 });
    expect(readFileSync(runs, 'utf8')).toBe('run CI=unset\nrun CI=unset\n');
    expect(out).toContain('swarm: the engine exited (status 3); restarting in 2 s\n');
    // The line `swarm up --detach` reads the failed engine's status from.
    expect(out.replaceAll('\u001b[H\u001b[2J', '\n').split('\n').map(exitedStatus).filter((status) => status !== null)).toEqual([3]);
    expect(out.split('\u001b[H\u001b[2J')).toHaveLength(3);
  });
});

describe('exitedStatus: the loop\'s line for an engine that failed', () => {
  it.each<[string, number | null]>([
    ['swarm: the engine exited (status 5); restarting in 2 s', 5],
    ['swarm: the engine exited (status 137); restarting in 2 s', 137],
    ['swarm: the engine exited (status ); restarting in 2 s', null],
    ['  swarm: the engine exited (status 5); restarting in 2 s', null],
    ['swarm up cannot start: cannot write journal.jsonl', null],
    ['', null],
  ])('%j → %s', (line, want) => {
    expect(exitedStatus(line)).toBe(want);
  });
});
