/**
 * The stale lead stands down (SPEC 10.5), in real tmux: after `swarm lead handover`, once lead-b has
 * accepted, the old lead is told once, in its own mailbox, that it no longer leads; its pane stays
 * open (with its account) for timeouts.release and is then closed, its account released.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const panesOf = (s: TestSwarm) => execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{pane_id} #{@swarm_lane} #{pane_dead}'], { encoding: 'utf8' })
  .split('\n').filter(Boolean);

describe('after a handover', () => {
  it('the old lead is told once that it no longer leads; its pane closes after timeouts.release, its account then released', { timeout: 90_000 }, async () => {
    const s = (t = makeSwarm({
      lead: { AGENT_G1: 'ready,handover', AGENT_G2: 'ready' },
      succession: ['lead-b'],
      lanes: [{ name: 'lane-a', account: 'a2', agent: { AGENT_G1: 'ready,sleep9000,done' } }],
      timeouts: '{ accept: 20s, packet: 5s, stall: 10m, ask: 30s, release: 4s }',
    }));
    const run = s.up(['--timeout', '60s']);
    const [accepted] = await s.waitEvent('lead_accepted', 1, 45_000);
    // Still open right after: the stale lead's pane, alive.
    expect(panesOf(s).some((p) => / lead 0$/.test(p))).toBe(true);
    const [told] = await s.waitEvent('lead_stand_down', 1, 10_000);
    expect(told).toMatchObject({ lane: 'lead', lead: 'lead-b', epoch: 2 });
    const mailbox = join(s.plan, '.swarm', 'mailbox', 'lead.md');
    expect(existsSync(mailbox) ? readFileSync(mailbox, 'utf8') : '').toContain('lead, you are no longer the lead: lead-b@2 leads now. Stand down');
    expect(existsSync(join(s.plan, '.swarm', 'mailbox', 'lead-b.md')) ? readFileSync(join(s.plan, '.swarm', 'mailbox', 'lead-b.md'), 'utf8') : '').not.toContain('no longer the lead');
    const closed = await waitFor(() => s.events('pane_closed').find((e) => e.lane === 'lead' && e.spent_generation === 1) ?? null, { timeout: 20_000, what: "the old lead's pane closed" });
    expect(closed.why).toBe('timeouts.release passed');
    expect(Date.parse(String(closed.ts)) - Date.parse(String(accepted!.ts))).toBeGreaterThanOrEqual(3000);
    expect(s.events('lease_released').filter((e) => e.lane === 'lead')).toMatchObject([{ account: 'a1', spent_generation: 1 }]);
    expect(s.events('lead_stand_down')).toHaveLength(1);
    const result = await run;
    expect(result.all).toContain('plan done');
  });
});
