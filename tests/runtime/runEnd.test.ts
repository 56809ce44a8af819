import { describe, expect, it } from 'vitest';
import { initialLane } from '../../src/machine/laneState.js';
import type { LaneState, LaneStatus } from '../../src/machine/types.js';
import type { EngineState } from '../../src/runtime/engineState.js';
import { endRun, lanesAsSeen, toResume } from '../../src/runtime/runEnd.js';

const lane = (name: string, state: LaneStatus): LaneState => ({ ...initialLane({ name, role: name === 'lead' ? 'lead' : 'lane', account: 'a1', now: 0 }), state });

function saved(over: Partial<EngineState> = {}): EngineState {
  const lanes = { lead: lane('lead', 'working'), 'lane-a': lane('lane-a', 'working'), 'lane-b': lane('lane-b', 'done'), 'lane-c': lane('lane-c', 'stopped') };
  return {
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: { 'r1/lane-a-g1': { offset: 100 } }, lanes, order: ['lead', 'lane-a', 'lane-b', 'lane-c'],
    leadName: 'lead', leadAgent: 'lead', epoch: 2, limited: {}, readings: {}, timers: [{ lane: 'lane-a', timer: 'stall', at: 5 }],
    pending: [{ lane: 'lane-a', effect: { type: 'close_pane', id: 'x', paneId: '%3/1.2' } }], allDoneTold: false, planDone: false,
    added: [], leadNext: null, asks: [], askTimeouts: 0, ...over,
  };
}
const states = (lanes: LaneState[]): string[] => lanes.map((l) => `${l.name}:${l.state}`);

describe('toResume', () => {
  it.each<[string, EngineState | null, boolean]>([
    ['nothing saved: a fresh run', null, false],
    ['a run in progress: resumed', saved(), true],
    ['the plan done: a fresh run', saved({ planDone: true }), false],
    ['ended by swarm down: a fresh run', saved({ ended: '2026-01-01T00:00:00.000Z' }), false],
    ['stopped by a lost tmux server: resumed', saved({ hostLost: { at: 'x', reason: 'gone' } }), true],
  ])('%s', (_name, state, resumed) => {
    expect(toResume(state) !== null).toBe(resumed);
  });

  it('forgets the lost host once resumed', () => {
    expect(toResume(saved({ hostLost: { at: 'x', reason: 'gone' } }))).toEqual({ ...saved(), run: 1 });
  });

  it('keeps the open run\'s number (a state saved before runs were numbered is run 1)', () => {
    expect(toResume(saved({ run: 4 }))?.run).toBe(4);
    expect(toResume(saved())?.run).toBe(1);
  });
});

describe('endRun', () => {
  it('marks the run ended and every live lane stopped (its spools are never read again: the next run has its own)', () => {
    const ended = endRun(saved(), '2026-01-01T00:00:00.000Z');
    expect(ended.ended).toBe('2026-01-01T00:00:00.000Z');
    expect(states(lanesAsSeen(ended))).toEqual(['lead:stopped', 'lane-a:stopped', 'lane-b:done', 'lane-c:stopped']);
    expect(ended).toMatchObject({ timers: [], pending: [] });
  });
});

describe('lanesAsSeen', () => {
  it('shows the lanes as saved, in start order', () => {
    expect(states(lanesAsSeen(saved()))).toEqual(['lead:working', 'lane-a:working', 'lane-b:done', 'lane-c:stopped']);
  });

  it('after a lost tmux server, every live agent is lost; done and stopped lanes stay', () => {
    expect(states(lanesAsSeen(saved({ hostLost: { at: 'x', reason: 'gone' } })))).toEqual(['lead:lost', 'lane-a:lost', 'lane-b:done', 'lane-c:stopped']);
  });
});
