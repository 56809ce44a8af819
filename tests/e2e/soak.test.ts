/**
 * `npm run soak` leaves nothing behind when stopped with Ctrl-C (issue 12 §7): its tmux server, the
 * swarm up it started, every pane process and its temporary directory are gone. The run itself (an
 * hour, or --minutes N) is not part of npm test.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

const SCRIPT = join(ROOT, 'scripts', 'soak.mjs');

function tmux(socket: string, ...args: string[]): string | null {
  try {
    return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

let child: ChildProcess | null = null;
let socket: string | null = null;
afterEach(() => {
  if (child !== null && child.exitCode === null) child.kill('SIGKILL');
  if (socket !== null) tmux(socket, 'kill-server');
  child = null;
  socket = null;
});

describe('npm run soak', () => {
  it('on Ctrl-C (SIGINT) removes its tmux server, swarm up, every pane process and its directory', async () => {
    const soak = spawn(process.execPath, [SCRIPT, '--minutes', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    child = soak;
    let out = '';
    soak.stdout.on('data', (d: Buffer) => (out += d.toString()));
    soak.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((res) => soak.on('exit', (code) => res(code)));
    socket = `swarm-soak-${soak.pid}`;
    const own = socket;
    const dir = (await waitFor(() => /; (\/\S+swarm-soak-\S+)\n/.exec(out)?.[1], { what: 'the soak to say its directory', timeout: 30_000 }));
    const panes = await waitFor(() => {
      const list = tmux(own, 'list-panes', '-a', '-F', '#{@swarm_lane} #{pane_pid}')?.trim().split('\n').filter((l) => /^lane-\d /.test(l)) ?? [];
      return new Set(list.map((l) => l.split(' ')[0])).size === 8 ? list.map((l) => Number(l.split(' ')[1])) : null;
    }, { what: 'all 8 lanes live', timeout: 90_000, interval: 250 });
    const children = readFileSync(`/proc/${soak.pid}/task/${soak.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    expect(children.length).toBeGreaterThan(0);

    soak.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(out).toContain('SIGINT: stopping swarm up');
    expect(tmux(own, 'list-sessions')).toBeNull();
    expect(existsSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, own))).toBe(false);
    for (const pid of [...children, ...panes]) expect({ pid, alive: alive(pid) }).toEqual({ pid, alive: false });
    expect(existsSync(dir)).toBe(false);
  });
});
