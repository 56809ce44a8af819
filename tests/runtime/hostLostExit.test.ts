/**
 * The tmux server killed (chaos seed 1005): its panes' deaths can reach the engine before the host
 * tells its loss (the control connection's end comes after the panes' ends). An exit seen while the
 * host cannot be reached is the host's loss, not the agent's: the run stops short saying the tmux
 * server is gone, blaming no agent (no quick exit, no degraded packet, no successor started on a
 * server of its own); before, the lane counted quick exits and was blocked as a broken command.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHost, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { startInProcess } from '../helpers/inProcess.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const TIMEOUTS = '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }';

/** A host whose server dies with its panes' deaths told first, and its own loss never told. */
class SilentlyDyingHost extends FakeHost {
  private gone: string | null = null;

  async unreachable(): Promise<string | null> {
    return this.gone;
  }

  override async spawn(...args: Parameters<FakeHost['spawn']>) {
    if (this.gone !== null) throw new Error('no server running on the fake socket');
    return super.spawn(...args);
  }

  die(): void {
    this.gone = 'the session is gone (no server running on /tmp/tmux-0/swarm-test)';
    for (const [paneId] of this.panes) this.exit(paneId, null);
  }
}

describe('a pane that goes with its tmux server', () => {
  it('stops the run short as a lost host, blaming no agent', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }, { name: 'lane-b' }], timeouts: TIMEOUTS }));
    const hold = () => new Promise<void>(() => undefined);
    const scripts: Scripts = { 'lane-a g1': ['ready', hold], 'lane-b g1': ['ready', hold] };
    const host = new SilentlyDyingHost(scripts);
    const swarm = await startInProcess(s, host, new HandClock());
    await waitFor(() => s.events('lane_started').length === 3, { what: 'the lead and both lanes started' });
    host.die();
    const outcome = await swarm.finished;
    await swarm.detach();
    expect(outcome).toMatchObject({ code: 1, why: expect.stringContaining('the tmux server is gone') });
    for (const event of ['agent_exited', 'degraded_handoff', 'successor_spawned', 'escalation', 'lead_takeover']) expect(s.events(event), event).toEqual([]);
    expect(s.events('host_lost')).toHaveLength(1);
  });
});
