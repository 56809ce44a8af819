/**
 * The tmux server dies while a successor is being spawned (chaos seeds 2001, 2003): every spawn then
 * fails, but that is the host's loss, not the accounts'. Before, each failure burnt an account
 * (lease released, next account tried) until none was left, the lane was blocked (dependency) and
 * saved so, and `swarm up` again stopped short on that block at once instead of resuming. Now
 * nothing a lane does after the host is lost is taken as its own: the state saved with host_lost is
 * what the next `swarm up` resumes from, and it finishes the plan.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent, PaneInfo, PaneSpec } from '../../src/adapters/host.js';
import { FakeHost, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { finishInProcess, startInProcess } from '../helpers/inProcess.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const TIMEOUTS = '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }';
const LOST = 'tmux control connection closed: detached (%exit)';

/**
 * A host whose server dies as lane-a's successor is spawned: from then on every spawn (and list)
 * fails. The loss is told at once, or `tellAfterMs` later (the tmux host first asks whether the
 * session is still there), so the failed spawn comes first.
 */
class DyingHost extends FakeHost {
  private readonly told: ((event: HostEvent) => void)[] = [];
  private gone = false;

  constructor(scripts: Scripts, private readonly tellAfterMs: number | null = null) {
    super(scripts);
  }

  override async list(): Promise<PaneInfo[]> {
    if (this.gone) throw new Error('tmux list-panes: error connecting to /tmp/tmux-0/swarm-test (No such file or directory)');
    return super.list();
  }

  override onEvent(listener: (event: HostEvent) => void): () => void {
    this.told.push(listener);
    return super.onEvent(listener);
  }

  override async spawn(spec: PaneSpec): Promise<PaneInfo> {
    if (spec.lane === 'lane-a' && spec.generation === 2 && !this.gone) {
      this.gone = true;
      const tell = () => { for (const listener of this.told) listener({ type: 'lost', reason: LOST }); };
      if (this.tellAfterMs === null) tell();
      else setTimeout(tell, this.tellAfterMs);
    }
    if (this.gone) throw new Error('tmux list-panes: error connecting to /tmp/tmux-0/swarm-test (No such file or directory)');
    return super.spawn(spec);
  }
}

async function up(s: TestSwarm, host: FakeHost) {
  const clock = new HandClock();
  return finishInProcess(s, await startInProcess(s, host, clock), host, clock);
}

describe('the tmux server dies while a successor is spawned', () => {
  it.each([
    ['the loss told before the spawn fails', null],
    ['the spawn failing 300 ms before the loss is told', 300],
  ])('%s: no account is burnt, no lane blocked; swarm up again resumes and finishes the plan', async (_, tellAfterMs) => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }], timeouts: TIMEOUTS }));
    const scripts: Scripts = { 'lane-a g1': ['ready', 'exit'], 'lane-a g2': ['done'] };
    const first = await up(s, new DyingHost(scripts, tellAfterMs));
    expect(first).toMatchObject({ code: 1, why: expect.stringContaining('the tmux server is gone') });
    expect(s.events('host_lost')).toHaveLength(1);
    const after = s.journal().slice(s.journal().findIndex((e) => e.event === 'host_lost'));
    expect(after.filter((e) => e.event === 'lease_released' || e.event === 'escalation')).toEqual([]);
    const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { lanes: Record<string, { state: string; blocked: unknown }> };
    expect(state.lanes['lane-a']).toMatchObject({ blocked: null });
    expect(state.lanes['lane-a']!.state).not.toBe('blocked');

    // swarm up again, on a new server with none of the old panes
    const again = await up(s, new FakeHost(scripts));
    expect(again).toMatchObject({ code: 0, why: 'plan done' });
    // lane-a's successor is spawned again on the account leased to it before, and accepts once
    expect(s.events('packet_accepted').filter((e) => e.lane === 'lane-a')).toMatchObject([{ generation: 2, account: 'o1' }]);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', passed: true }]);
  });
});
