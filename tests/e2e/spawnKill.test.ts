/**
 * Found by `npm run chaos` (seed 102): `swarm up` killed the moment tmux had made a successor's
 * pane, before the pane carried its identity (@swarm_lane, @swarm_generation), left an agent the
 * restart could not recognise; the restart spawned a second successor, and two agents of one lane
 * worked the same packet (a duplicate acceptance, then a failed commit). The pane is now made and
 * named in one tmux command, so a restart always adopts it.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

/** `lane gN` of every live pane on the swarm's server, untagged ones as `? g?`. */
function livePanes(s: TestSwarm): string[] {
  const out = execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{window_name}\t#{@swarm_lane}\t#{@swarm_generation}\t#{pane_dead}'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.startsWith('agents-') && l.endsWith('\t0')).map((l) => { const [, lane, gen] = l.split('\t'); return `${lane || '?'} g${gen || '?'}`; }).sort();
}

describe('swarm up killed the moment the successor pane exists', () => {
  it('the pane already carries its identity, and the restart adopts it: one successor, plan done', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'sleep1500,done' } }] }));
    const first = await s.up([], { SWARM_FAULT: 'pane-created:lane-a:2' });
    expect(first.signal).toBe('SIGKILL');
    const live = livePanes(s);
    expect(live).toContain('lane-a g2');
    expect(live.filter((p) => p.includes('?'))).toEqual([]);
    const run = await s.up(['--timeout', '45s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(s.agentLog().filter((l) => l === 'lane-a g2 started')).toHaveLength(1);
    expect(s.events('packet_accepted')).toHaveLength(1);
  });
});
