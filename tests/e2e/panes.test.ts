/**
 * What a pane starts in and with, end to end: the folder tmux is handed reaches it inert (tmux
 * format-expands `-c`), and the pane's environment is the one rule of core/paneEnv.ts on both
 * backends, whatever the tmux server's own environment holds.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

/** Every path under `root` whose name is `name` (the test's own temporary tree only). */
function findNamed(root: string, name: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => p.split('/').at(-1) === name);
}

describe('a lane checkout named like a tmux format (tmux)', () => {
  it('starts the lane in that folder, and nothing in the name runs', async () => {
    const checkout = 'wt-#(touch pwned) #{pane_id} # x';
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', checkout, agent: { AGENT_G1: 'ready,done' } }] }));
    const run = await s.up(['--timeout', '40s']);
    expect(run.all).toContain('plan done');
    expect(readFileSync(join(s.root, checkout, 'done.txt'), 'utf8')).toBe('lane-a g1\n');
    expect(findNamed(s.root, 'pwned')).toEqual([]);
    expect(existsSync(join(s.root, 'repo', 'done.txt'))).toBe(false);
  });
});
