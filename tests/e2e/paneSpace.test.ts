/**
 * A pane tmux has no space for (its "no space for new pane") is made another way: in a window of its
 * own. Real tmux on a private socket (killed afterwards, pass or fail), behind a wrapper that refuses
 * every split as a window too small would.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PaneSpec } from '../../src/adapters/host.js';
import { TmuxHost } from '../../src/adapters/tmux/host.js';

const socket = `swarm-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const session = 'swarm-e2e';
const dir = mkdtempSync(join(tmpdir(), 'swarm-space-'));
const tmuxPath = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
const bin = join(dir, 'tmux-no-space');
writeFileSync(bin, `#!/bin/sh\nfor a in "$@"; do [ "$a" = split-window ] && { echo 'no space for new pane' >&2; exit 1; }; done\nexec ${tmuxPath} "$@"\n`);
chmodSync(bin, 0o755);
const host = new TmuxHost({ socket, session, paneDeathFile: join(dir, 'deaths.jsonl'), bin });

afterAll(async () => {
  await host.detach().catch(() => undefined);
  try {
    execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // no server left
  }
  rmSync(dir, { recursive: true, force: true });
});

const spec = (lane: string): PaneSpec => ({
  lane, generation: 1, account: 'work1', role: 'lane', cwd: dir, title: `${lane} g1 @work1`, argv: ['sleep', '60'], env: { PATH: process.env.PATH ?? '' },
});

describe('a pane tmux has no space for', () => {
  it('is made in a new agents window, of its own size', async () => {
    await host.start();
    await host.spawn(spec('lane-a'));
    await host.spawn(spec('lane-b')); // agents-1 has no space for it
    const panes = (await host.list()).map((p) => p.lane).sort();
    expect(panes).toEqual(['lane-a', 'lane-b']);
    const windows = execFileSync('tmux', ['-L', socket, 'list-windows', '-t', `=${session}`, '-F', '#{window_name} #{window_panes} #{window_width}x#{window_height}'], { encoding: 'utf8' });
    expect(windows.trim().split('\n').filter((l) => l.startsWith('agents-'))).toEqual(['agents-1 1 200x50', 'agents-2 1 200x50']);
  });
});
