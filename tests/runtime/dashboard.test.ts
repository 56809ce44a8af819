import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardLoop } from '../../src/core/dashboardLoop.js';
import { dashboardWindowArgv, paneEnvArgs } from '../../src/adapters/tmux/argv.js';
import { tempDir } from '../helpers/swarm.js';

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
    expect(out.split('\u001b[H\u001b[2J')).toHaveLength(3);
  });
});

describe('paneEnvArgs', () => {
  it.each<[string, NodeJS.ProcessEnv, string[]]>([
    ['empty', {}, []],
    ['sorted, as -e pairs', { B: '2', A: '1' }, ['-e', 'A=1', '-e', 'B=2']],
    ['values kept verbatim: spaces, newlines, quotes', { MSG: "a b\nc 'd'" }, ['-e', "MSG=a b\nc 'd'"]],
    ['tmux, terminal and CI variables left out', { TMUX: '/tmp/t,1,0', TMUX_PANE: '%1', TERM: 'xterm', TERM_PROGRAM: 'x', CI: 'true', CONTINUOUS_INTEGRATION: '1', COLUMNS: '80', LINES: '24', HOME: '/h' }, ['-e', 'HOME=/h']],
    ['undefined values left out', { A: undefined, B: '' }, ['-e', 'B=']],
  ])('%s', (_name, env, expected) => {
    expect(paneEnvArgs(env)).toEqual(expected);
  });
});

describe('dashboardWindowArgv', () => {
  const cmd = ['/bin/sh', '-c', 'loop'];
  const env = ['-e', 'A=1'];
  it.each<[string, string | null, string[]]>([
    ['no session: a new one, window 0 named swarm at the terminal size', null,
      ['new-session', '-d', '-s', 'swarm-demo', '-n', 'swarm', '-x', '120', '-y', '40', '-c', '/repo', '-e', 'A=1', '--', '/bin/sh', '-c', 'loop']],
    ['a session without the window: a new window named swarm', '',
      ['new-window', '-d', '-t', '=swarm-demo:', '-n', 'swarm', '-c', '/repo', '-e', 'A=1', '--', '/bin/sh', '-c', 'loop']],
    ['the window there (placeholder or dead loop): respawned', '@3',
      ['respawn-window', '-k', '-t', '@3', '-c', '/repo', '-e', 'A=1', '--', '/bin/sh', '-c', 'loop']],
  ])('%s', (_name, window, expected) => {
    expect(dashboardWindowArgv('swarm-demo', window, '/repo', env, cmd, { columns: 120, rows: 40 })).toEqual(expected);
  });

  it.each([null, '', '@3'])('passes the folder inert to tmux (window %j)', (window) => {
    const argv = dashboardWindowArgv('swarm-demo', window, '/repo/#(touch pwned) #{pane_id} #', env, cmd, { columns: 120, rows: 40 });
    expect(argv[argv.indexOf('-c') + 1]).toBe('/repo/##(touch pwned) ##{pane_id} ##');
  });
});
