/** (state, event) → (state, phase, effect types): every row of docs/engine.md's table and every rule around it. */
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/core/protocol/protocol.js';
import { reduceLane, type LaneEvent, type LaneState, type MachineContext } from '../../src/machine/lane.js';
import {
  DEGRADED, MIN, PACKET, PACKET2, T0, accepted, attentionLane, ctx, degradedLane, doneLane, drive, gateResult, gating, leased, near,
  picking, rejected, report, reported, screenBlocked, spawned, stoppedLane, types, verdict, waitingLane, working, writing,
} from './build.js';

const AT = T0 + 20 * MIN;
const handoff = (packet = PACKET, generation = 1): LaneEvent => report(`handoff ${packet}\ncapacity=critical 8% @work2`, generation);
const ok: LaneEvent = { type: 'packet_checked', packet: PACKET, reasons: [] };

type Row = [string, () => LaneState, LaneEvent, { state: string; phase: string | null; effects: string[] }, Partial<MachineContext>?];

const rows: Row[] = [
  // capacity and the near/writing notices
  ['working, verdict handoff_soon → near', () => working(), verdict('handoff_soon'), { state: 'working', phase: 'near', effects: ['notify', 'journal'] }],
  ['working, capacity=low line → near', () => working(), report('plan ready\ncapacity=low 20% @work2'), { state: 'working', phase: 'near', effects: ['set_timer', 'notify', 'journal'] }],
  ['near, near again: once per generation', () => near(), verdict('handoff_soon'), { state: 'working', phase: 'near', effects: [] }],
  ['working, verdict handoff_now → writing', () => working(), verdict('handoff_now'), { state: 'working', phase: 'writing', effects: ['notify', 'set_timer', 'journal'] }],
  ['near, capacity=critical line → writing', () => near(), report('plan ready\ncapacity=critical 8% @work2'), { state: 'working', phase: 'writing', effects: ['set_timer', 'notify', 'set_timer', 'journal'] }],
  ['writing, handoff_now again: once per handoff', () => writing(), verdict('handoff_now'), { state: 'working', phase: 'writing', effects: [] }],
  ['writing, handoff_soon: no step back', () => writing(), verdict('handoff_soon'), { state: 'working', phase: 'writing', effects: [] }],
  ['accepted (g2), near again for the new generation', () => accepted(), verdict('handoff_soon', 2), { state: 'working', phase: 'near', effects: ['notify', 'journal'] }],
  ['working, verdict continue: nothing', () => working(), verdict('continue'), { state: 'working', phase: null, effects: [] }],
  ['working, capacity=critical line naming another account: no reading of its own, nothing', () => working(), report('PR open x\ncapacity=critical 3% @work9'), { state: 'working', phase: null, effects: ['set_timer'] }],
  ['near, capacity=critical line naming another account: stays near', () => near(), report('plan ready\ncapacity=critical 3% @work9'), { state: 'working', phase: 'near', effects: ['set_timer'] }],
  ['working, capacity=critical line naming no account → writing', () => working(), report('plan ready\ncapacity=critical 8%'), { state: 'working', phase: 'writing', effects: ['set_timer', 'notify', 'set_timer', 'journal'] }],
  // handoff reports
  ['writing, handoff → reported', () => writing(), handoff(), { state: 'working', phase: 'reported', effects: ['set_timer', 'clear_timer', 'journal', 'validate_packet'] }],
  ['near, handoff → reported', () => near(), handoff(), { state: 'working', phase: 'reported', effects: ['set_timer', 'clear_timer', 'journal', 'validate_packet'] }],
  ['none, handoff → reported', () => working(), handoff(), { state: 'working', phase: 'reported', effects: ['set_timer', 'clear_timer', 'journal', 'validate_packet'] }],
  ['reported, a corrected packet before the check → reported again', () => reported(), handoff(PACKET2), { state: 'working', phase: 'reported', effects: ['set_timer', 'clear_timer', 'journal', 'validate_packet'] }],
  ['reported, packet_checked with reasons → rejected', () => reported(), { type: 'packet_checked', packet: PACKET, reasons: ['no next'] }, { state: 'working', phase: 'rejected', effects: ['journal', 'notify', 'set_timer'] }, { now: T0 + 4 * MIN }],
  ['reported, packet_checked with reasons past timeouts.packet → degraded', () => reported(), { type: 'packet_checked', packet: PACKET, reasons: ['no next'] }, { state: 'working', phase: 'degraded', effects: ['journal', 'notify', 'clear_timer', 'journal', 'write_degraded'] }],
  ['rejected, timer packet → degraded', () => rejected(), { type: 'timer', timer: 'packet' }, { state: 'working', phase: 'degraded', effects: ['clear_timer', 'journal', 'write_degraded'] }],
  ['rejected, new handoff → reported', () => rejected(), handoff(), { state: 'working', phase: 'reported', effects: ['set_timer', 'clear_timer', 'journal', 'validate_packet'] }],
  ['reported, packet_checked ok → spawning', () => reported(), ok, { state: 'working', phase: 'spawning', effects: ['pick_account'] }],
  ['degraded (writing), the real packet arrives → reported', () => degradedLane(), handoff(), { state: 'working', phase: 'reported', effects: ['set_timer', 'clear_timer', 'journal', 'validate_packet'] }],
  // accounts and successors
  ['spawning, lease ok → spawn g2', () => picking(), { type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, { state: 'working', phase: 'spawning', effects: ['journal', 'spawn', 'set_timer'] }],
  ['spawning, lease none → waiting', () => picking(), { type: 'lease', account: null, resetsAt: null, why: 'none' }, { state: 'working', phase: 'waiting', effects: ['journal', 'set_timer'] }],
  ['waiting, timer reset → spawning', () => waitingLane(), { type: 'timer', timer: 'reset' }, { state: 'working', phase: 'spawning', effects: ['pick_account'] }],
  ['spawning, spawned → same', () => leased(), { type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, { state: 'working', phase: 'spawning', effects: ['journal'] }],
  ['spawning, accepted from g2 → accepted', () => spawned(), { type: 'accepted', generation: 2, packet: PACKET }, { state: 'working', phase: 'accepted', effects: ['clear_timer', 'record_acceptance', 'release_lease', 'close_pane', 'journal', 'journal', 'journal', 'set_timer'] }],
  ['spawning, timer accept → next account', () => spawned(), { type: 'timer', timer: 'accept' }, { state: 'working', phase: 'spawning', effects: ['clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account'] }],
  ['spawning (no pane yet), timer accept → next account, nothing to kill', () => leased(), { type: 'timer', timer: 'accept' }, { state: 'working', phase: 'spawning', effects: ['clear_timer', 'release_lease', 'journal', 'pick_account'] }],
  ['spawning, spawn_failed → next account', () => leased(), { type: 'spawn_failed', generation: 2, account: 'work3', error: 'boom' }, { state: 'working', phase: 'spawning', effects: ['clear_timer', 'release_lease', 'journal', 'pick_account'] }],
  ['spawning, lease none after a try → attention', () => drive(spawned(), [[{ type: 'timer', timer: 'accept' }, AT]]).lane, { type: 'lease', account: null, resetsAt: null, why: 'none' }, { state: 'blocked', phase: 'attention', effects: ['clear_timer', 'journal', 'escalate'] }],
  // hard limits and lost lanes
  ['writing, timer packet → degraded', () => writing(), { type: 'timer', timer: 'packet' }, { state: 'working', phase: 'degraded', effects: ['clear_timer', 'journal', 'write_degraded'] }],
  ['working, pane exited → degraded lane_lost', () => working(), { type: 'exited', paneId: '%1', status: 0 }, { state: 'lost', phase: 'degraded', effects: ['journal', 'clear_timer', 'journal', 'write_degraded'] }],
  ['rejected, agent exited → degraded lane_lost', () => rejected(), { type: 'exited', paneId: '%1', status: 0 }, { state: 'lost', phase: 'degraded', effects: ['journal', 'clear_timer', 'journal', 'write_degraded'] }],
  ['working, usage-limit screen → degraded', () => working(), { type: 'screen', screen: 'usage_limit' }, { state: 'working', phase: 'degraded', effects: ['clear_timer', 'journal', 'write_degraded', 'mark_limited'] }],
  ['writing, overflow screen → degraded, account not limited', () => writing(), { type: 'screen', screen: 'overflow' }, { state: 'working', phase: 'degraded', effects: ['clear_timer', 'journal', 'write_degraded'] }],
  ['reported, usage-limit screen: packet already reported', () => reported(), { type: 'screen', screen: 'usage_limit' }, { state: 'working', phase: 'reported', effects: ['mark_limited'] }],
  ['spawning, spent agent exits: expected, no second handoff', () => spawned(), { type: 'exited', paneId: '%1', status: 0 }, { state: 'working', phase: 'spawning', effects: ['journal'] }],
  ['spawning, the successor pane dies → next account', () => spawned(), { type: 'exited', paneId: '%2', status: 1 }, { state: 'working', phase: 'spawning', effects: ['journal', 'clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account'] }],
  ['gate running, agent exits → lost, awaiting the gate', () => gating(), { type: 'exited', paneId: '%1', status: 0 }, { state: 'lost', phase: null, effects: ['journal'] }],
  ['lost while gating, gate fails → degraded lane_lost', () => drive(gating(), [[{ type: 'exited', paneId: '%1', status: 0 }, AT]]).lane, gateResult(false, 'x'), { state: 'lost', phase: 'degraded', effects: ['journal', 'clear_timer', 'journal', 'write_degraded'] }, { doneWhen: 'npm test' }],
  // screens swarm never answers
  ...(['permission', 'bypass', 'login', 'consent', 'payment'] as const).map((screen): Row =>
    [`working, ${screen} screen → blocked`, () => working(), { type: 'screen', screen }, { state: 'blocked', phase: null, effects: ['journal', 'escalate'] }]),
  ['blocked by a screen, the same screen again: escalated once', () => screenBlocked(), { type: 'screen', screen: 'permission', text: 'other text' }, { state: 'blocked', phase: null, effects: [] }],
  ['blocked by a screen, screen gone → working', () => screenBlocked(), { type: 'screen', screen: null }, { state: 'working', phase: null, effects: ['journal'] }],
  ['working, screen gone: nothing was blocked', () => working(), { type: 'screen', screen: null }, { state: 'working', phase: null, effects: [] }],
  ['blocked by a screen, output does not unblock', () => screenBlocked(), { type: 'output' }, { state: 'blocked', phase: null, effects: ['set_timer'] }],
  ['writing but on a permission screen, timer packet → re-armed, not degraded', () => drive(writing(), [[{ type: 'screen', screen: 'permission' }, T0 + 3 * MIN]]).lane, { type: 'timer', timer: 'packet' }, { state: 'blocked', phase: 'writing', effects: ['set_timer'] }],
  // done and the gate
  ['working, done without gate → done', () => working(), report('done\ncapacity=ok 70% @work2'), { state: 'done', phase: null, effects: ['set_timer', 'clear_timer', 'journal', 'tell_lead'] }],
  ['working, done with gate → gate pending', () => working(), report('done\ncapacity=ok 70% @work2'), { state: 'working', phase: null, effects: ['set_timer', 'journal', 'run_gate'] }, { doneWhen: 'npm test' }],
  ['writing, done → done; no handoff needed', () => writing(), report('done\ncapacity=critical 8% @work2'), { state: 'done', phase: null, effects: ['set_timer', 'clear_timer', 'clear_timer', 'journal', 'tell_lead'] }],
  ['gate, passed → done', () => gating(), gateResult(true, 'ok'), { state: 'done', phase: null, effects: ['clear_timer', 'journal', 'tell_lead'] }, { doneWhen: 'npm test' }],
  ['gate, failed → working', () => gating(), gateResult(false, 'FAIL'), { state: 'working', phase: null, effects: ['journal', 'notify'] }, { doneWhen: 'npm test' }],
  ['gate running, critical verdict ignored', () => gating(), verdict('handoff_now'), { state: 'working', phase: null, effects: [] }],
  // blocked reports
  ['working, blocked <known class> → blocked', () => working(), report('blocked dependency need npm registry access\ncapacity=ok 70% @work2'), { state: 'blocked', phase: null, effects: ['set_timer', 'journal', 'escalate'] }],
  ['working, blocked <unknown class> → unchanged, DECIDE_AND_RECORD', () => working(), report('blocked hmm which one\ncapacity=ok 70% @work2'), { state: 'working', phase: null, effects: ['set_timer', 'notify'] }],
  ['spawning, blocked report from the spent agent still blocks', () => spawned(), report('blocked irreversible about to drop a table\ncapacity=critical 8% @work2'), { state: 'blocked', phase: 'spawning', effects: ['set_timer', 'journal', 'escalate'] }],
  // stall
  ['working, stall timer before due → re-armed', () => working(), { type: 'timer', timer: 'stall' }, { state: 'working', phase: null, effects: ['set_timer'] }],
  ['working, stall due → nudge', () => working(), { type: 'timer', timer: 'stall' }, { state: 'working', phase: null, effects: ['notify', 'journal', 'set_timer'] }, { now: T0 + 31 * MIN }],
  ['spawning, stall ignored (the spent agent stopped on purpose)', () => spawned(), { type: 'timer', timer: 'stall' }, { state: 'working', phase: 'spawning', effects: [] }, { now: T0 + 99 * MIN }],
  ['rejected, stall due → nudge (the lane must act)', () => rejected(), { type: 'timer', timer: 'stall' }, { state: 'working', phase: 'rejected', effects: ['notify', 'journal', 'set_timer'] }, { now: T0 + 99 * MIN }],
  // hysteresis and stale timers
  ['spawning, critical verdict changes nothing about the handoff', () => spawned(), verdict('handoff_now'), { state: 'working', phase: 'spawning', effects: [] }],
  ['waiting, ok verdict: the handoff still goes through', () => waitingLane(), verdict('continue'), { state: 'working', phase: 'waiting', effects: [] }],
  ['spawning, timer accept before the deadline → re-armed', () => spawned(), { type: 'timer', timer: 'accept' }, { state: 'working', phase: 'spawning', effects: ['set_timer'] }, { now: T0 + 6 * MIN }],
  ['writing, timer packet before due → re-armed', () => writing(), { type: 'timer', timer: 'packet' }, { state: 'working', phase: 'writing', effects: ['set_timer'] }, { now: T0 + 3 * MIN }],
  ['waiting, timer reset before due → re-armed', () => waitingLane(), { type: 'timer', timer: 'reset' }, { state: 'working', phase: 'waiting', effects: ['set_timer'] }, { now: T0 + 6 * MIN }],
  ['waiting, an account freed before the retry time → spawning now', () => waitingLane(), { type: 'account_freed', account: 'work3' }, { state: 'working', phase: 'spawning', effects: ['pick_account'] }, { now: T0 + 6 * MIN }],
  ['spawning, an account freed → nothing (the pick is under way)', () => spawned(), { type: 'account_freed', account: 'work3' }, { state: 'working', phase: 'spawning', effects: [] }],
  ['working, an account freed → nothing', () => working(), { type: 'account_freed', account: 'work3' }, { state: 'working', phase: null, effects: [] }],
  ...(['accept', 'packet', 'reset'] as const).map((timer): Row =>
    [`working, a leftover ${timer} timer → nothing`, () => working(), { type: 'timer', timer }, { state: 'working', phase: null, effects: [] }]),
];

describe('the transition table', () => {
  it.each(rows)('%s', (_name, build, event, expected, over) => {
    const step = reduceLane(build(), event, ctx(AT, over));
    expect({ state: step.lane.state, phase: step.lane.phase, effects: types(step.effects) }).toEqual(expected);
  });
});

const ignoredRows: [string, () => LaneState, LaneEvent, string][] = [
  ['a report from a retired generation', () => accepted(), report('PR open https://x.test/1\ncapacity=ok 70% @work2', 1), 'a report from retired generation 1 (the lane is at g2)'],
  ['a report from a successor not yet accepted', () => spawned(), report('plan ready\ncapacity=ok 70% @work3', 2), 'a report from generation 2, not yet accepted (the lane is at g1)'],
  ['a verdict for a retired generation', () => accepted(), verdict('handoff_now', 1), 'a verdict for generation 1 (the lane is at g2)'],
  ['the spent pane exiting after acceptance', () => accepted(), { type: 'exited', paneId: '%1', status: 0 }, "pane %1 is not the lane's current pane"],
  ['a duplicate handoff for the packet in hand', () => spawned(), handoff(), `duplicate handoff for the packet in hand (${PACKET})`],
  ['a second handoff while spawning', () => spawned(), handoff(PACKET2), `a handoff is already in flight (phase spawning, packet ${PACKET})`],
  ['a duplicate handoff while reported', () => reported(), handoff(), `duplicate handoff for the packet in hand (${PACKET})`],
  ['an accepted for another packet', () => spawned(), { type: 'accepted', generation: 2, packet: PACKET2 }, `an acceptance of ${PACKET2} by g2 is not the handoff in hand`],
  ['an accepted from another generation', () => spawned(), { type: 'accepted', generation: 3, packet: PACKET }, `an acceptance of ${PACKET} by g3 is not the handoff in hand`],
  ['a duplicate accepted', () => accepted(), { type: 'accepted', generation: 2, packet: PACKET }, `duplicate acceptance of ${PACKET}`],
  ['a check of another packet', () => reported(), { type: 'packet_checked', packet: PACKET2, reasons: [] }, `no check of ${PACKET2} is awaited (phase reported)`],
  ['a second check after spawning began', () => picking(), ok, `no check of ${PACKET} is awaited (phase spawning)`],
  ['a duplicate degraded_written', () => drive(degradedLane(), [[{ type: 'degraded_written', packet: DEGRADED }, AT]]).lane, { type: 'degraded_written', packet: DEGRADED }, 'no degraded packet is awaited (phase spawning)'],
  ['a gate result with no gate running', () => working(), gateResult(true, ''), 'no gate is running'],
  ['done twice while the gate runs', () => gating(), report('done\ncapacity=ok 70% @work2'), 'duplicate done: the gate is already running'],
  ['done during a handoff', () => spawned(), report('done\ncapacity=ok 70% @work2'), 'done during a handoff (phase spawning): the successor reports'],
  ['a duplicate start', () => working(), { type: 'started', generation: 1, account: 'work2', paneId: '%1' }, 'duplicate start'],
  ['a start of a retired generation', () => accepted(), { type: 'started', generation: 1, account: 'work2', paneId: '%1' }, 'generation 1 is retired (the lane is at g2)'],
  ['an exit already recorded', () => drive(working(), [[{ type: 'exited', paneId: '%1', status: 0 }, AT]]).lane, { type: 'exited', paneId: '%1', status: 0 }, 'the exit of this agent is already recorded'],
  ['a spawn_failed not awaited', () => spawned(), { type: 'spawn_failed', generation: 2, account: 'work3', error: 'x' }, 'no spawn of g2 on work3 is awaited'],
  ['a duplicate spawned', () => spawned(), { type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, 'duplicate spawn report'],
  ['a duplicate lease for the successor', () => leased(), { type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, 'no account was awaited (phase spawning)'],
];

describe('ignored events: the same lane, and one journal saying why', () => {
  it.each(ignoredRows)('%s', (_name, build, event, why) => {
    const lane = build();
    const step = reduceLane(lane, event, ctx(AT));
    expect(step.lane).toBe(lane);
    expect(step.effects).toEqual([{ type: 'journal', id: `${lane.name}/g${lane.generation}/ignored/${event.type}@${AT}`, event: 'ignored', kind: 'observation', data: { event: event.type, why } }]);
  });

  it('a lease nobody awaits is released, not kept', () => {
    const lane = accepted();
    const step = reduceLane(lane, { type: 'lease', account: 'work4', resetsAt: null, why: 'late' }, ctx(AT));
    expect(step.lane).toBe(lane);
    expect(types(step.effects)).toEqual(['journal', 'release_lease']);
    expect(step.effects[1]).toEqual({ type: 'release_lease', id: `lane-a/g2/release-stray/work4/${AT}`, account: 'work4' });
  });

  it('a pane spawned for a successor given up before it was seen is killed', () => {
    const lane = drive(leased(), [[{ type: 'timer', timer: 'accept' }, AT]]).lane;
    const step = reduceLane(lane, { type: 'spawned', generation: 2, account: 'work3', paneId: '%9' }, ctx(AT));
    expect(step.lane).toBe(lane);
    expect(step.effects.at(-1)).toEqual({ type: 'kill_pane', id: 'lane-a/g2/kill/work3', paneId: '%9' });
  });

  // Issue 10 items 12-13: a pane of the awaited generation left by an earlier attempt on another account
  // (its lease released) is no successor: it is killed and the successor spawned on the leased account.
  it('a pane of the awaited generation on another account than leased is killed and the successor spawned again', () => {
    const lane = leased();
    const step = reduceLane(lane, { type: 'spawned', generation: 2, account: 'work9', paneId: '%9' }, ctx(AT));
    expect(step.lane).toBe(lane);
    expect(types(step.effects)).toEqual(['journal', 'kill_pane', 'spawn']);
    expect(step.effects[0]).toMatchObject({ event: 'ignored', data: { why: 'pane %9 of g2 runs on work9, not on work3 leased for it: killed, spawned again' } });
    expect(step.effects[1]).toEqual({ type: 'kill_pane', id: 'lane-a/g2/kill/work9', paneId: '%9' });
    expect(step.effects[2]).toEqual({ type: 'spawn', id: 'lane-a/g2/spawn/work3', generation: 2, account: 'work3', packet: PACKET });
  });
});

describe('terminal and finished lanes', () => {
  const events: LaneEvent[] = [
    handoff(), verdict('handoff_now'), { type: 'output' }, { type: 'screen', screen: 'usage_limit' }, { type: 'screen', screen: 'permission' },
    { type: 'exited', paneId: '%1', status: 0 }, { type: 'timer', timer: 'stall' }, { type: 'timer', timer: 'packet' },
    { type: 'resume', panes: [] }, { type: 'started', generation: 2, account: 'work2', paneId: '%7' }, ok,
  ];
  it.each(events.map((e) => [e.type, e] as const))('stopped ignores %s silently', (_type, event) => {
    const lane = stoppedLane();
    expect(reduceLane(lane, event, ctx(AT))).toEqual({ lane, effects: [] });
  });
  it.each([
    ['a critical verdict', verdict('handoff_now')], ['another pane\'s exit', { type: 'exited', paneId: '%9', status: 0 }],
    ['a usage screen', { type: 'screen', screen: 'usage_limit' }], ['output', { type: 'output' }], ['a stall timer', { type: 'timer', timer: 'stall' }],
  ] as [string, LaneEvent][])('a done lane ignores %s', (_what, event) => {
    const lane = doneLane();
    expect(reduceLane(lane, event, ctx(AT))).toEqual({ lane, effects: [] });
  });
  it('a done lane whose agent exits: no successor, its lease released once, the pane forgotten', () => {
    const lane = doneLane();
    const step = reduceLane(lane, { type: 'exited', paneId: '%1', status: 0 }, ctx(AT));
    expect(step.lane).toEqual({ ...lane, paneId: null });
    expect(step.effects).toEqual([
      expect.objectContaining({ type: 'journal', event: 'agent_exited', data: { paneId: '%1', status: 0, last_lines: [], after: 'done' } }),
      { type: 'release_lease', id: 'lane-a/g1/release-done/work2', account: 'work2' },
      expect.objectContaining({ type: 'journal', event: 'lease_released', data: { account: 'work2', why: 'its agent left after done' } }),
    ]);
    expect(reduceLane(step.lane, { type: 'exited', paneId: '%1', status: 0 }, ctx(AT)).effects).toEqual([]);
  });
  it('attention holds the lane: capacity and reports of a new handoff change nothing', () => {
    const lane = attentionLane();
    const critical = reduceLane(lane, verdict('handoff_now'), ctx(AT));
    expect([critical.lane.phase, critical.lane.state, critical.effects]).toEqual(['attention', 'blocked', []]);
    expect(reduceLane(lane, handoff(PACKET2), ctx(AT)).lane).toBe(lane);
  });
});

describe('idempotence: the same event twice', () => {
  const pairs: [string, () => LaneState, LaneEvent][] = [
    ['handoff', () => writing(), handoff()],
    ['packet_checked', () => reported(), ok],
    ['lease', () => picking(), { type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }],
    ['spawned', () => leased(), { type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }],
    ['accepted', () => spawned(), { type: 'accepted', generation: 2, packet: PACKET }],
    ['degraded_written', () => degradedLane(), { type: 'degraded_written', packet: DEGRADED }],
    ['permission screen', () => working(), { type: 'screen', screen: 'login' }],
    ['usage screen', () => working(), { type: 'screen', screen: 'usage_limit' }],
    ['exited', () => working(), { type: 'exited', paneId: '%1', status: 1 }],
    ['gate', () => gating(), gateResult(true, '')],
    ['critical verdict', () => working(), verdict('handoff_now')],
    ['low verdict', () => working(), verdict('handoff_soon')],
  ];
  it.each(pairs)('%s', (_name, build, event) => {
    const first = reduceLane(build(), event, ctx(AT, { doneWhen: 'npm test' }));
    const second = reduceLane(first.lane, event, ctx(AT, { doneWhen: 'npm test' }));
    expect(second.lane).toEqual(first.lane);
    expect(second.effects.every((e) => e.type === 'journal' && e.event === 'ignored')).toBe(true);
    expect(second.effects.length).toBeLessThanOrEqual(1);
  });
});

describe('reports as agents send them (parsed by parseReport)', () => {
  it.each([
    ['CRLF', `handoff ${PACKET}\r\ncapacity=critical 8% @work2\r\n`, 'reported', 'capacity=critical 8% @work2'],
    ['ANSI escapes', `\x1b[1mhandoff ${PACKET}\x1b[0m\n\x1b[32mcapacity=critical 8% @work2\x1b[0m`, 'reported', 'capacity=critical 8% @work2'],
    ['upper case', `HANDOFF ${PACKET}\nCAPACITY=LOW 20% @work2`, 'reported', 'CAPACITY=LOW 20% @work2'],
    ['trailing spaces', `  handoff ${PACKET}   \n  capacity=critical 8% @work2   `, 'reported', 'capacity=critical 8% @work2'],
    ['capacity on the first line', `handoff ${PACKET} capacity=critical 8% @work2`, 'reported', 'capacity=critical 8% @work2'],
    ['multi-line note ending critical', 'finished step 2\nstarting step 3\ncapacity=critical 9% @work2', 'writing', 'capacity=critical 9% @work2'],
    ['a capacity line alone, low', 'capacity=low 20% @work2 context=41%', 'near', 'capacity=low 20% @work2 context=41%'],
    ['no capacity line: the last reading stays', 'still on step 2', null, 'capacity=ok 70% @work2'],
  ])('%s', (_name, text, phase, capacity) => {
    const lane = drive(working(), [[report('plan ready\ncapacity=ok 70% @work2'), T0 + MIN]]).lane;
    const step = reduceLane(lane, report(text), ctx(AT));
    expect(step.lane.phase).toBe(phase);
    expect(step.lane.capacity).toBe(capacity);
  });

  it.each([['empty', ''], ['whitespace only', ' \t\r\n ']])('%s never reaches the machine: parseReport refuses it', (_name, text) => {
    expect(parseReport(text).ok).toBe(false);
  });

  it('keeps the first line as `last` and the reading as numbers', () => {
    const step = reduceLane(working(), report('PR open https://x.test/pr/3\r\nsome detail\r\ncapacity=low 22% @work2 context=41%'), ctx(AT));
    expect(step.lane).toMatchObject({ last: 'PR open https://x.test/pr/3', capacityState: 'low', remainingPct: 22, contextPct: 41 });
  });
});

describe('reasons', () => {
  it.each([
    ['a lane at critical', 'capacity_critical', () => writing()],
    ['a lane reporting at low', 'capacity_low', () => drive(near(), [[report(`handoff ${PACKET}\ncapacity=low 20% @work2`), T0 + 3 * MIN]]).lane],
    ['a lane handing off at ok (context)', 'context_pressure', () => drive(working(), [[report(`handoff ${PACKET}\ncapacity=ok 70% @work2 context=65%`), T0 + 3 * MIN]]).lane],
    ['a lead', 'lead_handover', () => writing('lead')],
    ['a lead reporting a packet', 'lead_handover', () => reported('lead')],
    ['a lane told at context pressure', 'context_pressure', () => drive(working(), [[{ type: 'verdict', generation: 1, decision: 'handoff_now', state: 'ok', remainingPct: 70, contextPct: 65 }, T0 + MIN]]).lane],
  ])('%s → %s', (_name, reason, build) => {
    expect(build().handoff?.reason).toBe(reason);
  });
});
