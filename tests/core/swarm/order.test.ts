/**
 * Plans with order (SPEC 10.6 `after:`): a lane after others waits — no account, no pane — until they
 * are done, and then starts once; a blocked lane holds exactly its dependents; `swarm answer` ends a
 * block the lane reported itself at once, not a screen's.
 */
import { describe, expect, it } from 'vitest';
import { initialLane } from '../../../src/machine/laneState.js';
import type { LaneState } from '../../../src/machine/types.js';
import { reduceSwarm, type SwarmContext } from '../../../src/core/swarm/reduce.js';
import type { SwarmState } from '../../../src/core/swarm/state.js';
import { progress } from '../../../src/core/swarm/progress.js';
import { statusJson } from '../../../src/core/swarm/status.js';
import { parseReport, type Report } from '../../../src/core/protocol/protocol.js';

const MIN = 60_000;
const NOW = 1_000_000;
const lane = (name: string, over: Partial<LaneState> = {}): LaneState => ({
  ...initialLane({ name, role: name === 'lead' ? 'lead' : 'lane', account: `acc-${name}`, now: 0 }), state: 'working', paneId: `%${name}`, ...over,
});
const report = (text: string): Report => { const r = parseReport(text); if (!r.ok) throw new Error(text); return r.report; };

function state(lanes: LaneState[]): SwarmState {
  return {
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: {},
    lanes: Object.fromEntries(lanes.map((l) => [l.name, l])), order: lanes.map((l) => l.name),
    leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: {}, readings: {}, timers: [], pending: [],
    allDoneTold: false, releaseAt: null, planDone: false, added: [], leadNext: null, asks: [], askTimeouts: 0,
  };
}

/** lane-b after lane-a; lane-d after lane-c; lane-e after lane-b and lane-d (a chain through both). */
const ctx = (over: Partial<SwarmContext> = {}): SwarmContext => ({
  now: NOW,
  config: {
    thresholds: { maxGenerations: 8 } as SwarmContext['config']['thresholds'],
    timeouts: { accept: 4 * MIN, packet: 3 * MIN, stall: 20 * MIN, ask: 5 * MIN, release: 7 * MIN } as SwarmContext['config']['timeouts'],
    lanes: [
      { name: 'lane-a', doneWhen: null }, { name: 'lane-b', doneWhen: null, after: ['lane-a'] }, { name: 'lane-c', doneWhen: null },
      { name: 'lane-d', doneWhen: null, after: ['lane-c'] }, { name: 'lane-e', doneWhen: null, after: ['lane-b', 'lane-d'] },
    ] as SwarmContext['config']['lanes'],
    lead: { name: 'lead', succession: [] } as unknown as SwarmContext['config']['lead'],
    maxLanes: 8,
  },
  untilDone: true, leadRecord: null, finished: false, ...over,
});
const NAMES = ['lead', 'lane-a', 'lane-b', 'lane-c', 'lane-d', 'lane-e'];
const created = () => reduceSwarm(state([]), { type: 'lanes_created', lanes: NAMES.map((name) => ({ name, role: name === 'lead' ? 'lead' as const : 'lane' as const, account: null })) }, ctx()).state;
const states = (s: SwarmState) => Object.fromEntries(s.order.map((n) => [n, s.lanes[n]!.state]));

describe('after: a lane waits for its lanes to be done', () => {
  it('made waiting, with whom it waits for, no account and no pane; the others start', () => {
    const s = created();
    expect(states(s)).toEqual({ lead: 'starting', 'lane-a': 'starting', 'lane-b': 'waiting', 'lane-c': 'starting', 'lane-d': 'waiting', 'lane-e': 'waiting' });
    expect(s.lanes['lane-e']).toMatchObject({ waitingFor: ['lane-b', 'lane-d'], paneId: null });
    expect(statusJson({ plan: 'p', session: 's', leadName: 'lead', leadAgent: 'lead', epoch: 1, lanes: s.order.map((n) => s.lanes[n]!), record: null, now: NOW }).lanes
      .map((l) => [l.name, l.state, l.waiting_for])).toEqual([
      ['lane-a', 'starting', undefined], ['lane-b', 'waiting', ['lane-a']], ['lane-c', 'starting', undefined], ['lane-d', 'waiting', ['lane-c']], ['lane-e', 'waiting', ['lane-b', 'lane-d']],
    ]);
  });

  it('starts once the last of its lanes is done (journaled, start_added), and not before', () => {
    let s = created();
    s = { ...s, lanes: { ...s.lanes, 'lane-a': lane('lane-a', { gate: null }), 'lane-c': lane('lane-c') } };
    const step = reduceSwarm(s, { type: 'lane', lane: 'lane-a', event: { type: 'report', generation: 1, report: report('done') } }, ctx());
    expect(step.state.lanes['lane-a']!.state).toBe('done');
    expect(step.state.lanes['lane-b']).toMatchObject({ state: 'starting' });
    expect(step.state.lanes['lane-b']!.waitingFor).toBeUndefined();
    expect(step.effects.map((e) => e.effect)).toContainEqual({ type: 'journal', kind: 'observation', event: 'dependencies_done', lane: 'lane-b', data: { after: ['lane-a'] } });
    expect(step.effects.filter((e) => e.effect.type === 'start_added')).toHaveLength(1);
    // lane-e still waits, now for lane-b (started, not done) and lane-d.
    expect(step.state.lanes['lane-e']).toMatchObject({ state: 'waiting', waitingFor: ['lane-b', 'lane-d'] });
    // Another step: nothing starts twice.
    const again = reduceSwarm(step.state, { type: 'lane', lane: 'lane-c', event: { type: 'output' } }, ctx());
    expect(again.effects.filter((e) => e.effect.type === 'start_added')).toHaveLength(0);
  });

  it('a blocked lane holds exactly its dependents: the others run; with nothing else to move, stopped short naming the chain', () => {
    const blocked = lane('lane-c', { state: 'blocked', blocked: { class: 'decision', what: 'which schema?', source: 'report' } });
    const s = [lane('lane-a'), lane('lane-b', { state: 'waiting', waitingFor: ['lane-a'] }), blocked, lane('lane-d', { state: 'waiting', waitingFor: ['lane-c'] })];
    expect(progress(s)).toEqual({ kind: 'running' });
    const rest = [lane('lane-a', { state: 'done' }), lane('lane-b', { state: 'done' }), blocked, lane('lane-d', { state: 'waiting', waitingFor: ['lane-c'] })];
    expect(progress(rest)).toEqual({ kind: 'stuck', why: 'lane-c blocked decision: which schema?; lane-d waiting for lane-c' });
  });
});

describe('swarm answer ends a block the lane reported itself, at once', () => {
  const blocked = (source: 'report' | 'screen') => state([lane('lead'), lane('lane-c', { state: 'blocked', blocked: { class: 'decision', what: 'which schema?', source } })]);
  it('reported: working again, journaled, the stall clock anew', () => {
    const step = reduceSwarm(blocked('report'), { type: 'lane', lane: 'lane-c', event: { type: 'answered' } }, ctx());
    expect(step.state.lanes['lane-c']).toMatchObject({ state: 'working', blocked: null, lastActivity: NOW });
    expect(step.effects.map((e) => e.effect)).toContainEqual(expect.objectContaining({ type: 'journal', event: 'unblocked', data: { class: 'decision', by: 'answer' } }));
    expect(step.state.timers).toContainEqual({ lane: 'lane-c', timer: 'stall', at: NOW + 20 * MIN });
  });
  it('a screen: blocked while the screen lasts', () => {
    const step = reduceSwarm(blocked('screen'), { type: 'lane', lane: 'lane-c', event: { type: 'answered' } }, ctx());
    expect(step.state.lanes['lane-c']!.state).toBe('blocked');
  });
});
