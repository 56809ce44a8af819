/**
 * A lane promoted to lead in place (SPEC 10.5): who is promoted (core/swarm/promotion.ts), and the
 * whole-swarm steps that glue the two lane machines (core/swarm/reduce.ts): the lead lane awaits the
 * lane, the lane hands off its lane work, its spent pane and account go to the lead lane at its
 * successor's acceptance; a promotion that cannot happen goes back to picking a successor lead.
 */
import { describe, expect, it } from 'vitest';
import { initialLane } from '../../../src/machine/laneState.js';
import type { Handoff, LaneState } from '../../../src/machine/types.js';
import { promotedName, promotionTarget, type PromotionInput } from '../../../src/core/swarm/promotion.js';
import { reduceSwarm, type SwarmContext } from '../../../src/core/swarm/reduce.js';
import type { SwarmState } from '../../../src/core/swarm/state.js';
import { parseReport, type Report } from '../../../src/core/protocol/protocol.js';

const done = (): Report => { const r = parseReport('done'); if (!r.ok) throw new Error('no report'); return r.report; };

const MIN = 60_000;
const NOW = 1_000_000;
const working = (name: string, over: Partial<LaneState> = {}): LaneState => ({
  ...initialLane({ name, role: name === 'lead' ? 'lead' : 'lane', account: name === 'lead' ? 'a0' : `acc-${name}`, now: 0 }),
  state: 'working', paneId: `%${name}`, ...over,
});

const handoff = (over: Partial<Handoff> = {}): Handoff => ({
  packet: '/p/lead-degraded.yaml', reason: 'lane_lost', degraded: true, from: { generation: 1, account: 'a0', paneId: '%lead' }, successor: null,
  tried: [], rejected: [], picks: 0, retryAt: null, accountLimited: false, ...over,
});

/** The lead lane lost, its degraded packet written: the next step picks its successor. */
const lostLead = (over: Partial<LaneState> = {}): LaneState => working('lead', { state: 'lost', phase: 'degraded', handoff: { ...handoff(), packet: null }, ...over });

function state(lanes: LaneState[], over: Partial<SwarmState> = {}): SwarmState {
  return {
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: {},
    lanes: Object.fromEntries(lanes.map((l) => [l.name, l])), order: lanes.map((l) => l.name),
    leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: {}, readings: {}, timers: [], pending: [],
    allDoneTold: false, releaseAt: null, planDone: false, added: [], leadNext: null, asks: [], askTimeouts: 0, ...over,
  };
}

const ctx = (succession: string[], over: Partial<SwarmContext> = {}): SwarmContext => ({
  now: NOW,
  config: {
    thresholds: { maxGenerations: 8 } as SwarmContext['config']['thresholds'],
    timeouts: { accept: 4 * MIN, packet: 3 * MIN, stall: 20 * MIN, ask: 5 * MIN, release: 7 * MIN } as SwarmContext['config']['timeouts'],
    lanes: [{ name: 'lane-a', checkout: '/repo', doneWhen: null }, { name: 'lane-b', checkout: '/repo', doneWhen: null }] as SwarmContext['config']['lanes'],
    lead: { name: 'lead', succession } as SwarmContext['config']['lead'],
    maxLanes: 4,
  },
  untilDone: true, leadRecord: null, finished: false, ...over,
});

const types = (effects: { lane: string | null; effect: { type: string } }[]): string[] => effects.map((e) => `${e.lane ?? 'swarm'}:${e.effect.type}`);

describe('promotionTarget: the succession decides, in its order', () => {
  const input = (lanes: LaneState[], succession: string[], leadNext: string | null = null): PromotionInput => ({
    lanes: Object.fromEntries([working('lead'), ...lanes].map((l) => [l.name, l])), leadName: 'lead', leadAgent: 'lead', leadNext, succession,
  });
  it.each<[string, LaneState[], string[], string | null, boolean, string | null]>([
    ['a lane first in the succession is promoted', [working('lane-a')], ['lane-a'], null, false, 'lane-a'],
    ['a successor lead first: none (swarm starts lead-b)', [working('lane-a')], ['lead-b', 'lane-a'], null, false, null],
    ['no account for lead-b: the lanes after it', [working('lane-a')], ['lead-b', 'lane-a'], null, true, 'lane-a'],
    ['a lane handing off is passed over', [working('lane-a', { phase: 'writing' }), working('lane-b')], ['lane-a', 'lane-b'], null, false, 'lane-b'],
    ['a lane near its handoff is passed over', [working('lane-a', { phase: 'near' })], ['lane-a'], null, false, null],
    ['a blocked lane is passed over', [working('lane-a', { state: 'blocked' })], ['lane-a', 'lead-b'], null, false, null],
    ['a done lane is passed over', [working('lane-a', { state: 'done' })], ['lane-a'], null, false, null],
    ['a lane with no pane yet is passed over', [working('lane-a', { state: 'starting', paneId: null })], ['lane-a'], null, false, null],
    ['a lane running its gate is passed over', [working('lane-a', { gate: { id: 'g', command: 'true', since: 0 } })], ['lane-a'], null, false, null],
    ['a lane whose promotion failed is not tried again', [working('lane-a'), working('lane-b')], ['lane-a', 'lane-b'], null, false, 'lane-b'],
    ['a handover named a lane: that lane first', [working('lane-a'), working('lane-b')], ['lane-a', 'lane-b'], 'lane-b', false, 'lane-b'],
    ['empty succession: none', [working('lane-a')], [], null, true, null],
  ])('%s', (name, lanes, succession, leadNext, lanesOnly, want) => {
    const tried = name.includes('failed') ? ['lane-a'] : [];
    expect(promotionTarget(input(lanes, succession, leadNext), tried, lanesOnly)).toBe(want);
  });

  it('the name a promoted agent leads by never names another agent', () => {
    expect(promotedName('lead', 'lane-a', ['lead', 'lane-a'])).toBe('lead-lane-a');
    expect(promotedName('lead', 'lane-a', ['lead', 'lane-a', 'lead-lane-a'])).toBe('lead-lane-a-2');
  });
});

describe('reduceSwarm: a promotion in place', () => {
  it('decided: the lead lane awaits lane-a (no account picked), lead.json is claimed for lead-lane-a, its messages go there', () => {
    const s = state([lostLead(), working('lane-a')]);
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'degraded_written', packet: '/p/lead-degraded.yaml' } }, ctx(['lane-a']));
    expect(types(step.effects)).not.toContain('lead:pick_account');
    expect(step.effects.map((e) => e.effect)).toContainEqual({ type: 'promote_lane', lane: 'lane-a', generation: 1, as: 'lead-lane-a' });
    expect(step.state.lanes.lead!.handoff?.promotion).toEqual({ lane: 'lane-a', generation: 1, as: 'lead-lane-a', deadline: NOW + 3 * MIN + 8 * MIN });
    expect(step.state.leadNext).toBe('lead-lane-a');
    expect(step.state.timers).toContainEqual({ lane: 'lead', timer: 'accept', at: NOW + 11 * MIN });
  });

  it('a successor lead first in the succession: an account is picked as before, nobody promoted', () => {
    const s = state([lostLead(), working('lane-a')]);
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'degraded_written', packet: '/p/lead-degraded.yaml' } }, ctx(['lead-b', 'lane-a']));
    expect(types(step.effects)).toContain('lead:pick_account');
    expect(step.effects.map((e) => e.effect.type)).not.toContain('promote_lane');
  });

  it('no account for lead-b (default order): lane-a of the lead\'s checkout is promoted instead of waiting', () => {
    const lead = lostLead({ phase: 'spawning', handoff: handoff({ picks: 1 }) });
    const step = reduceSwarm(state([lead, working('lane-a')]), { type: 'lane', lane: 'lead', event: { type: 'lease', account: null, resetsAt: null, why: 'none free' } }, ctx(['lead-b', 'lane-a']));
    expect(step.state.lanes.lead!.phase).toBe('spawning');
    expect(step.state.lanes.lead!.handoff?.promotion?.lane).toBe('lane-a');
    expect(step.effects.map((e) => e.effect.type)).toContain('promote_lane');
  });

  it('the lane told: it writes its lane packet now (packet deadline), its handoff marked promoted', () => {
    const s = state([lostLead({ phase: 'spawning', handoff: handoff({ promotion: { lane: 'lane-a', generation: 1, as: 'lead-lane-a', deadline: NOW + MIN } }) }), working('lane-a')]);
    const step = reduceSwarm(s, { type: 'lane', lane: 'lane-a', event: { type: 'promote', as: 'lead-lane-a', epoch: 2 } }, ctx(['lane-a']));
    expect(step.state.lanes['lane-a']).toMatchObject({ phase: 'writing', handoff: { reason: 'lead_handover', promoted: { as: 'lead-lane-a', epoch: 2 } } });
    expect(types(step.effects)).toEqual(['lane-a:journal', 'lane-a:notify']);
    expect(step.state.timers).toContainEqual({ lane: 'lane-a', timer: 'packet', at: NOW + 3 * MIN });
  });

  const promoting = (laneOver: Partial<LaneState> = {}) => state([
    lostLead({ phase: 'spawning', handoff: handoff({ promotion: { lane: 'lane-a', generation: 1, as: 'lead-lane-a', deadline: NOW + MIN } }) }),
    working('lane-a', {
      phase: 'spawning',
      handoff: { ...handoff({ packet: '/p/a.yaml', reason: 'lead_handover', degraded: false, from: { generation: 1, account: 'acc-lane-a', paneId: '%lane-a' }, promoted: { as: 'lead-lane-a', epoch: 2 } }), successor: { generation: 2, account: 'o1', paneId: '%9', deadline: NOW + MIN, spawnedAt: NOW } },
      ...laneOver,
    }),
  ], { leadNext: 'lead-lane-a', epoch: 2 });

  it('lane-a\'s successor accepts: its spent pane is not closed but adopted by the lead lane at g2, the lease moved; lanes told of the new lead', () => {
    const step = reduceSwarm(promoting(), { type: 'lane', lane: 'lane-a', event: { type: 'accepted', generation: 2, packet: '/p/a.yaml' } }, ctx(['lane-a'], { leadRecord: { epoch: 2 } as never }));
    const effects = step.effects.map((e) => e.effect);
    expect(effects.filter((e) => e.type === 'close_pane' && e.paneId === '%lane-a')).toEqual([]);
    expect(effects.filter((e) => e.type === 'release_lease' && e.account === 'acc-lane-a')).toEqual([]);
    expect(effects).toContainEqual(expect.objectContaining({ type: 'adopt_pane', paneId: '%lane-a', account: 'acc-lane-a', agent: 'lead-lane-a', generation: 2, from: { lane: 'lane-a', generation: 1 } }));
    // The lost lead's account is released, its pane closed, as at any acceptance.
    expect(effects).toContainEqual(expect.objectContaining({ type: 'release_lease', account: 'a0' }));
    expect(step.state.lanes.lead).toMatchObject({ generation: 2, paneId: '%lane-a', account: 'acc-lane-a', state: 'working', promotedFrom: { lane: 'lane-a', generation: 1, epoch: 2 } });
    expect(step.state.lanes['lane-a']).toMatchObject({ generation: 2, paneId: '%9', account: 'o1' });
    expect(step.state).toMatchObject({ leadAgent: 'lead-lane-a', leadNext: null, epoch: 2 });
    expect(effects).toContainEqual({ type: 'tell_lanes', text: expect.stringContaining('lead-lane-a@2'), agent: 'lead-lane-a', epoch: 2 });
    expect(effects).toContainEqual(expect.objectContaining({ type: 'notify', text: expect.stringContaining('you lead now, as lead-lane-a at epoch 2') }));
  });

  it('lane-a\'s agent ended before its successor accepted: the promotion is declined, its pane closed as any, a successor lead picked', () => {
    const s = promoting();
    const ended = { ...s, lanes: { ...s.lanes, 'lane-a': { ...s.lanes['lane-a']!, handoff: { ...s.lanes['lane-a']!.handoff!, spentExited: true as const } } } };
    const step = reduceSwarm(ended, { type: 'lane', lane: 'lane-a', event: { type: 'accepted', generation: 2, packet: '/p/a.yaml' } }, ctx(['lane-a']));
    const effects = step.effects.map((e) => e.effect);
    expect(effects).toContainEqual(expect.objectContaining({ type: 'close_pane', paneId: '%lane-a' }));
    expect(effects.map((e) => e.type)).not.toContain('adopt_pane');
    expect(step.state.lanes.lead!.handoff).toMatchObject({ promotion: null, promotionsTried: ['lane-a'] });
    expect(types(step.effects)).toContain('lead:pick_account');
    expect(step.state.leadNext).toBeNull();
  });

  it('the promotion deadline passes: a successor lead is picked; lane-a\'s later acceptance closes its spent pane and frees its account', () => {
    const s = promoting();
    const timedOut = reduceSwarm({ ...s, timers: [{ lane: 'lead', timer: 'accept', at: NOW + MIN }] }, { type: 'timer', lane: 'lead', timer: 'accept', at: NOW + MIN }, ctx(['lane-a'], { now: NOW + MIN }));
    expect(timedOut.state.lanes.lead!.handoff).toMatchObject({ promotion: null, promotionsTried: ['lane-a'] });
    expect(types(timedOut.effects)).toContain('lead:pick_account');
    expect(timedOut.state.leadNext).toBeNull();
    const later = reduceSwarm(timedOut.state, { type: 'lane', lane: 'lane-a', event: { type: 'accepted', generation: 2, packet: '/p/a.yaml' } }, ctx(['lane-a'], { now: NOW + MIN }));
    const effects = later.effects.map((e) => e.effect);
    expect(effects).toContainEqual(expect.objectContaining({ type: 'close_pane', paneId: '%lane-a' }));
    expect(effects).toContainEqual(expect.objectContaining({ type: 'release_lease', account: 'acc-lane-a' }));
    expect(later.state.lanes.lead!.paneId).toBe('%lead');
  });

  it('lane-a reports done instead of handing off: the promotion is off, a successor lead picked', () => {
    const s = promoting({ phase: 'writing', handoff: { ...handoff({ packet: null, reason: 'lead_handover', degraded: false, from: { generation: 1, account: 'acc-lane-a', paneId: '%lane-a' }, promoted: { as: 'lead-lane-a', epoch: 2 } }) } });
    const step = reduceSwarm(s, { type: 'lane', lane: 'lane-a', event: { type: 'report', generation: 1, report: done() } }, ctx(['lane-a']));
    expect(step.state.lanes.lead!.handoff).toMatchObject({ promotion: null, promotionsTried: ['lane-a'] });
    expect(types(step.effects)).toContain('lead:pick_account');
  });

  it('lane-a can no longer be promoted when told (it began a handoff of its own): declined, a successor lead picked', () => {
    const s = promoting({ phase: 'reported', handoff: handoff({ packet: '/p/own.yaml', reason: 'capacity_critical', degraded: false, from: { generation: 1, account: 'acc-lane-a', paneId: '%lane-a' } }) });
    const step = reduceSwarm(s, { type: 'lane', lane: 'lane-a', event: { type: 'promote', as: 'lead-lane-a', epoch: 2 } }, ctx(['lane-a']));
    expect(step.state.lanes['lane-a']!.handoff?.promoted).toBeUndefined();
    expect(step.state.lanes.lead!.handoff).toMatchObject({ promotion: null, promotionsTried: ['lane-a'] });
    expect(types(step.effects)).toContain('lead:pick_account');
  });

  it('a restart while the promotion is awaited: the deadline again, no account picked (the lane\'s own handoff resumes as its own)', () => {
    const s = promoting();
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'resume', panes: [] } }, ctx(['lane-a']));
    expect(types(step.effects)).not.toContain('lead:pick_account');
    expect(step.state.timers).toContainEqual({ lane: 'lead', timer: 'accept', at: NOW + MIN });
  });
});
