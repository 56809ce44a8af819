/**
 * Fault matrix, column T (docs/reliability.md §1): the tmux server dies at each moment. The run
 * stops short and says so (host_lost, exit 1, what to do); `swarm up` again starts a new engine on a
 * host with no panes, as after tmux died: every unfinished lane resumes with a successor, and the
 * plan finishes. Every cell keeps the invariants (tests/helpers/faultRun.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MOMENTS } from '../helpers/faultMoments.js';
import { invariants, runCell, type Fault, type Run } from '../helpers/faultRun.js';

let run: Run | null = null;
afterEach(async () => {
  await run?.t.cleanup();
  run = null;
});

const serverDies: Fault = { name: 'the tmux server dies', restart: 'empty', strike: (r) => { r.host.loseServer(); } };
const count = (r: Run, event: string, lane?: string) => r.t.events(event).filter((e) => lane === undefined || e.lane === lane).length;
/** The last acceptance of lane-a: a successor started by the second engine, from a degraded packet. */
const resumedDegraded = (r: Run) => {
  const accepted = r.t.events('packet_accepted').filter((e) => e.lane === 'lane-a');
  expect(String(accepted.at(-1)?.packet)).toMatch(/-degraded\.yaml$/);
};

describe('fault matrix T: the tmux server dies, then swarm up again', () => {
  it.each<[keyof typeof MOMENTS, string, (r: Run) => void]>([
    ['working', 'the lane resumes with a successor on a degraded packet', resumedDegraded],
    ['near', 'the near lane resumes with a successor on a degraded packet', resumedDegraded],
    ['writing', 'the packet never came: a degraded packet, one successor', (r) => {
      resumedDegraded(r);
      expect(count(r, 'packet_accepted', 'lane-a')).toBe(1);
    }],
    ['reported', 'the reported packet survives: a successor accepts a packet once', (r) => {
      expect(count(r, 'packet_accepted', 'lane-a')).toBeGreaterThanOrEqual(1);
      expect(new Set(r.t.events('packet_accepted').map((e) => e.packet)).size).toBe(count(r, 'packet_accepted'));
    }],
    ['spawning', 'the spawn intent saved, no pane yet: a successor starts, lane-a\'s packet accepted once', (r) => {
      expect(r.t.events('packet_accepted').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
      expect(r.t.events('escalation')).toEqual([]);
    }],
    ['unaccepted', 'the successor never accepted: the next engine starts one that does', (r) => {
      expect(count(r, 'packet_accepted', 'lane-a')).toBe(1);
    }],
    ['accepted', 'the acceptance is kept: the next engine resumes the accepted generation\'s lane', (r) => {
      expect(r.t.events('packet_accepted')[0]).toMatchObject({ lane: 'lane-a', from_generation: 1 });
    }],
    ['gate', 'the gate in flight runs again in the new engine: done once', (r) => {
      expect(r.t.events('lane_result').filter((e) => e.result === 'done')).toHaveLength(1);
    }],
    ['ask', 'the asking lane resumes with a successor; no takeover for the ask', (r) => {
      resumedDegraded(r);
      expect(count(r, 'lead_unreachable')).toBe(0);
    }],
    ['handover', 'the half-done handover: a lead leads the resumed run, one lead_notice at most per epoch', (r) => {
      expect(count(r, 'plan_done')).toBe(1);
    }],
    ['release', 'the lanes stay done; the resumed run releases the plan once', (r) => {
      expect(count(r, 'lane_result')).toBe(1);
      expect(count(r, 'plan_done')).toBe(1);
    }],
  ])('%s: %s', async (moment, _what, outcome) => {
    const r = (run = await runCell(MOMENTS[moment]!, serverDies));
    if (process.env.FAULT_DEBUG) console.log(r.t.journal().map((e) => `${String(e.event)} ${String(e.lane)} ${String(e.why ?? e.reason ?? e.packet ?? '')}`).join('\n'), r.outcomes);
    if (process.env.FAULT_DEBUG) console.log(r.hosts.map((h) => [...h.panes.values()].map((p) => [p.info.paneId, p.info.lane, p.info.generation, p.info.dead])));
    expect(r.outcomes).toMatchObject([{ code: 1, why: expect.stringContaining('the tmux server is gone') }, { code: 0, why: 'plan done' }]);
    expect(r.t.events('host_lost')).toMatchObject([{ what: expect.any(String) }]);
    invariants(r, `${moment} × T`);
    outcome(r);
  }, 60_000);
});
