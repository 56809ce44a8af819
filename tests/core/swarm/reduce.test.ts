import { describe, expect, it } from 'vitest';
import { initialLane } from '../../../src/machine/laneState.js';
import type { Handoff, LaneState } from '../../../src/machine/types.js';
import { deadlines } from '../../../src/core/swarm/deadlines.js';
import { reduceSwarm, type SwarmContext } from '../../../src/core/swarm/reduce.js';
import type { SwarmEvent } from '../../../src/core/swarm/events.js';
import type { SwarmState } from '../../../src/core/swarm/state.js';
import { ALL_DONE_TEXT } from '../../../src/core/swarm/planEnd.js';
import { leadNotice } from '../../../src/core/swarm/leadSuccession.js';
import type { LeadRecord } from '../../../src/core/lead/epochs.js';

const MIN = 60_000;
const NOW = 1_000_000;
const working = (name: string, over: Partial<LaneState> = {}): LaneState => ({
  ...initialLane({ name, role: name === 'lead' ? 'lead' : 'lane', account: name === 'lead' ? 'a0' : 'a1', now: 0 }),
  state: 'working', paneId: `%${name}`, ...over,
});

function state(over: Partial<SwarmState> = {}): SwarmState {
  return {
    version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', spools: {},
    lanes: { lead: working('lead'), 'lane-a': working('lane-a') }, order: ['lead', 'lane-a'],
    leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: {}, readings: {}, timers: [], pending: [],
    allDoneTold: false, releaseAt: null, planDone: false, added: [], leadNext: null, asks: [], askTimeouts: 0, ...over,
  };
}

const ctx = (over: Partial<SwarmContext> = {}): SwarmContext => ({
  now: NOW,
  config: {
    thresholds: { maxGenerations: 8 } as SwarmContext['config']['thresholds'],
    timeouts: { accept: 4 * MIN, packet: 3 * MIN, stall: 20 * MIN, ask: 5 * MIN, release: 7 * MIN } as SwarmContext['config']['timeouts'],
    lanes: [{ name: 'lane-a', checkout: '/repo/a', doneWhen: null }] as SwarmContext['config']['lanes'],
    lead: { name: 'lead', succession: ['lead-b'] } as SwarmContext['config']['lead'],
    maxLanes: 4,
  },
  untilDone: true, leadRecord: null, finished: false, ...over,
});

const handoff = (over: Partial<Handoff>): Handoff => ({
  packet: 'p', reason: 'capacity', degraded: false, from: { generation: 1, account: 'a1', paneId: '%x' }, successor: null,
  tried: [], rejected: [], picks: 1, retryAt: null, accountLimited: false, ...over,
} as Handoff);
const types = (effects: { lane: string | null; effect: { type: string } }[]): string[] => effects.map((e) => `${e.lane ?? 'swarm'}:${e.effect.type}`);

describe('reduceSwarm: one step for the whole swarm', () => {
  it('a lane\'s set_timer is state in the same step, not an effect', () => {
    const s = state({ lanes: { lead: working('lead'), 'lane-a': { ...working('lane-a'), state: 'starting', paneId: null } } });
    const step = reduceSwarm(s, { type: 'lane', lane: 'lane-a', event: { type: 'started', generation: 1, account: 'a1', paneId: '%9' } }, ctx());
    expect(step.state.timers).toEqual([{ lane: 'lane-a', timer: 'stall', at: NOW + 20 * MIN }]);
    expect(types(step.effects)).toEqual(['lane-a:journal']);
    expect(step.state.lanes['lane-a']).toMatchObject({ paneId: '%9', state: 'starting' });
    expect(s.timers).toEqual([]); // the state given is not changed
  });

  it('a deadline fires once: its entry is cleared and the lane hears it; heard again (cleared since) it is ignored', () => {
    const s = state({ timers: [{ lane: 'lane-a', timer: 'stall', at: NOW - 1 }], lanes: { lead: working('lead'), 'lane-a': working('lane-a', { lastActivity: NOW - 30 * MIN }) } });
    const event: SwarmEvent = { type: 'timer', lane: 'lane-a', timer: 'stall', at: NOW - 1 };
    const step = reduceSwarm(s, event, ctx());
    expect(step.state.lanes['lane-a']!.stallNudged).toBe(true);
    expect(types(step.effects)).toContain('lane-a:notify');
    expect(step.state.timers.filter((t) => t.at === NOW - 1)).toEqual([]);
    const again = reduceSwarm({ ...step.state, timers: [] }, event, ctx());
    expect(again.effects).toEqual([]);
    expect(again.state).toEqual({ ...step.state, timers: [] });
  });

  it('a usage limit marks the account limited in the same step (no mark_limited effect)', () => {
    const step = reduceSwarm(state(), { type: 'lane', lane: 'lane-a', event: { type: 'signal', generation: 1, signal: 'usage_limit', what: 'x', resetsAt: '2026-01-01T05:00:00Z' } }, ctx());
    expect(step.state.limited).toEqual({ a1: '2026-01-01T05:00:00Z' });
    expect(types(step.effects)).not.toContain('lane-a:mark_limited');
  });

  it('the second ask timeout takes the lead over in the same call: the lead lane hears `exited`, its pane is killed', () => {
    const s = state({ asks: [{ from: 'lane-a', at: NOW - 6 * MIN }], askTimeouts: 1 });
    const step = reduceSwarm(s, { type: 'ask', event: { type: 'ask_due' } }, ctx());
    expect(step.state).toMatchObject({ asks: [], askTimeouts: 0 });
    expect(step.state.lanes.lead!.phase).not.toBe(s.lanes.lead!.phase);
    expect(types(step.effects).slice(0, 3)).toEqual(['swarm:journal', 'swarm:journal', 'swarm:kill']);
    expect(types(step.effects).filter((t) => t.startsWith('lead:'))).toContain('lead:write_degraded');
  });

  it('a handover is the lead lane\'s handoff in the same call', () => {
    const step = reduceSwarm(state(), { type: 'lead_handover', to: 'lead-b', packet: 'plans/p/.swarm/packets/lead-g1.yaml', newEpoch: 2 }, ctx());
    expect(step.state).toMatchObject({ leadNext: 'lead-b', epoch: 2 });
    expect(step.state.lanes.lead!.phase).toBe('reported');
    expect(types(step.effects)).toContain('lead:validate_packet');
  });

  it('a lead successor accepting takes office in the same step: every lane told, the new lead pointed at its mailbox', () => {
    const lead = working('lead', { phase: 'spawning', handoff: handoff({ from: { generation: 1, account: 'a0', paneId: '%lead' }, successor: { generation: 2, account: 'a2', paneId: '%l2', deadline: NOW + MIN, spawnedAt: NOW } }) });
    const s = state({ lanes: { lead, 'lane-a': working('lane-a') }, leadNext: 'lead-b', epoch: 2 });
    const record = { epoch: 2, released: false } as LeadRecord;
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'accepted', generation: 2, packet: 'p' } }, ctx({ leadRecord: record }));
    expect(step.state.lanes.lead!.generation).toBe(2);
    expect(step.state).toMatchObject({ leadAgent: 'lead-b', leadNext: null, epoch: 2 });
    expect(step.effects).toContainEqual({ lane: null, effect: { type: 'tell_lanes', text: leadNotice('lead-b', 2), agent: 'lead-b', epoch: 2 } });
    expect(step.effects).toContainEqual({ lane: null, effect: { type: 'poke', agent: 'lead-b' } });
  });

  it('the last lane done: the lead told once, the release deadline is state and armed from it', () => {
    const s = state({ lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'done' }) } });
    const step = reduceSwarm(s, { type: 'settle' }, ctx());
    expect(step.state).toMatchObject({ allDoneTold: true, releaseAt: NOW + 7 * MIN });
    expect(step.effects.map((e) => e.effect)).toEqual([
      { type: 'tell_lead', text: ALL_DONE_TEXT },
      { type: 'journal', kind: 'observation', event: 'all_lanes_done', lane: null, data: {} },
    ]);
    expect(deadlines(step.state, 5 * MIN)).toEqual([{ key: 'release', at: NOW + 7 * MIN, event: { type: 'plan', event: 'release_due' } }]);
    expect(reduceSwarm(step.state, { type: 'settle' }, ctx()).effects).toEqual([]);
  });

  it('a released record once every lane is done: released, then plan_done and the finish', () => {
    const s = state({ lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'done' }) } });
    const step = reduceSwarm(s, { type: 'settle' }, ctx({ leadRecord: { released: true } as LeadRecord }));
    expect(types(step.effects)).toEqual(['swarm:tell_lead', 'swarm:journal', 'swarm:release_plan']);
    const done = reduceSwarm(step.state, { type: 'plan', event: 'record_released' }, ctx());
    expect(done.state).toMatchObject({ planDone: true, releaseAt: null });
    expect(done.effects.map((e) => e.effect.type)).toEqual(['journal', 'finish']);
  });

  it('plan_done comes after every ended generation is journaled with what it spent (a report of the run stops at plan_done)', () => {
    const ended = { generation: 1, account: 'a1', vendor: null, started: 1, ended: 2, end: 'done' as const, turns: 0, processes: [], context_pct_at_end: null, capacity_start: null, capacity_end: null };
    const s = state({ lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'done' }) }, ledger: { 'lane-a': [ended], lead: [{ ...ended, journaled: true }] } });
    const step = reduceSwarm(s, { type: 'settle' }, ctx({ leadRecord: { released: true } as LeadRecord }));
    const done = reduceSwarm(step.state, { type: 'plan', event: 'record_released' }, ctx());
    expect(done.effects.map((e) => (e.effect.type === 'journal' ? `${e.effect.event}:${'lane' in e.effect ? (e.effect.lane ?? '-') : '?'}` : e.effect.type))).toEqual(['generation_spent:lane-a', 'plan_done:-', 'finish']);
    expect(done.state.ledger?.['lane-a']?.[0]?.journaled).toBe(true);
  });

  it('the plan done, the lead\'s agent gone: no successor, only its lease back (chaos seed 1029)', () => {
    const s = state({ planDone: true, lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'done' }) } });
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'exited', paneId: '%lead', status: 1 } }, ctx({ finished: true }));
    expect(types(step.effects)).toEqual(['lead:journal', 'lead:release_lease', 'lead:journal']);
    expect(step.effects[1]!.effect).toMatchObject({ type: 'release_lease', account: 'a0' });
    // Its generation's end is the ledger's (SPEC 10.7), journaled at the next look at the agents' usage.
    expect(step.state.ledger?.lead?.[0]).toMatchObject({ generation: 1, end: 'done' });
    expect(step.state.lanes.lead).toMatchObject({ state: 'done', paneId: null, handoff: null });
  });

  it('every lane done and the plan released while swarm was down: a restart that finds the lead\'s pane gone takes nobody over', () => {
    const s = state({ lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'done' }) } });
    const released = ctx({ leadRecord: { epoch: 1, released: true } as LeadRecord });
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'resume', panes: [] } }, released);
    const lead = types(step.effects).filter((t) => t.startsWith('lead:'));
    expect(lead).toEqual(['lead:journal', 'lead:release_lease', 'lead:journal']);
    expect(step.state.lanes.lead).toMatchObject({ state: 'done', handoff: null });
    // Not released yet: the lead is still needed, and a lost one is taken over.
    const open = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'resume', panes: [] } }, ctx());
    expect(types(open.effects)).toContain('lead:write_degraded');
  });

  it('the plan done while the lead, lost, waits for an account for its takeover: its lease comes back, the handoff is dropped (chaos seed 1026)', () => {
    const exit = { status: null, lines: [] };
    const lost = handoff({ degraded: true, from: { generation: 1, account: 'a0', paneId: '%lead' }, successor: null, tried: ['a2'], exit });
    const lead = working('lead', { state: 'blocked', phase: 'attention', blocked: { class: 'dependency', what: 'no successor accepted', source: 'engine' }, handoff: lost });
    const s = state({ allDoneTold: true, lanes: { lead, 'lane-a': working('lane-a', { state: 'done' }) } });
    const step = reduceSwarm(s, { type: 'plan', event: 'record_released' }, ctx());
    const effects = types(step.effects);
    expect(effects.filter((t) => t.startsWith('lead:') && t !== 'lead:clear_timer')).toEqual(['lead:journal', 'lead:release_lease', 'lead:journal']);
    expect(step.effects.find((e) => e.effect.type === 'journal')!.effect).toMatchObject({ event: 'handoff_dropped', data: { why: 'the plan is done' } });
    expect(step.effects.find((e) => e.effect.type === 'release_lease')!.effect).toMatchObject({ account: 'a0' });
    // Released before the run finishes: the finish is the last intent.
    expect(effects.indexOf('lead:release_lease')).toBeLessThan(effects.indexOf('swarm:finish'));
    expect(step.state.lanes.lead).toMatchObject({ state: 'done', phase: null, handoff: null, paneId: null });
    expect(step.state.planDone).toBe(true);
  });

  it.each<[string, Partial<LaneState>]>([
    ['its agent still runs (a reported packet nobody accepted)', { state: 'blocked', phase: 'attention', handoff: handoff({ from: { generation: 1, account: 'a0', paneId: '%lead' }, successor: null }) }],
    ['its agent still runs and its successor is on its way (the successor is given up)', { phase: 'spawning', handoff: handoff({ from: { generation: 1, account: 'a0', paneId: '%lead' }, successor: { generation: 2, account: 'a2', paneId: '%l2', deadline: NOW + MIN, spawnedAt: NOW } }) }],
    ['it works', {}],
  ])('the plan done, the lead keeps its lease while %s', (_name, over) => {
    const s = state({ allDoneTold: true, lanes: { lead: working('lead', over), 'lane-a': working('lane-a', { state: 'done' }) } });
    const step = reduceSwarm(s, { type: 'plan', event: 'record_released' }, ctx());
    const released = step.effects.flatMap((e) => (e.effect.type === 'release_lease' ? [e.effect.account] : []));
    expect(released).not.toContain('a0');
    expect(step.state.planDone).toBe(true);
  });

  it('the plan done while the lead hands over: the handoff goes on (its successor holds the lease)', () => {
    const lead = working('lead', { phase: 'spawning', handoff: handoff({ from: { generation: 1, account: 'a0', paneId: '%lead' }, successor: { generation: 2, account: 'a2', paneId: '%l2', deadline: NOW + MIN, spawnedAt: NOW } }) });
    const s = state({ planDone: true, lanes: { lead, 'lane-a': working('lane-a', { state: 'done' }) } });
    const step = reduceSwarm(s, { type: 'lane', lane: 'lead', event: { type: 'exited', paneId: '%lead', status: 0 } }, ctx({ finished: true }));
    expect(step.state.lanes.lead).toMatchObject({ state: 'working', phase: 'spawning' });
    expect(types(step.effects)).not.toContain('lead:release_lease');
  });

  it('stopped short under --until-done, but not once the run has settled', () => {
    const s = state({ lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'blocked', blocked: { class: 'decision', what: 'q', source: 'report' } }) } });
    expect(types(reduceSwarm(s, { type: 'settle' }, ctx()).effects)).toEqual(['swarm:journal', 'swarm:finish']);
    expect(reduceSwarm(s, { type: 'settle' }, ctx({ finished: true })).effects).toEqual([]);
  });

  it('a lane added: recorded, the release deadline stopped, its start an intent; no plan end looked at', () => {
    const s = state({ allDoneTold: true, releaseAt: NOW + MIN, lanes: { lead: working('lead'), 'lane-a': working('lane-a', { state: 'done' }) } });
    const record = { kind: 'lane', name: 'lane-z', task: 't', checkout: '/repo/z', lane_kind: null, from: 'lead', epoch: 1, ts: 'x' } as Extract<SwarmEvent, { type: 'lane_add' }>['record'];
    const step = reduceSwarm(s, { type: 'lane_add', record }, ctx());
    expect(step.state).toMatchObject({ allDoneTold: false, releaseAt: null, added: [{ name: 'lane-z', checkout: '/repo/z' }] });
    expect(types(step.effects)).toEqual(['swarm:journal', 'swarm:start_added']);
  });

  it('a lease freed: every lane hears it in one step', () => {
    const waiting = working('lane-a', { phase: 'waiting', handoff: handoff({ from: { generation: 1, account: 'a1', paneId: '%lane-a' }, retryAt: NOW + MIN }) });
    const step = reduceSwarm(state({ lanes: { lead: working('lead'), 'lane-a': waiting } }), { type: 'account_freed', account: 'a3' }, ctx());
    expect(types(step.effects)).toContain('lane-a:pick_account');
  });

  it('a last spool line without its newline: its deadline set when first seen, kept while it is the same line, armed, and it asks for a read when due', () => {
    const first = reduceSwarm(state(), { type: 'inbox_read', reads: [{ spool: 'r1/lane-a-g1', offset: 40, tail: 40, torn: [] }] }, ctx());
    expect(first.state.spools?.['r1/lane-a-g1']?.tail).toEqual({ offset: 40, due: NOW + 10_000 });
    const later = reduceSwarm(first.state, { type: 'inbox_read', reads: [{ spool: 'r1/lane-a-g1', offset: 40, tail: 40, torn: [] }] }, ctx({ now: NOW + 4000 }));
    expect(later.state).toBe(first.state);
    expect(deadlines(later.state, 5 * MIN)).toContainEqual({ key: 'inbox', at: NOW + 10_000, event: { type: 'inbox_due' } });
    expect(reduceSwarm(later.state, { type: 'inbox_due' }, ctx({ now: NOW + 10_000 })).effects).toEqual([{ lane: null, effect: { type: 'read_inbox' } }]);
    const moved = reduceSwarm(later.state, { type: 'inbox_read', reads: [{ spool: 'r1/lane-a-g1', offset: 90, tail: 90, torn: [] }] }, ctx({ now: NOW + 5000 })).state;
    expect(moved.spools?.['r1/lane-a-g1']?.tail).toEqual({ offset: 90, due: NOW + 15_000 });
    const torn = reduceSwarm(moved, { type: 'inbox_read', reads: [{ spool: 'r1/lane-a-g1', offset: 130, tail: null, torn: [{ offset: 90, bytes: 40 }] }] }, ctx({ now: NOW + 15_000 }));
    expect(torn.state.spools?.['r1/lane-a-g1']?.tail).toBeNull();
    expect(deadlines(torn.state, 5 * MIN).filter((d) => d.key === 'inbox')).toEqual([]);
    expect(torn.effects).toEqual([{ lane: null, effect: { type: 'journal', kind: 'observation', event: 'inbox_torn', lane: null, data: { spool: 'r1/lane-a-g1', offset: 90, bytes: 40 } } }]);
  });

  it('a spool\'s offset, a session and a lane\'s state are plain state changes', () => {
    let s = reduceSwarm(state(), { type: 'inbox_read', reads: [{ spool: 'r1/lane-a-g1', offset: 42, tail: null, torn: [] }] }, ctx()).state;
    s = reduceSwarm(s, { type: 'session', lane: 'lane-a', generation: 1, sessionId: 'abc', transcriptPath: null }, ctx()).state;
    s = reduceSwarm(s, { type: 'lanes_created', lanes: [{ name: 'lead', role: 'lead', account: 'a9' }, { name: 'lane-b', role: 'lane', account: null }, { name: 'lane-c', role: 'lane', account: 'a3' }] }, ctx()).state;
    expect(s.spools?.['r1/lane-a-g1']?.offset).toBe(42);
    expect(s.sessions).toEqual({ 'lane-a': { generation: 1, sessionId: 'abc', transcriptPath: null } });
    expect(s.order).toEqual(['lead', 'lane-a', 'lane-b', 'lane-c']);
    expect(s.lanes.lead!.account).toBe('a0'); // a known lane stays as it is
    const same = reduceSwarm(s, { type: 'lanes_created', lanes: [{ name: 'lane-b', role: 'lane', account: null }] }, ctx());
    expect(same.state).toBe(s);
  });

  it('a lost host is recorded once, journaled, and finishes the run', () => {
    const step = reduceSwarm(state(), { type: 'host_lost', reason: 'server exited' }, ctx());
    expect(step.state.hostLost).toEqual({ at: new Date(NOW).toISOString(), reason: 'server exited' });
    expect(types(step.effects)).toEqual(['swarm:journal', 'swarm:finish']);
    expect(reduceSwarm(step.state, { type: 'host_lost', reason: 'again' }, ctx()).effects).toEqual([]);
  });
});
