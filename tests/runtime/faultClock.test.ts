/**
 * Fault matrix, column C (docs/reliability.md §1): the clock jumps six hours forward at each moment.
 * Every deadline it passes fires once, in order, with its own outcome; nothing fires twice, nothing
 * is lost, and the run keeps the invariants (tests/helpers/faultRun.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MOMENTS } from '../helpers/faultMoments.js';
import { agentFailures, invariants, JUMP, runCell, type Fault, type Run } from '../helpers/faultRun.js';

let run: Run | null = null;
afterEach(async () => {
  await run?.t.cleanup();
  run = null;
});

const jump: Fault = { name: 'the clock jumps 6 h', strike: (r) => r.clock.advance(JUMP) };
const count = (r: Run, event: string, lane?: string) => r.t.events(event).filter((e) => lane === undefined || e.lane === lane).length;

describe('fault matrix C: the clock jumps forward', () => {
  it.each<[keyof typeof MOMENTS, string, (r: Run) => void]>([
    ['working', 'the stall nudge fires once, not once per stall period passed, and the agent gets a stall period to answer it; the lane then finishes', (r) => {
      expect(count(r, 'stall_nudge', 'lane-a')).toBe(1);
      expect(r.t.events('escalation').filter((e) => e.lane === 'lane-a')).toEqual([]);
      expect(count(r, 'packet_accepted')).toBe(0);
    }],
    ['near', 'one stall nudge; the near lane hands off once, its own packet accepted', (r) => {
      expect(count(r, 'stall_nudge', 'lane-a')).toBe(1);
      expect(r.t.events('packet_accepted')).toMatchObject([{ lane: 'lane-a', from_generation: 1 }]);
      expect(String(r.t.events('packet_accepted')[0]!.packet)).not.toMatch(/degraded/);
    }],
    ['writing', 'the packet deadline passes once: one degraded packet, accepted once', (r) => {
      const accepted = r.t.events('packet_accepted');
      expect(accepted).toHaveLength(1);
      expect(String(accepted[0]!.packet)).toMatch(/-degraded\.yaml$/);
      expect(r.t.events('handoff_reported').filter((e) => e.degraded === true)).toHaveLength(1);
    }],
    ['reported', 'the report is read after the jump: the packet accepted once, no deadline misfires', (r) => {
      expect(r.t.events('packet_accepted')).toHaveLength(1);
      expect(r.t.events('successor_spawned')).toHaveLength(1);
    }],
    ['spawning', 'the spawn intent saved, no pane yet: a successor starts, lane-a\'s packet accepted once', (r) => {
      expect(r.t.events('packet_accepted').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
    }],
    ['unaccepted', 'the accept deadline passes once: the successor ended, the next account\'s accepts', (r) => {
      expect(r.t.events('successor_spawned')).toHaveLength(2);
      expect(JSON.stringify(r.t.journal()).match(/no acceptance within 4 min/g)).toHaveLength(1);
      expect(r.t.events('packet_accepted')).toHaveLength(1);
    }],
    ['accepted', 'no deadline is pending once accepted: the spent pane closes once, the successor finishes', (r) => {
      expect(r.t.events('packet_accepted')).toHaveLength(1);
      expect(r.t.events('pane_closed').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
    }],
    ['gate', 'the gate\'s result lands once: done once', (r) => {
      expect(r.t.events('lane_result').filter((e) => e.result === 'done')).toHaveLength(1);
    }],
    ['ask', 'the ask times out once (one timeout is no takeover); the lane finishes', (r) => {
      expect(count(r, 'ask_timeout')).toBe(1);
      expect(count(r, 'lead_unreachable')).toBe(0);
      expect(count(r, 'lead_accepted')).toBe(0);
    }],
    ['handover', 'the new lead\'s accept deadline passes once: it is ended, the next account\'s lead-b accepts, told once', (r) => {
      expect(count(r, 'successor_spawned', 'lead')).toBe(2);
      expect(JSON.stringify(r.t.journal()).match(/no acceptance within 4 min/g)).toHaveLength(1);
      expect(count(r, 'lead_accepted')).toBe(1);
      expect(r.t.events('lead_notice')).toMatchObject([{ lane: 'lead-b' }]);
    }],
    ['release', 'the release deadline passes once: released by swarm once, plan done once', (r) => {
      expect(r.t.events('lead_released')).toMatchObject([{ by: 'swarm', why: 'timeouts.release passed' }]);
      expect(count(r, 'plan_done')).toBe(1);
    }],
    ['waiting', 'the retry time passes once: one pick again, waiting on (its only other account is limited); not one per 15 min passed', (r) => {
      expect(r.notes.waits).toBe(2);
      expect(r.t.events('packet_accepted')).toHaveLength(0);
    }],
  ])('%s: %s', async (moment, _what, outcome) => {
    const r = (run = await runCell(MOMENTS[moment]!, jump));
    if (process.env.FAULT_DEBUG) console.log(r.t.journal().map((e) => `${String(e.event)} ${String(e.lane)} ${String(e.why ?? e.reason ?? e.packet ?? '')}`).join('\n'), r.outcomes);
    expect(r.outcomes).toMatchObject([moment === 'waiting' ? { code: 1, why: expect.stringMatching(/^--timeout passed/) } : { code: 0, why: 'plan done' }]);
    invariants(r, `${moment} × C`);
    expect(agentFailures(r)).toEqual([]);
    outcome(r);
  }, 60_000);
});
