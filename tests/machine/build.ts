/** Builders for the lane machine tests: lanes in each phase, reached by driving the reducer itself. */
import { parseReport } from '../../src/core/protocol/protocol.js';
import {
  initialLane, reduceLane, type Effect, type LaneEvent, type LaneState, type MachineContext, type Step,
} from '../../src/machine/lane.js';

export const T0 = 1_700_000_000_000;
export const MIN = 60_000;
export const PACKET = '/repo/plans/demo/analysis_results/handoff/lane-a-g1-20250101T000000Z.yaml';
export const PACKET2 = '/repo/plans/demo/analysis_results/handoff/lane-a-g1-20250101T000500Z.yaml';
export const DEGRADED = '/repo/plans/demo/analysis_results/handoff/lane-a-g1-degraded.yaml';

export function ctx(now: number, over: Partial<MachineContext> = {}): MachineContext {
  return { now, maxGenerations: 8, timeouts: { accept: 10 * MIN, packet: 10 * MIN, stall: 30 * MIN }, doneWhen: null, ...over };
}

/** A `report` event from report text, parsed as `swarm notify` parses it. */
export function report(text: string, generation = 1): LaneEvent {
  const parsed = parseReport(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return { type: 'report', generation, report: parsed.report };
}

export const verdict = (decision: 'continue' | 'handoff_soon' | 'handoff_now', generation = 1): LaneEvent => ({
  type: 'verdict', generation, decision,
  state: decision === 'handoff_now' ? 'critical' : decision === 'handoff_soon' ? 'low' : 'ok',
  remainingPct: decision === 'handoff_now' ? 8 : decision === 'handoff_soon' ? 20 : 70, contextPct: 30,
});

/** Feed events in order, each at its time; collect every effect. */
export function drive(
  lane: LaneState, events: [LaneEvent, number][], over: Partial<MachineContext> = {},
): { lane: LaneState; effects: Effect[]; steps: Step[] } {
  const steps: Step[] = [];
  let current = lane;
  for (const [event, at] of events) {
    const step = reduceLane(current, event, ctx(at, over));
    steps.push(step);
    current = step.lane;
  }
  return { lane: current, effects: steps.flatMap((s) => s.effects), steps };
}

export const types = (effects: Effect[]): string[] => effects.map((e) => e.type);
export const journals = (effects: Effect[]): string[] =>
  effects.flatMap((e) => (e.type === 'journal' ? [e.event] : []));
export function only<T extends Effect['type']>(effects: Effect[], type: T): Extract<Effect, { type: T }>[] {
  return effects.filter((e): e is Extract<Effect, { type: T }> => e.type === type);
}

type Over = Partial<MachineContext>;
const start = (role: 'lane' | 'lead'): LaneState =>
  drive(initialLane({ name: role === 'lead' ? 'lead' : 'lane-a', role, account: 'work2', now: T0 }), [
    [{ type: 'started', generation: 1, account: 'work2', paneId: '%1' }, T0],
  ]).lane;

/** Generation 1 on work2 in pane %1, working for 30 s. */
export const working = (role: 'lane' | 'lead' = 'lane', over: Over = {}): LaneState =>
  drive(start(role), [[{ type: 'output' }, T0 + 30_000]], over).lane;
export const near = (role: 'lane' | 'lead' = 'lane'): LaneState => drive(working(role), [[verdict('handoff_soon'), T0 + MIN]]).lane;
export const writing = (role: 'lane' | 'lead' = 'lane'): LaneState => drive(working(role), [[verdict('handoff_now'), T0 + 2 * MIN]]).lane;
export const reported = (role: 'lane' | 'lead' = 'lane', over: Over = {}): LaneState =>
  drive(writing(role), [[report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + 3 * MIN]], over).lane;
export const rejected = (): LaneState =>
  drive(reported(), [[{ type: 'packet_checked', packet: PACKET, reasons: ['missing next'] }, T0 + 4 * MIN]]).lane;
/** Spawning, the account pick in flight. */
export const picking = (role: 'lane' | 'lead' = 'lane'): LaneState =>
  drive(reported(role), [[{ type: 'packet_checked', packet: PACKET, reasons: [] }, T0 + 4 * MIN]]).lane;
/** Spawning, successor g2 on work3 leased (pane not yet seen). */
export const leased = (role: 'lane' | 'lead' = 'lane'): LaneState =>
  drive(picking(role), [[{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok 80%' }, T0 + 5 * MIN]]).lane;
/** Spawning, successor g2 on work3 in pane %2. */
export const spawned = (role: 'lane' | 'lead' = 'lane'): LaneState =>
  drive(leased(role), [[{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 6 * MIN]]).lane;
export const accepted = (role: 'lane' | 'lead' = 'lane'): LaneState =>
  drive(spawned(role), [[{ type: 'accepted', generation: 2, packet: PACKET }, T0 + 7 * MIN]]).lane;
export const waitingLane = (): LaneState =>
  drive(picking(), [[{ type: 'lease', account: null, resetsAt: null, why: 'every account is critical' }, T0 + 5 * MIN]]).lane;
export const degradedLane = (role: 'lane' | 'lead' = 'lane'): LaneState =>
  drive(working(role), [[{ type: 'screen', screen: 'usage_limit', text: 'Usage limit reached' }, T0 + MIN]]).lane;
export const attentionLane = (): LaneState =>
  drive(leased(), [
    [{ type: 'timer', timer: 'accept' }, T0 + 16 * MIN],
    [{ type: 'lease', account: null, resetsAt: null, why: 'none left' }, T0 + 16 * MIN],
  ]).lane;
export const stoppedLane = (): LaneState =>
  drive(working('lane', { maxGenerations: 1 }), [[report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + MIN]], { maxGenerations: 1 }).lane;
export const doneLane = (): LaneState => drive(working(), [[report('done\ncapacity=ok 70% @work2'), T0 + MIN]]).lane;
/** The id of gating()'s gate run. */
export const GATE_ID = `lane-a/g1/gate/${T0 + MIN}`;
/** A gate's result, of gating()'s run unless `id` says another. */
export const gateResult = (passed: boolean, output: string, id = GATE_ID) => ({ type: 'gate' as const, id, passed, output });
export const gating = (): LaneState => drive(working(), [[report('done\ncapacity=ok 70% @work2'), T0 + MIN]], { doneWhen: 'npm test' }).lane;
export const screenBlocked = (): LaneState =>
  drive(working(), [[{ type: 'screen', screen: 'permission', text: 'Allow edit? (y/n)' }, T0 + MIN]]).lane;
