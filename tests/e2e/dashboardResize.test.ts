/**
 * The dashboard survives a terminal that changes width: in window 0 of the swarm's real tmux session,
 * the window resized 200 → 100 → 80 → 200 columns (`tmux resize-window`) leaves one frame on screen
 * and in tmux's history, never the earlier frames stacked above the live one.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

const ROWS = 40;
const WINDOW = '=swarm-e2e:=swarm';

let t: TestSwarm | null = null;
// cleanup kills the swarm's private tmux server (window 0's engine with it) and removes the files.
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const tmux = (s: TestSwarm, ...args: string[]): string => execFileSync('tmux', ['-L', s.socket, ...args], { encoding: 'utf8' });
/** Window 0's screen and the history above it, as text. */
const captured = (s: TestSwarm): string[] => tmux(s, 'capture-pane', '-p', '-S', '-', '-t', WINDOW).split('\n');
const headers = (lines: string[]): number => lines.filter((l) => /^swarm e2e · plan /.test(l)).length;
const footers = (lines: string[]): number => lines.filter((l) => l.startsWith('↑↓ select')).length;

describe('the dashboard on a terminal that changes width', () => {
  it('200 → 100 → 80 → 200 columns: one frame on screen and in the history, never stacked ones', async () => {
    const s = (t = makeSwarm({ lanes: ['lane-a', 'lane-b', 'lane-c'].map((name) => ({ name, agent: { AGENT_G1: 'ready,sleep60000' } })) }));
    // Window 0 as `swarm up` makes it on a terminal (runtime/dashboard/window.ts), with no client attached.
    execFileSync('tmux', ['-L', s.socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'swarm-e2e', '-n', 'swarm', '-x', '200', '-y', String(ROWS), '-c', s.root,
      '--', process.execPath, CLI, 'up', s.file, '--dashboard'], { env: { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' }, cwd: s.root });
    const settled = async (columns: number) => {
      const what = `the dashboard at ${columns} columns`;
      await waitFor(() => {
        const lines = captured(s);
        const width = Number(tmux(s, 'display-message', '-p', '-t', WINDOW, '#{window_width}').trim());
        return width === columns && lines.some((l) => /^. \S lane-c g1 .*capacity=ok 80%/.test(l)) ? lines : null;
      }, { timeout: 45_000, interval: 100, what }).catch((error: Error) => {
        throw new Error(`${error.message}\n--- window 0 ---\n${captured(s).join('\n')}`);
      });
    };
    await settled(200);
    for (const columns of [100, 80, 200]) {
      tmux(s, 'resize-window', '-t', WINDOW, '-x', String(columns), '-y', String(ROWS));
      await settled(columns);
      // Ink draws at most 10 frames a second: give the frames this resize causes time to land.
      await waitFor(() => {
        const before = captured(s).join('\n');
        return new Promise<string | null>((resolve) => setTimeout(() => resolve(captured(s).join('\n') === before ? before : null), 400));
      }, { timeout: 10_000, what: 'a still screen' });
      const lines = captured(s);
      expect({ columns, headers: headers(lines), footers: footers(lines) }, lines.join('\n')).toEqual({ columns, headers: 1, footers: 1 });
    }
  });
});
