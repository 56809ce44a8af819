/**
 * A night is many generations: what holds for a lane's first agent holds for its successors, also
 * after a restart, on real tmux (a private socket, killed afterwards). A successor is watched for
 * the stall clock and for screens like a first agent; a pane closed from tmux (`kill-pane`, a
 * user's prefix+x) is a lost lane, and the lead's a takeover.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const SHORT_STALL = '{ accept: 20s, packet: 5s, stall: 6s, ask: 30s, release: 1s }';
const tmuxOf = (s: TestSwarm, ...args: string[]) => execFileSync('tmux', ['-L', s.socket, ...args], { encoding: 'utf8' });
/** tmux's own id (`%3`) of the pane the journal names (`%3/<server>`). */
const local = (paneId: unknown) => String(paneId).split('/')[0]!;
/** When the agent log line `<who> <what>` was written (AGENT_STAMP), epoch ms. */
const stampOf = (s: TestSwarm, line: string) => Number(s.agentLog().find((l) => l.endsWith(` ${line}`))?.split(' ')[0]);

describe.each([
  ['as it runs', false],
  ['after swarm up was killed (-9) once it accepted, and started again', true],
])('a successor on tmux, %s', (_, restarted) => {
  it('printing every 2 s under a 6 s stall timeout, it is never nudged; a permission dialog it draws blocks its lane at once', async () => {
    const s = (t = makeSwarm({
      kind: 'claude',
      timeouts: SHORT_STALL,
      // g2 redraws a status line every 2 s for 14 s (over two stall periods, and over one after the
      // restart), then draws a permission dialog and waits there.
      lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'stream', AGENT_STREAM_HZ: '0.5', AGENT_BLOCK_MS_lane_a: '14000', AGENT_STAMP: '1' } }],
    }));
    let run = s.up(['--timeout', '60s']);
    if (restarted) {
      await s.waitEvent('pane_closed'); // the acceptance carried out: the g2 pane is the lane's
      run.kill('SIGKILL');
      await run;
      run = s.up(['--timeout', '60s']);
    }
    const result = await run;
    expect(result.all).toContain('stopped short');
    expect(result.exitCode).toBe(1);
    expect(s.agentLog().filter((l) => l.endsWith('lane-a g2 accepted'))).toHaveLength(1);
    expect(s.events('stall_nudge').filter((e) => e.lane === 'lane-a')).toEqual([]);
    const escalations = s.events('escalation').filter((e) => e.lane === 'lane-a');
    expect(escalations).toMatchObject([{ generation: 2, class: 'permission' }]);
    // Seen within the screen reads' settle time, not after a stall period.
    const shown = stampOf(s, 'lane-a g2 permission-shown');
    expect(Date.parse(String(escalations[0]!.ts)) - shown).toBeLessThan(3_000);
  });
});

describe('a pane closed from tmux (kill-pane, as prefix+x does)', () => {
  it("a lane's pane: lane_lost, a degraded packet, a successor that finishes the plan", async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready', AGENT_G2: 'done' } }] }));
    const run = s.up(['--timeout', '60s']);
    await waitFor(() => s.agentLog().includes('lane-a g1 ready'), { what: 'lane-a g1 at work' });
    const started = await waitFor(() => s.events('lane_started').find((e) => e.lane === 'lane-a'), { what: 'lane-a started' });
    tmuxOf(s, 'kill-pane', '-t', local(started.paneId));
    const result = await run;
    expect(result.all).toContain('plan done');
    expect(result.exitCode).toBe(0);
    expect(s.events('degraded_handoff')).toMatchObject([{ lane: 'lane-a', reason: 'lane_lost', from_generation: 1 }]);
    expect(s.agentLog()).toContain('lane-a g2 accepted');
  });

  it("the lead's pane: taken over at epoch + 1 by the succession entry, which leads to the end", async () => {
    const s = (t = makeSwarm({
      lead: { AGENT_G1: 'ready', AGENT_G2: '' },
      succession: ['lead-b'],
      lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep4000,done' } }], // at work past the takeover (~1.5 s)
    }));
    const run = s.up(['--timeout', '60s']);
    await waitFor(() => s.agentLog().includes('lead g1 ready'), { what: 'the lead at work' });
    const lead = await waitFor(() => s.events('lane_started').find((e) => e.lane === 'lead'), { what: 'the lead started' });
    tmuxOf(s, 'kill-pane', '-t', local(lead.paneId));
    const result = await run;
    expect(result.exitCode).toBe(0);
    expect(s.events('lead_takeover')).toHaveLength(1);
    expect(s.events('lead_accepted')).toEqual([expect.objectContaining({ generation: 2, takeover: true })]);
    expect(s.agentLog()).toContain('lead-b g2 accepted');
  });
});
