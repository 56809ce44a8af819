import { describe, expect, it } from 'vitest';
import type { Reading } from '../../../src/core/accounts/leases.js';
import { parseReport } from '../../../src/core/protocol/protocol.js';
import { attribute, mergeReading, type Attribution } from '../../../src/core/swarm/readings.js';
import { reduceSwarm, type SwarmContext } from '../../../src/core/swarm/reduce.js';
import type { SwarmEvent } from '../../../src/core/swarm/events.js';
import type { SwarmState } from '../../../src/core/swarm/state.js';
import { initialLane } from '../../../src/machine/laneState.js';
import type { Handoff, LaneState } from '../../../src/machine/types.js';

const RESET = '2026-12-01T15:00:00.000Z';
const LATER = '2026-12-02T15:00:00.000Z';
const r = (state: Reading['state'], remainingPct: number | null, resetsAt: string | null = null): Reading => ({ state, remainingPct, resetsAt });

/** lane-a g2 on a1, working; its successor g3 awaited on a4 when `handing`. */
const laneA = (handing = false): LaneState => ({
  ...initialLane({ name: 'lane-a', role: 'lane', account: 'a1', now: 0 }),
  generation: 2, state: 'working', paneId: '%2',
  handoff: handing
    ? { packet: 'p', reason: 'capacity_critical', degraded: false, from: { generation: 2, account: 'a1', paneId: '%2' }, successor: { generation: 3, account: 'a4', paneId: '%7', deadline: 1, spawnedAt: 0 }, tried: [], rejected: [], picks: 1, retryAt: null, accountLimited: false } as Handoff
    : null,
});

describe('attribute: a reading counts only for the account its sender holds', () => {
  it.each<[string, LaneState | undefined, number | null, string | null, Attribution]>([
    ['names its own account', laneA(), 2, 'a1', { counts: true, account: 'a1' }],
    ['names none: its own', laneA(), 2, null, { counts: true, account: 'a1' }],
    ['names another account', laneA(), 2, 'a3', { counts: false, named: 'a3', own: 'a1' }],
    ['names its account in another case: another account', laneA(), 2, 'A1', { counts: false, named: 'A1', own: 'a1' }],
    ["the awaited successor names its own", laneA(true), 3, 'a4', { counts: true, account: 'a4' }],
    ["the awaited successor names the spent account", laneA(true), 3, 'a1', { counts: false, named: 'a1', own: 'a4' }],
    ['a retired generation names the lane\'s account', laneA(), 1, 'a1', { counts: false, named: 'a1', own: null }],
    ['a retired generation names none: nothing to apply', laneA(), 1, null, { counts: true, account: null }],
    ['no generation names an account', laneA(), null, 'a1', { counts: false, named: 'a1', own: null }],
    ['no lane of this swarm names an account', undefined, 1, 'a1', { counts: false, named: 'a1', own: null }],
    ['a lane with no account yet names none', { ...laneA(), account: null }, 2, null, { counts: true, account: null }],
  ])('%s', (_name, lane, generation, named, expected) => {
    expect(attribute(lane, generation, named)).toEqual(expected);
  });
});

describe('mergeReading: nothing never overwrites something', () => {
  it.each<[string, Reading | undefined, Reading, Reading]>([
    ['a first reading', undefined, r('critical', 5), r('critical', 5)],
    ['a first unknown is kept as unknown', undefined, r('unknown', null), r('unknown', null)],
    ['a newer reading replaces the last', r('ok', 80, RESET), r('low', 12, LATER), r('low', 12, LATER)],
    ['unknown leaves the last reading', r('critical', 5, RESET), r('unknown', null), r('critical', 5, RESET)],
    ['the same state without a number keeps the number', r('ok', 80), r('ok', null), r('ok', 80)],
    ['another state without a number has none', r('ok', 80), r('critical', null), r('critical', null)],
    ['a line with no reset keeps the reset of the same state', r('critical', 9, RESET), r('critical', 5), r('critical', 5, RESET)],
    ['recovered: the old reset goes', r('critical', 5, RESET), r('ok', 90), r('ok', 90)],
  ])('%s', (_name, previous, next, expected) => {
    expect(mergeReading(previous, next)).toEqual(expected);
  });
});

describe('the capacity line a report carries, whose it is', () => {
  // Parsing tolerates what terminals and agents add; the account named is what decides.
  it.each<[string, string, Attribution | null]>([
    ['its own account', 'PR open x\ncapacity=critical 3% @a1', { counts: true, account: 'a1' }],
    ['another account', 'PR open x\ncapacity=critical 3% @a3', { counts: false, named: 'a3', own: 'a1' }],
    ['another account, trailing spaces', 'PR open x  \ncapacity=critical 3% @a3   ', { counts: false, named: 'a3', own: 'a1' }],
    ['another account, CRLF', 'PR open x\r\ncapacity=critical 3% @a3\r\n', { counts: false, named: 'a3', own: 'a1' }],
    ['another account, ANSI colour', '\x1b[1mPR open x\x1b[0m\n\x1b[31mcapacity=critical 3% @a3\x1b[0m', { counts: false, named: 'a3', own: 'a1' }],
    ['another account at the end of the first line', 'handoff /p.yaml capacity=critical 5% @a3', { counts: false, named: 'a3', own: 'a1' }],
    ['no account named', 'done\ncapacity=ok 70%', { counts: true, account: 'a1' }],
    ['no capacity line', 'done', null],
  ])('%s', (_name, text, expected) => {
    const parsed = parseReport(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const line = parsed.report.capacity;
    expect(line.raw === '' ? null : attribute(laneA(), 2, line.account)).toEqual(expected);
  });

  it('an empty report is no report, and so no reading', () => {
    expect(parseReport(' \r\n\x1b[0m ')).toMatchObject({ ok: false });
  });
});

describe("reduceSwarm: the 'reading' event", () => {
  const state: SwarmState = {
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: {},
    lanes: { lead: { ...initialLane({ name: 'lead', role: 'lead', account: 'a0', now: 0 }), state: 'working', paneId: '%1' }, 'lane-a': laneA(), 'lane-b': { ...initialLane({ name: 'lane-b', role: 'lane', account: 'a3', now: 0 }), state: 'working', paneId: '%3' } },
    order: ['lead', 'lane-a', 'lane-b'], leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: {}, readings: { a3: r('ok', 60) },
    timers: [], pending: [], allDoneTold: false, releaseAt: null, planDone: false, added: [], leadNext: null, asks: [], askTimeouts: 0,
  };
  const ctx: SwarmContext = {
    now: 1_000_000,
    config: {
      thresholds: { maxGenerations: 8 } as SwarmContext['config']['thresholds'],
      timeouts: { accept: 240_000, packet: 180_000, stall: 1_200_000, ask: 300_000, release: 420_000 } as SwarmContext['config']['timeouts'],
      lanes: [] as SwarmContext['config']['lanes'], lead: { name: 'lead', succession: [] } as unknown as SwarmContext['config']['lead'], maxLanes: 4,
    },
    untilDone: true, leadRecord: null, finished: false,
  };
  const critical = { type: 'verdict' as const, generation: 2, decision: 'handoff_now' as const, state: 'critical' as const, remainingPct: 3, contextPct: null };
  const event = (over: Partial<Extract<SwarmEvent, { type: 'reading' }>>): SwarmEvent =>
    ({ type: 'reading', lane: 'lane-a', from: 'lane-a', generation: 2, named: 'a3', reading: r('critical', 3), source: 'report', verdict: null, ...over });

  it("a reading naming another account: that account's reading and lanes untouched, capacity_ignored journaled", () => {
    const step = reduceSwarm(state, event({}), ctx);
    expect(step.state.readings).toEqual({ a3: r('ok', 60) });
    expect(step.state.lanes).toBe(state.lanes);
    expect(step.effects).toEqual([{ lane: null, effect: { type: 'journal', kind: 'observation', event: 'capacity_ignored', lane: 'lane-a', data: { generation: 2, named_account: 'a3', sender_account: 'a1', source: 'report' } } }]);
  });

  it("a check's record naming another account: its verdict is dropped too", () => {
    const step = reduceSwarm(state, event({ source: 'capacity', verdict: critical }), ctx);
    expect(step.state.lanes['lane-a']).toEqual(state.lanes['lane-a']);
    expect(step.effects.map((e) => e.effect.type)).toEqual(['journal']);
  });

  it("the sender's own reading is its account's, and its verdict reaches its lane", () => {
    const step = reduceSwarm(state, event({ named: 'a1', source: 'capacity', verdict: critical }), ctx);
    expect(step.state.readings).toEqual({ a3: r('ok', 60), a1: r('critical', 3) });
    expect(step.state.lanes['lane-a']).toMatchObject({ phase: 'writing', capacityState: 'critical' });
  });

  it("a line naming no account is the sender's own; one from no lane of the swarm applies to none", () => {
    expect(reduceSwarm(state, event({ named: null }), ctx).state.readings).toEqual({ a3: r('ok', 60), a1: r('critical', 3) });
    const stranger = reduceSwarm(state, event({ lane: null, from: 'ghost', named: null }), ctx);
    expect(stranger.state.readings).toBe(state.readings);
    expect(stranger.effects).toEqual([]);
  });
});

describe('the near notice by forecast (SPEC 10.7): before the lane\'s next likely work boundary', () => {
  const MIN = 60_000;
  const NOW = 100 * MIN;
  const laneB = (reportTimes: number[] | undefined): LaneState => ({ ...initialLane({ name: 'lane-b', role: 'lane', account: 'a3', now: 0 }), state: 'working', paneId: '%3', ...(reportTimes ? { reportTimes } : {}) });
  const state = (reportTimes: number[] | undefined): SwarmState => ({
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: {},
    lanes: { lead: { ...initialLane({ name: 'lead', role: 'lead', account: 'a0', now: 0 }), state: 'working', paneId: '%1' }, 'lane-b': laneB(reportTimes) },
    order: ['lead', 'lane-b'], leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: {}, readings: { a3: r('ok', 35) },
    samples: { a3: [{ at: NOW - 20 * MIN, pct: 50 }, { at: NOW - 10 * MIN, pct: 35 }] },
    timers: [], pending: [], allDoneTold: false, releaseAt: null, planDone: false, added: [], leadNext: null, asks: [], askTimeouts: 0,
  });
  const ctx: SwarmContext = {
    now: NOW,
    config: {
      thresholds: { maxGenerations: 8, capacityCritical: 10 } as SwarmContext['config']['thresholds'],
      timeouts: { accept: 240_000, packet: 180_000, stall: 1_200_000, ask: 300_000, release: 420_000 } as SwarmContext['config']['timeouts'],
      lanes: [] as SwarmContext['config']['lanes'], lead: { name: 'lead', succession: [] } as unknown as SwarmContext['config']['lead'], maxLanes: 4,
    },
    untilDone: true, leadRecord: null, finished: false,
  };
  // 1.5 points a minute: from 20 % to critical 10 % in about 7 minutes.
  const reading: SwarmEvent = { type: 'reading', lane: 'lane-b', from: 'lane-b', generation: 1, named: 'a3', reading: r('ok', 20), source: 'capacity', verdict: null };
  const notices = (step: ReturnType<typeof reduceSwarm>) => step.effects.flatMap((e) => (e.effect.type === 'notify' ? [e.effect.text] : []));
  const journaled = (step: ReturnType<typeof reduceSwarm>, event: string) => step.effects.filter((e) => e.effect.type === 'journal' && e.effect.event === event);

  it('a lane reporting every 10 minutes is told now when its account crosses critical in about 7', () => {
    const step = reduceSwarm(state([NOW - 40 * MIN, NOW - 30 * MIN, NOW - 20 * MIN, NOW - 10 * MIN]), reading, ctx);
    expect(step.state.lanes['lane-b']).toMatchObject({ phase: 'near', nearGeneration: 1 });
    expect(notices(step)).toEqual([expect.stringMatching(/^swarm: you are running low/)]);
    expect(journaled(step, 'forecast_near')).toHaveLength(1);
    // Told once a generation.
    expect(notices(reduceSwarm(step.state, { ...reading, reading: r('ok', 19) }, { ...ctx, now: NOW + MIN }))).toEqual([]);
  });

  it('a lane reporting every 5 minutes is not told yet (its next boundary comes first); one with fewer than three intervals neither', () => {
    expect(notices(reduceSwarm(state([NOW - 20 * MIN, NOW - 15 * MIN, NOW - 10 * MIN, NOW - 5 * MIN]), reading, ctx))).toEqual([]);
    expect(notices(reduceSwarm(state([NOW - 20 * MIN, NOW - 10 * MIN]), reading, ctx))).toEqual([]);
    expect(notices(reduceSwarm(state(undefined), reading, ctx))).toEqual([]);
  });
});
