import { describe, expect, it } from 'vitest';
import { initialLane } from '../../../src/machine/laneState.js';
import type { Handoff, LaneState, Review } from '../../../src/machine/types.js';
import { trackLanes, type TrackContext } from '../../../src/core/ledger/track.js';
import { foldUsage, generationFigures, type Ledger } from '../../../src/core/ledger/ledger.js';
import { reduceSwarm, type SwarmContext } from '../../../src/core/swarm/reduce.js';
import type { SwarmState } from '../../../src/core/swarm/state.js';
import { report } from '../../machine/build.js';

const NOW = 5_000_000;
const lane = (over: Partial<LaneState> = {}): LaneState => ({
  ...initialLane({ name: 'lane-a', role: 'lane', account: 'c1', now: 0 }), state: 'working', paneId: '%1', contextPct: 64, ...over,
});
const handoff = (over: Partial<Handoff> = {}): Handoff => ({
  packet: 'p', reason: 'capacity_low', degraded: false, from: { generation: 1, account: 'c1', paneId: '%1' }, successor: null,
  tried: [], rejected: [], picks: 1, retryAt: null, accountLimited: false, ...over,
});
const ctx: TrackContext = {
  now: NOW,
  readings: { c1: { state: 'low', remainingPct: 14, resetsAt: null }, c2: { state: 'ok', remainingPct: 90, resetsAt: null }, o1: { state: 'ok', remainingPct: 70, resetsAt: null } },
  vendorOf: (a) => (a === null ? null : a.startsWith('o') ? 'openai' : 'anthropic'),
};
const track = (before: LaneState, after: LaneState, ledger: Ledger = {}) => trackLanes(ledger, { 'lane-a': before }, { 'lane-a': after }, ctx);

describe('the ledger\'s starts and ends, read off the lanes (SPEC 10.7)', () => {
  it('a pane seen starts its generation once, on its account, with the capacity it had then', () => {
    const t = track(lane({ paneId: null, state: 'starting' }), lane());
    expect(t.ledger['lane-a']).toEqual([expect.objectContaining({ generation: 1, account: 'c1', vendor: 'anthropic', started: NOW, capacity_start: 14, ended: null })]);
    expect(t.ended).toEqual([]);
    const later = trackLanes(t.ledger, { 'lane-a': lane() }, { 'lane-a': lane({ lastActivity: 9 }) }, { ...ctx, now: NOW + 1 });
    expect(later.ledger).toBe(t.ledger);
  });

  it('a waiting lane, or one with no pane yet, has not started', () => {
    expect(track(lane({ paneId: null, state: 'starting' }), lane({ paneId: null, state: 'starting', lastActivity: 3 })).ledger).toEqual({});
    expect(track(lane({ paneId: null, state: 'waiting' }), lane({ state: 'waiting', lastActivity: 3 })).ledger).toEqual({});
  });

  it('a successor starts while it reads its packet; at acceptance the spent generation ends handed_off, with its context and capacity then', () => {
    const spawning = lane({ phase: 'spawning', handoff: handoff({ successor: { generation: 2, account: 'c2', paneId: '%2', deadline: NOW + 1, spawnedAt: NOW - 500 } }) });
    const t1 = track(lane(), spawning);
    expect(t1.ledger['lane-a']!.map((g) => [g.generation, g.account, g.started])).toEqual([[1, 'c1', NOW], [2, 'c2', NOW - 500]]);
    const accepted = lane({ generation: 2, account: 'c2', paneId: '%2', contextPct: 3 });
    const t2 = trackLanes(t1.ledger, { 'lane-a': spawning }, { 'lane-a': accepted }, { ...ctx, now: NOW + 60_000 });
    expect(t2.ended).toEqual([{ agent: 'lane-a', generation: 1 }]);
    expect(t2.ledger['lane-a']![0]).toMatchObject({ ended: NOW + 60_000, end: 'handed_off', context_pct_at_end: 64, capacity_end: 14 });
    expect(t2.ledger['lane-a']![1]).toMatchObject({ ended: null, started: NOW - 500 });
  });

  it('a degraded handoff (its agent was gone) ends the generation lost', () => {
    const t = track(lane({ state: 'lost', handoff: handoff({ degraded: true }) }), lane({ generation: 2, account: 'c2', paneId: '%2' }));
    expect(t.ledger['lane-a']![0]).toMatchObject({ generation: 1, end: 'lost' });
  });

  it.each<[string, Partial<LaneState>, string]>([
    ['done', { state: 'done', paneId: null }, 'done'],
    ['stopped (max generations, swarm stop)', { state: 'stopped' }, 'stopped'],
  ])('a lane %s ends its generation so', (_n, after, end) => {
    const t = track(lane(), lane(after));
    expect(t.ended).toEqual([{ agent: 'lane-a', generation: 1 }]);
    expect(t.ledger['lane-a']![0]).toMatchObject({ generation: 1, end, ended: NOW });
  });

  it('an end is journaled once: a later step that moves the lane again ends nothing more', () => {
    const t = track(lane(), lane({ state: 'done', paneId: null }));
    const again = trackLanes(t.ledger, { 'lane-a': lane({ state: 'done', paneId: null }) }, { 'lane-a': lane({ state: 'done', paneId: null, lastActivity: 1 }) }, ctx);
    expect(again.ended).toEqual([]);
  });

  it('a reviewer `<lane>.review` starts with its pane and ends with its verdict, or lost when replaced', () => {
    const review = (over: Partial<Review>): Review => ({ round: 1, seq: 1, reviewer: null, tried: [], picks: 1, deadline: null, ...over });
    const inReview = lane({ review: review({ reviewer: { seq: 1, account: 'o1', paneId: '%9', since: NOW - 10 } }) });
    const t1 = track(lane({ review: review({}) }), inReview);
    expect(t1.ledger['lane-a.review']).toEqual([expect.objectContaining({ generation: 1, account: 'o1', vendor: 'openai', started: NOW - 10 })]);
    const replaced = lane({ review: review({ seq: 2, tried: ['o1'], reviewer: null }) });
    const t2 = trackLanes(t1.ledger, { 'lane-a': inReview }, { 'lane-a': replaced }, ctx);
    expect(t2.ledger['lane-a.review']![0]).toMatchObject({ end: 'lost' });
    const approved = lane({ state: 'done', paneId: null, review: null });
    const t3 = trackLanes(t1.ledger, { 'lane-a': inReview }, { 'lane-a': approved }, ctx);
    expect(t3.ledger['lane-a.review']![0]).toMatchObject({ end: 'done' });
    expect(t3.ended).toEqual(expect.arrayContaining([{ agent: 'lane-a.review', generation: 1 }, { agent: 'lane-a', generation: 1 }]));
  });
});

describe('the ledger in the swarm\'s reducer', () => {
  const state = (over: Partial<SwarmState> = {}): SwarmState => ({
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: {},
    lanes: { lead: lane({ name: 'lead', role: 'lead', account: 'c0', paneId: '%0' }), 'lane-a': lane() }, order: ['lead', 'lane-a'],
    leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: {}, readings: {}, timers: [], pending: [],
    allDoneTold: false, releaseAt: null, planDone: false, added: [], leadNext: null, asks: [], askTimeouts: 0, ...over,
  });
  const sctx: SwarmContext = {
    now: NOW,
    config: {
      thresholds: { maxGenerations: 8 } as SwarmContext['config']['thresholds'],
      timeouts: { accept: 60_000, packet: 60_000, stall: 600_000, ask: 60_000, release: 60_000 },
      lanes: [{ name: 'lane-a', checkout: '/repo/a', doneWhen: null }] as SwarmContext['config']['lanes'],
      lead: { name: 'lead', succession: [] } as unknown as SwarmContext['config']['lead'],
      maxLanes: 4,
    },
    untilDone: false, leadRecord: null, finished: false, vendors: { c1: 'anthropic' },
  };
  const usage = (cost: number, session = 's1', generation = 1) => ({
    type: 'usage' as const, reads: [{ spool: `r1/lane-a-g${generation}`, offset: Math.round(cost * 1000) }],
    seen: [{ agent: 'lane-a', generation, account: 'c1', session, turns: null, figures: { cost_usd: cost, tokens: { input: 10, output: 1, cache_read: null, cache_write: null } } }],
  });

  it('usage records are state, with no effect, with how far their file was read; read again they fold to the same', () => {
    const s1 = reduceSwarm(state(), usage(0.25), sctx);
    expect(s1.effects).toEqual([]);
    expect(generationFigures(s1.state.ledger!['lane-a']![0]!).cost_usd).toBe(0.25);
    expect(s1.state.ledger!['lane-a']![0]!.vendor).toBe('anthropic');
    expect(s1.state.usageRead).toEqual({ 'r1/lane-a-g1': 250 });
    const again = reduceSwarm(s1.state, usage(0.25), sctx);
    expect(again.state.ledger).toBe(s1.state.ledger);
    expect(again.effects).toEqual([]);
  });

  it('the lane done: its generation is journaled generation_spent at the next look, with the last figures told; once; a later record journals it again', () => {
    const spentOf = (effects: { effect: { type: string } }[]) => effects.map((e) => e.effect).filter((e) => e.type === 'journal' && (e as unknown as { event: string }).event === 'generation_spent');
    const s1 = reduceSwarm(state(), usage(0.25), sctx).state;
    const done = reduceSwarm(s1, { type: 'lane', lane: 'lane-a', event: report('done\ncapacity=ok 70% @c1') }, sctx);
    expect(spentOf(done.effects)).toEqual([]);
    // The look after the end: the figure its agent told last (0.31), the end journaled once.
    const look = reduceSwarm(done.state, usage(0.31), sctx);
    expect(spentOf(look.effects)).toEqual([expect.objectContaining({ lane: 'lane-a', data: expect.objectContaining({ generation: 1, end: 'done', cost_usd: 0.31, session_id: 's1', vendor: 'anthropic' }) })]);
    const quiet = reduceSwarm(look.state, { type: 'usage', seen: [], reads: [] }, sctx);
    expect(spentOf(quiet.effects)).toEqual([]);
    const late = reduceSwarm(look.state, usage(0.4), sctx);
    expect(spentOf(late.effects)).toEqual([expect.objectContaining({ data: expect.objectContaining({ cost_usd: 0.4, end: 'done' }) })]);
  });

  it('an end with nothing new to read is journaled at the look all the same', () => {
    const done = reduceSwarm(state(), { type: 'lane', lane: 'lane-a', event: report('done\ncapacity=ok 70% @c1') }, sctx);
    const look = reduceSwarm(done.state, { type: 'usage', seen: [], reads: [] }, sctx);
    expect(look.effects.map((e) => e.effect)).toEqual([expect.objectContaining({ event: 'generation_spent', lane: 'lane-a', data: expect.objectContaining({ end: 'done', cost_usd: null }) })]);
  });

  it('a turn numbered is counted once', () => {
    const turn = { type: 'turn' as const, agent: 'lane-a', generation: 1, account: 'c1', turn: 4 };
    const s1 = reduceSwarm(state(), turn, sctx).state;
    expect(s1.ledger!['lane-a']![0]!.turns).toBe(4);
    expect(reduceSwarm(s1, turn, sctx).state).toBe(s1);
  });

  it('figures from another process of the generation add; a ledger kept in state reads back the same', () => {
    let s = reduceSwarm(state(), usage(0.25), sctx).state;
    s = reduceSwarm(s, usage(0.1, 's2'), sctx).state;
    const back = JSON.parse(JSON.stringify(s)) as SwarmState;
    expect(generationFigures(foldUsage(back.ledger!, { agent: 'lane-a', generation: 1, account: 'c1', vendor: null, session: 's1', figures: usage(0.25).seen[0]!.figures })['lane-a']![0]!).cost_usd).toBe(0.35);
  });
});
