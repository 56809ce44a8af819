import { describe, expect, it } from 'vitest';
import { initialLane, type LaneState } from '../../../src/machine/lane.js';
import { progress, type Progress } from '../../../src/core/swarm/progress.js';

const T0 = 1_700_000_000_000;

/** A lane named `name` (generation 1, working on work2) with `over` spread on top. */
const lane = (name: string, over: Partial<LaneState> = {}): LaneState =>
  ({ ...initialLane({ name, role: 'lane', account: 'work2', now: T0 }), state: 'working', ...over });

const done = (name: string): LaneState => lane(name, { state: 'done' });
const blocked = (name: string, what = 'may I push to main?'): LaneState =>
  lane(name, { state: 'blocked', blocked: { class: 'decision', what, source: 'report' } });
const HELD = 'held: no successor accepted in time on any account';

describe('progress', () => {
  it.each<[string, LaneState[], Progress]>([
    ['no lanes', [], { kind: 'all_done' }],
    ['one lane, done', [done('lane-a')], { kind: 'all_done' }],
    ['every lane done', [done('lane-a'), done('lane-b'), done('lane-c')], { kind: 'all_done' }],
    ['one lane working', [lane('lane-a')], { kind: 'running' }],
    ['one lane starting (the initial lane as is)', [initialLane({ name: 'lane-a', role: 'lane', account: null, now: T0 })], { kind: 'running' }],
    ['working mid-handoff (spawning)', [lane('lane-a', { phase: 'spawning' })], { kind: 'running' }],
    ['done and working', [done('lane-a'), lane('lane-b')], { kind: 'running' }],
    ['working and blocked', [lane('lane-a'), blocked('lane-b')], { kind: 'running' }],
    ['working and stopped', [lane('lane-a'), lane('lane-b', { state: 'stopped', phase: 'stopped', generation: 8 })], { kind: 'running' }],
    ['blocked by its report', [blocked('lane-a')], { kind: 'stuck', why: 'lane-a blocked decision: may I push to main?' }],
    ['blocked by a screen', [lane('lane-a', { state: 'blocked', blocked: { class: 'permission', what: 'a permission screen', source: 'screen' } })],
      { kind: 'stuck', why: 'lane-a blocked permission: a permission screen' }],
    ['blocked with no recorded reason', [lane('lane-a', { state: 'blocked' })], { kind: 'stuck', why: 'lane-a blocked' }],
    ['stopped at max generations', [lane('lane-a', { state: 'stopped', phase: 'stopped', generation: 8 })],
      { kind: 'stuck', why: 'lane-a stopped at g8 (max generations)' }],
    ['lost', [lane('lane-a', { state: 'lost' })], { kind: 'stuck', why: 'lane-a lost' }],
    ['lost with its degraded successor on the way', [lane('lane-a', { state: 'lost', phase: 'degraded' })], { kind: 'running' }],
    ['lost while a successor spawns', [lane('lane-a', { state: 'lost', phase: 'spawning' })], { kind: 'running' }],
    // Fault matrix P × gate: its result decides (pass: done; fail: a successor), so the lane still moves.
    ['lost while its done_when gate runs', [lane('lane-a', { state: 'lost', gate: { id: 'lane-a/g1/gate/1', command: 'npm test', since: 1 } })], { kind: 'running' }],
    ['held for attention, still working', [lane('lane-a', { phase: 'attention' })], { kind: 'stuck', why: `lane-a ${HELD}` }],
    ['held for attention as the machine holds it (blocked dependency)',
      [lane('lane-a', { phase: 'attention', state: 'blocked', blocked: { class: 'dependency', what: 'no account is free', source: 'engine' } })],
      { kind: 'stuck', why: 'lane-a blocked dependency: no account is free' }],
    ['done and blocked', [done('lane-a'), blocked('lane-b')], { kind: 'stuck', why: 'lane-b blocked decision: may I push to main?' }],
    ['every way of being held, in lane order, done lanes left out',
      [blocked('lane-a', 'which API?'), done('lane-b'), lane('lane-c', { state: 'stopped', generation: 3 }), lane('lane-d', { state: 'lost' }),
        lane('lane-e', { phase: 'attention' })],
      { kind: 'stuck', why: `lane-a blocked decision: which API?; lane-c stopped at g3 (max generations); lane-d lost; lane-e ${HELD}` }],
  ])('%s', (_name, lanes, expected) => {
    expect(progress(lanes)).toEqual(expected);
  });
});
