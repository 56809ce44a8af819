/**
 * `swarm up` from a short terminal (100×12, on a real pseudo-terminal) on real tmux: the agents'
 * panes are made however small the attached terminal is (tmux says "no space for new pane" when a
 * window the terminal's size is split six ways), every lane starts, and no lease is held by a lane
 * without an agent. The private tmux server is killed afterwards, always.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IPty } from 'node-pty';
import { CLI } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { endWindowZero } from '../helpers/windowZero.js';

let t: TestSwarm | null = null;
let pty: IPty | null = null;

afterEach(async () => {
  try {
    pty?.kill('SIGKILL');
  } catch {
    // already gone
  }
  pty = null;
  if (t) await endWindowZero(t);
  t = null;
});

const tmux = (s: TestSwarm, ...args: string[]): string => execFileSync('tmux', ['-L', s.socket, ...args], { encoding: 'utf8' });

/** The lanes each lease file names. */
function leasedLanes(s: TestSwarm): string[] {
  const dir = join(s.plan, '.swarm', 'leases');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { lane: string }).lane).sort();
}

describe('swarm up from a 100x12 terminal', () => {
  it('starts every lane in panes of their own size: no "no space for new pane", no lease held by nobody', { timeout: 90_000 }, async () => {
    const lanes = ['lane-a', 'lane-b', 'lane-c', 'lane-d', 'lane-e', 'lane-f', 'lane-g'];
    const accounts = ['a1', ...lanes.map((_, i) => `b${i + 1}`)].map((id) => ({ id, vendor: 'anthropic' }));
    const s = (t = makeSwarm({ accounts, lanes: lanes.map((name) => ({ name, agent: { AGENT_G1: 'ready,sleep60000' } })) }));
    const { spawn } = await import('node-pty');
    const env = { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
    pty = spawn(process.execPath, [CLI, 'up', s.file], { name: 'xterm-256color', cols: 100, rows: 12, cwd: s.root, env });
    const settled = await waitFor(() => {
      const started = new Set(s.events('lane_started').map((e) => e.lane));
      const failed = s.events('start_failed');
      return failed.length > 0 || lanes.every((l) => started.has(l)) ? { started, failed } : null;
    }, { timeout: 60_000, what: 'every lane started, or a start failed' });
    expect(settled.failed).toEqual([]);
    expect([...settled.started].filter((l) => l !== 'lead').sort()).toEqual([...lanes].sort());
    // Every lease is held by a lane whose agent runs in a pane.
    const panes = tmux(s, 'list-panes', '-s', '-t', '=swarm-e2e', '-F', '#{@swarm_lane}').split('\n').filter((l) => l !== '');
    expect(leasedLanes(s).every((lane) => panes.includes(lane))).toBe(true);
    // The agents' windows keep their own size while the 100x12 terminal is attached.
    const sizes = tmux(s, 'list-windows', '-t', '=swarm-e2e', '-F', '#{window_name} #{window_width}x#{window_height}').trim().split('\n');
    for (const line of sizes.filter((l) => l.startsWith('agents-'))) expect(line).toMatch(/ 200x50$/);
  });
});
