/**
 * The fault matrix's rows (docs/reliability.md §1): each a swarm brought to one moment with state in
 * flight, where its scripts strike the fault (`at`), and a check that the moment held then.
 */
import type { FakePane } from './fakeHost.js';
import { HandClock } from './handClock.js';
import { waitFor } from './waitFor.js';
import { capacity, JUMP, state, until, type Moment, type Run } from './faultRun.js';

const lane = (r: Run, name = 'lane-a') => state(r).lanes[name];
const has = (r: Run, event: string) => r.t.events(event).length > 0;
const timer = (r: Run, name: string, which: string) => state(r).timers.some((e) => e.lane === name && e.timer === which);
const livePane = (r: Run, agent: string, generation: number) =>
  [...r.host.panes.values()].some((p) => p.info.lane === agent && p.info.generation === generation && !p.info.dead);

/** The successor's pane is recorded (successor_spawned), so the fault strikes a successor swarm knows. */
const recorded = (r: Run) => waitFor(() => has(r, 'successor_spawned'), { what: 'the successor recorded' });
/** What the fault set off is carried out before the agent takes its next step. */
const START = new HandClock().now();
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

export const MOMENTS: Record<string, Moment> = {
  working: {
    name: 'working, a stall nudge pending',
    scripts: (at, r) => ({ 'lane-a g1': ['ready', until('working', () => lane(r)?.state === 'working' && timer(r, 'lane-a', 'stall')), at, 'done'] }),
    hit: (r) => lane(r)?.state === 'working' && lane(r)?.phase === null && timer(r, 'lane-a', 'stall'),
  },
  near: {
    name: 'near',
    scripts: (at, r) => ({ 'lane-a g1': ['ready', capacity('low 20%'), until('near', () => lane(r)?.phase === 'near'), at, 'handoff'], 'lane-a g2': ['done'] }),
    hit: (r) => lane(r)?.phase === 'near',
  },
  writing: {
    name: 'writing (the packet deadline pending)',
    scripts: (at, r) => ({ 'lane-a g1': ['ready', capacity('critical 5%'), until('writing', () => lane(r)?.phase === 'writing'), at, 'handoff'], 'lane-a g2': ['done'] }),
    hit: (r) => lane(r)?.phase === 'writing' && timer(r, 'lane-a', 'packet'),
  },
  reported: {
    name: 'reported (the report in the inbox)',
    scripts: (at) => ({ 'lane-a g1': ['ready', 'handoff', at], 'lane-a g2': ['done'] }),
    hit: (r) => r.t.events('packet_accepted').length === 0,
  },
  spawning: {
    name: 'spawning (the intent saved, no pane yet)',
    scripts: () => ({ 'lane-a g1': ['ready', 'handoff'], 'lane-a g2': ['done'] }),
    wire: (host, at) => {
      host.beforeSpawn = async (spec) => {
        if (spec.lane === 'lane-a' && spec.generation === 2) await at();
      };
    },
    hit: (r) => lane(r)?.phase === 'spawning' && lane(r)?.handoff?.successor?.paneId === null && !livePane(r, 'lane-a', 2),
  },
  unaccepted: {
    name: 'successor started, not accepted',
    scripts: () => ({ 'lane-a g1': ['ready', 'handoff'], 'lane-a g2': ['done'] }),
    wire: (host, at, r) => { host.beforeAccept.set('lane-a g2 #1', async (pane) => { await recorded(r); await at(pane); await settle(); }); },
    hit: (r) => lane(r)?.phase === 'spawning' && livePane(r, 'lane-a', 2) && timer(r, 'lane-a', 'accept'),
  },
  accepted: {
    name: 'accepted, the spent pane not yet closed',
    scripts: (_at, r) => ({ 'lane-a g1': ['ready', 'handoff'], 'lane-a g2': [until('the spent pane closed', () => r.struck !== null && !livePane(r, 'lane-a', 1)), 'done'] }),
    wire: (host, at, r) => {
      host.beforeKill = async (pane: FakePane) => {
        // The acceptance is saved before its effects run (the journal's packet_accepted among them).
        if (pane.info.lane === 'lane-a' && pane.info.generation === 1 && lane(r)?.generation === 2) await at(pane);
      };
    },
    hit: (r) => lane(r)?.generation === 2 && livePane(r, 'lane-a', 1) && livePane(r, 'lane-a', 2),
  },
  gate: {
    name: 'a done_when gate running',
    lanes: [{ name: 'lane-a', doneWhen: 'sleep 0.3; true' }],
    scripts: (at, r) => ({ 'lane-a g1': ['ready', 'done', until('the gate', () => (lane(r)?.gate ?? null) !== null), at] }),
    hit: (r) => (lane(r)?.gate ?? null) !== null && !has(r, 'lane_result'),
  },
  ask: {
    name: 'an ask outstanding',
    scripts: (at, r) => ({ 'lane-a g1': ['ready', 'ask', until('the ask', () => state(r).asks.length > 0), at, 'done'] }),
    hit: (r) => state(r).asks.length > 0,
  },
  handover: {
    name: 'lead handover half done',
    succession: ['lead-b'],
    scripts: (_at, r) => ({ 'lead g1': ['ready', 'handover lead-b'], 'lane-a g1': ['ready', until('the fault', () => r.struck !== null), 'done'] }),
    wire: (host, at, r) => { host.beforeAccept.set('lead-b g2 #1', async (pane) => { await recorded(r); await at(pane); await settle(); }); },
    hit: (r) => livePane(r, 'lead-b', 2) && !has(r, 'lead_accepted'),
  },
  release: {
    name: 'the release deadline pending',
    lane: 'lead',
    holdRelease: true,
    scripts: (at, r) => ({ 'lead g1': ['ready', until('all lanes done', () => has(r, 'all_lanes_done') && state(r).releaseAt !== null), at] }),
    hit: (r) => state(r).releaseAt !== null && !state(r).planDone,
  },
  waiting: {
    name: '`waiting` for a reset',
    accounts: [{ id: 'a1', vendor: 'anthropic' }, { id: 'a2', vendor: 'anthropic' }],
    // Its only other account is its spent one, limited with no known reset: it waits on (SPEC 4), so
    // the run ends by --timeout, two minutes after the jump, once the waits are counted.
    timeoutMs: JUMP + 2 * 60_000,
    scripts: (at, r) => ({
      'lead g1': ['ready', until('waiting', () => lane(r)?.phase === 'waiting' && timer(r, 'lane-a', 'reset')), at, async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        r.notes.waits = r.t.events('waiting_for_reset').length;
        r.clock.advance(START + JUMP + 2 * 60_000 - r.clock.now());
      }],
      'lane-a g1': ['ready', 'usage limit'],
    }),
    hit: (r) => lane(r)?.phase === 'waiting' && timer(r, 'lane-a', 'reset'),
  },
};
