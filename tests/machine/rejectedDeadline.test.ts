/**
 * A rejected packet never stalls its lane: the lane may report a new packet until `timeouts.packet`
 * has passed since its first report; then swarm writes the degraded packet, naming the rejected one
 * and its reasons, and starts the successor. Driven by hand through reduceLane, with times.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent } from '../../src/machine/lane.js';
import { DEGRADED, MIN, PACKET, PACKET2, T0, ctx, drive, journals, only, report, types, writing } from './build.js';

const handoff = (packet = PACKET): LaneEvent => report(`handoff ${packet}\ncapacity=critical 8% @work2`);
const checked = (packet: string, ...reasons: string[]): LaneEvent => ({ type: 'packet_checked', packet, reasons });
const REPORTED = T0 + 3 * MIN; // writing() is at T0 + 2 min; packet timeout 10 min
const DUE = REPORTED + 10 * MIN;
const MODE = 'not mode 0600: the file is 0644 (run chmod 600 on it)';

const rejectedOnce = () => drive(writing(), [[handoff(), REPORTED], [checked(PACKET, MODE), REPORTED + 1000]]);

describe('a rejected packet and nothing after it', () => {
  it('arms the packet deadline at the first report plus timeouts.packet', () => {
    const { lane, steps } = rejectedOnce();
    expect(lane.phase).toBe('rejected');
    expect(lane.handoff?.firstReportAt).toBe(REPORTED);
    expect(only(steps[1]!.effects, 'set_timer')).toEqual([expect.objectContaining({ timer: 'packet', at: DUE })]);
  });

  it('writes the degraded packet naming the rejected packet and its reasons once the deadline passes', () => {
    const step = reduceLane(rejectedOnce().lane, { type: 'timer', timer: 'packet' }, ctx(DUE));
    expect(step.lane.phase).toBe('degraded');
    expect(step.lane.handoff?.reason).toBe('capacity_critical');
    expect(only(step.effects, 'write_degraded')).toEqual([expect.objectContaining({ rejected: { packet: PACKET, reasons: [MODE] } })]);
    const [journal] = only(step.effects, 'journal');
    expect(journal?.event).toBe('degraded_handoff');
    expect(journal?.data).toMatchObject({ rejected: PACKET, reasons: [MODE] });
    expect(String(journal?.data.why)).toContain(`no valid packet within 10 min of the first report`);
  });

  it('starts the successor from the degraded packet', () => {
    const step = drive(rejectedOnce().lane, [[{ type: 'timer', timer: 'packet' }, DUE], [{ type: 'degraded_written', packet: DEGRADED }, DUE + 10]]);
    expect(step.lane.phase).toBe('spawning');
    expect(types(step.steps[1]!.effects)).toEqual(['journal', 'pick_account']);
  });

  it('re-arms a deadline that came early', () => {
    const step = reduceLane(rejectedOnce().lane, { type: 'timer', timer: 'packet' }, ctx(DUE - 1));
    expect(step.lane.phase).toBe('rejected');
    expect(types(step.effects)).toEqual(['set_timer']);
    expect(only(step.effects, 'set_timer')[0]?.at).toBe(DUE);
  });
});

describe('the lane reports again', () => {
  it('a second rejected packet keeps the first report\'s deadline', () => {
    const { lane, steps } = drive(rejectedOnce().lane, [[handoff(PACKET2), REPORTED + 5 * MIN], [checked(PACKET2, 'missing next'), REPORTED + 5 * MIN + 10]]);
    expect(lane.phase).toBe('rejected');
    expect(lane.handoff?.firstReportAt).toBe(REPORTED);
    expect(only(steps[1]!.effects, 'set_timer')).toEqual([expect.objectContaining({ timer: 'packet', at: DUE })]);
    const degraded = reduceLane(lane, { type: 'timer', timer: 'packet' }, ctx(DUE));
    expect(only(degraded.effects, 'write_degraded')[0]?.rejected).toEqual({ packet: PACKET2, reasons: ['missing next'] });
  });

  it('a packet rejected after the deadline: the degraded packet at once', () => {
    const { lane, steps } = drive(rejectedOnce().lane, [[handoff(PACKET2), DUE + MIN], [checked(PACKET2, 'missing next'), DUE + MIN + 10]]);
    expect(lane.phase).toBe('degraded');
    expect(journals(steps[1]!.effects)).toEqual(['packet_rejected', 'degraded_handoff']);
  });

  it('a valid packet within the deadline: its successor, and the deadline gone', () => {
    const { lane, steps } = drive(rejectedOnce().lane, [[handoff(PACKET2), REPORTED + 5 * MIN], [checked(PACKET2), REPORTED + 5 * MIN + 10]]);
    expect(lane.phase).toBe('spawning');
    expect(types(steps[0]!.effects)).toContain('clear_timer');
    expect(reduceLane(lane, { type: 'timer', timer: 'packet' }, ctx(DUE)).effects).toEqual([]);
  });

  it('an agent that exits while rejected: the degraded packet names the rejected one too', () => {
    const step = reduceLane(rejectedOnce().lane, { type: 'exited', paneId: '%1', status: 1, tail: 'bye' }, ctx(REPORTED + MIN));
    expect(step.lane.phase).toBe('degraded');
    expect(only(step.effects, 'write_degraded')[0]?.rejected).toEqual({ packet: PACKET, reasons: [MODE] });
  });
});

describe('after a restart', () => {
  it('a rejected lane re-arms its packet deadline from its first report', () => {
    const step = reduceLane(rejectedOnce().lane, { type: 'resume', panes: [{ generation: 1, paneId: '%1', dead: false }] }, ctx(REPORTED + 2 * MIN));
    expect(only(step.effects, 'set_timer').filter((t) => t.timer === 'packet')).toEqual([expect.objectContaining({ at: DUE })]);
  });

  it('a degraded lane writes its packet again naming the rejected one', () => {
    const degraded = reduceLane(rejectedOnce().lane, { type: 'timer', timer: 'packet' }, ctx(DUE)).lane;
    const step = reduceLane(degraded, { type: 'resume', panes: [{ generation: 1, paneId: '%1', dead: false }] }, ctx(DUE + MIN));
    expect(only(step.effects, 'write_degraded')[0]?.rejected).toEqual({ packet: PACKET, reasons: [MODE] });
  });
});
