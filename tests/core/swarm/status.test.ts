import { describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../../src/core/lead/epochs.js';
import { initialLane } from '../../../src/machine/laneState.js';
import type { LaneState } from '../../../src/machine/types.js';
import { statusJson, statusTable, type StatusInput, type StatusJson } from '../../../src/core/swarm/status.js';

const NOW = 1_750_000_000_000;

const lane = (name: string, over: Partial<LaneState> = {}): LaneState => ({
  ...initialLane({ name, role: 'lane', account: 'work2', now: NOW - 600_000 }), ...over,
});

const record: LeadRecord = {
  plan: 'demo', lead: 'lead', epoch: 2, succession: ['lead-b', 'lane-a'], lanes: ['lane-a', 'lane-b'],
  revision: 5, updated_at: '2025-06-15T14:00:00.000Z', released: false, account: 'work1',
};

const input = (lanes: LaneState[], over: Partial<StatusInput> = {}): StatusInput => ({
  plan: 'demo', session: 'swarm-demo', leadName: 'lead', leadAgent: 'lead', epoch: 1, lanes, record, now: NOW, ...over,
});

type JsonLane = StatusJson['lanes'][number];
const jsonLane = (name: string, over: Partial<JsonLane> = {}): JsonLane => ({
  name, generation: 1, account: 'work2', state: 'starting', phase: null, capacity: null, context_pct: null, blocked: null, last: null, generations: [], ...over,
});

const { account: _account, ...withoutAccount } = record;

const leadLane = lane('lead', { role: 'lead', account: 'work1', state: 'working' });

describe('statusJson', () => {
  it.each<[string, LaneState, JsonLane]>([
    ['starting', lane('lane-a'), jsonLane('lane-a')],
    ['working with a capacity line and a phase', lane('lane-a', {
      state: 'working', generation: 2, account: 'work3', phase: 'accepted', phaseSince: NOW - 5000,
      capacity: 'capacity=ok 64% @work3 context=41%', capacityState: 'ok', remainingPct: 64, contextPct: 41, last: 'PR open https://x/pr/1',
    }), jsonLane('lane-a', {
      state: 'working', generation: 2, account: 'work3', phase: 'accepted',
      capacity: 'capacity=ok 64% @work3 context=41%', context_pct: 41, last: 'PR open https://x/pr/1',
    })],
    ['blocked: {class, what} only', lane('lane-a', {
      state: 'blocked', blocked: { class: 'login', what: 'log in to work2 in the pane', source: 'screen' }, last: 'blocked login log in',
    }), jsonLane('lane-a', { state: 'blocked', blocked: { class: 'login', what: 'log in to work2 in the pane' }, last: 'blocked login log in' })],
    ['blocked with the lane held in attention', lane('lane-a', {
      state: 'blocked', phase: 'attention', blocked: { class: 'dependency', what: 'no successor accepted', source: 'engine' },
    }), jsonLane('lane-a', { state: 'blocked', phase: 'attention', blocked: { class: 'dependency', what: 'no successor accepted' } })],
    ['done', lane('lane-a', { state: 'done', last: 'done' }), jsonLane('lane-a', { state: 'done', last: 'done' })],
    ['lost, a handoff degraded', lane('lane-a', { state: 'lost', phase: 'degraded' }), jsonLane('lane-a', { state: 'lost', phase: 'degraded' })],
    ['stopped at max generations', lane('lane-a', { state: 'stopped', phase: 'stopped', generation: 8 }),
      jsonLane('lane-a', { state: 'stopped', phase: 'stopped', generation: 8 })],
    ['no account yet', lane('lane-a', { account: null }), jsonLane('lane-a', { account: null })],
  ])('a lane %s', (_name, l, expected) => {
    expect(statusJson(input([leadLane, l]))).toEqual({
      plan: 'demo', session: 'swarm-demo', lead: { name: 'lead', epoch: 2, account: 'work1', state: 'working' }, lanes: [expected],
    });
  });

  it('has exactly the keys of SPEC 7, in order', () => {
    const json = statusJson(input([leadLane, lane('lane-a')]));
    expect(Object.keys(json)).toEqual(['plan', 'session', 'lead', 'lanes']);
    expect(Object.keys(json.lead)).toEqual(['name', 'epoch', 'account', 'state']);
    // SPEC 10.7 adds `generations` to each lane.
    expect(Object.keys(json.lanes[0]!)).toEqual(['name', 'generation', 'account', 'state', 'phase', 'capacity', 'context_pct', 'blocked', 'last', 'generations']);
  });

  it('keeps the lanes in their order and leaves the lead out of them', () => {
    const json = statusJson(input([lane('lane-b'), leadLane, lane('lane-a')]));
    expect(json.lanes.map((l) => l.name)).toEqual(['lane-b', 'lane-a']);
  });

  it.each<[string, StatusInput, StatusJson['lead']]>([
    ['the lead lane and record', input([leadLane]), { name: 'lead', epoch: 2, account: 'work1', state: 'working' }],
    ['lead released', input([leadLane], { record: { ...record, released: true } }), { name: 'lead', epoch: 2, account: 'work1', state: 'released' }],
    ['released with no lead lane', input([], { record: { ...record, released: true } }), { name: 'lead', epoch: 2, account: 'work1', state: 'released' }],
    ['no record: the agent name and the engine epoch', input([leadLane], { record: null, leadAgent: 'lead', epoch: 3 }),
      { name: 'lead', epoch: 3, account: 'work1', state: 'working' }],
    ['no record and no lead lane: starting', input([], { record: null, epoch: 1 }), { name: 'lead', epoch: 1, account: null, state: 'starting' }],
    ['the record names the successor lead', input([leadLane], { record: { ...record, lead: 'lead-b', epoch: 3 }, leadAgent: 'lead-b' }),
      { name: 'lead-b', epoch: 3, account: 'work1', state: 'working' }],
    ['a record with a vacant lead falls back to the agent name', input([], { record: { ...record, lead: null }, leadAgent: 'lead' }),
      { name: 'lead', epoch: 2, account: 'work1', state: 'starting' }],
    ['the record account when the lead lane has none', input([{ ...leadLane, account: null }]),
      { name: 'lead', epoch: 2, account: 'work1', state: 'working' }],
    ['the lead lane account before the record one', input([{ ...leadLane, account: 'work9' }]),
      { name: 'lead', epoch: 2, account: 'work9', state: 'working' }],
    ['a record without an account', input([], { record: withoutAccount }),
      { name: 'lead', epoch: 2, account: null, state: 'starting' }],
    ['a blocked lead', input([{ ...leadLane, state: 'blocked', blocked: { class: 'payment', what: 'x', source: 'screen' } }]),
      { name: 'lead', epoch: 2, account: 'work1', state: 'blocked' }],
  ])('lead: %s', (_name, i, expected) => {
    expect(statusJson(i).lead).toEqual(expected);
  });
});

describe('statusTable', () => {
  const two = [
    leadLane,
    lane('lane-a', {
      state: 'working', generation: 2, account: 'work3', phase: 'accepted', phaseSince: NOW - 125_000,
      capacity: 'capacity=ok 64% @work3', contextPct: 41, last: 'PR open https://x/1',
    }),
    lane('lane-b', { state: 'blocked', blocked: { class: 'login', what: 'log in to work2', source: 'screen' } }),
  ];

  it('prints a header and two lanes as exact text', () => {
    expect(statusTable(input(two))).toBe([
      'swarm demo — plan demo — lead lead@2 (work1) working',
      'LANE    GEN  ACCOUNT  STATE          PHASE        CAPACITY                CTX  LAST',
      'lane-a  g2   work3    working        accepted 2m  capacity=ok 64% @work3  41%  PR open https://x/1',
      'lane-b  g1   work2    blocked login  -            -                       -    -',
    ].join('\n'));
  });

  it('prints a released lead without an account, and no lanes', () => {
    expect(statusTable(input([], { record: { ...record, released: true, account: null } }))).toBe([
      'swarm demo — plan demo — lead lead@2 released',
      'LANE  GEN  ACCOUNT  STATE  PHASE  CAPACITY  CTX  LAST',
    ].join('\n'));
  });

  it('keeps a session name that does not start with swarm-', () => {
    expect(statusTable(input([], { session: 'other', record: null })).split('\n')[0]).toBe('swarm other — plan demo — lead lead@1 starting');
  });

  it.each<[string, Partial<LaneState>, string]>([
    ['a phase without a start time shows 0s', { state: 'working', phase: 'writing', phaseSince: null }, 'lane-a  g1   work2    working  writing 0s  -         -    -'],
    ['an hour-long wait', { state: 'working', phase: 'waiting', phaseSince: NOW - 3_720_000 }, 'lane-a  g1   work2    working  waiting 1h02m  -         -    -'],
    ['a blocked state without its reason', { state: 'blocked', blocked: null }, 'lane-a  g1   work2    blocked  -      -         -    -'],
    ['context 0%', { state: 'working', contextPct: 0 }, 'lane-a  g1   work2    working  -      -         0%   -'],
    ['a long last report is cut to 60', { state: 'working', last: 'x'.repeat(80) }, `lane-a  g1   work2    working  -      -         -    ${'x'.repeat(59)}…`],
    ['a last report of exactly 60 stays', { state: 'working', last: 'y'.repeat(60) }, `lane-a  g1   work2    working  -      -         -    ${'y'.repeat(60)}`],
    ['control characters in the last report are flattened', { state: 'working', last: '\tdone\r\nnext\u0007 ' }, 'lane-a  g1   work2    working  -      -         -    done next'],
  ])('one lane: %s', (_name, over, row) => {
    const lines = statusTable(input([leadLane, lane('lane-a', over)])).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(row);
  });

  it('has no escape codes and no trailing spaces', () => {
    const text = statusTable(input([...two, lane('lane-c', { last: '\u001b[1mbold\u001b[0m' })]));
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(text.split('\n').every((l) => l === l.trimEnd())).toBe(true);
  });
});

describe('statusTable: a lane promoted in place (SPEC 10.5)', () => {
  const leadLost = (over: Partial<LaneState> = {}): LaneState => ({ ...initialLane({ name: 'lead', role: 'lead', account: 'work1', now: 0 }), state: 'lost', ...over });
  const base: StatusInput = { plan: 'p', session: 'swarm-demo', leadName: 'lead', leadAgent: 'lead', epoch: 2, lanes: [], record: null, now: 0 };
  it('says which lane is being promoted while the lead lane awaits it, and which lane the lead was promoted from after', () => {
    const awaiting = leadLost({ phase: 'spawning', handoff: { packet: 'p', reason: 'lane_lost', degraded: true, from: { generation: 1, account: 'work1', paneId: '%1' }, successor: null, tried: [], rejected: [], picks: 1, retryAt: null, accountLimited: false, promotion: { lane: 'lane-a', generation: 1, as: 'lead-lane-a', deadline: 9 } } });
    expect(statusTable({ ...base, lanes: [awaiting] }).split('\n')[0]).toBe('swarm demo — plan p — lead lead@2 (work1) lost, promoting lane-a');
    const record = { plan: 'p', lead: 'lead-lane-a', epoch: 2, succession: [], lanes: [], revision: 3, updated_at: '', released: false, promoted_from: { lane: 'lane-a', generation: 1 } };
    expect(statusTable({ ...base, lanes: [leadLost({ state: 'working', account: 'work2' })], record, leadAgent: 'lead-lane-a' }).split('\n')[0])
      .toBe('swarm demo — plan p — lead lead-lane-a@2 (work2) working, lane-a g1 promoted in place');
    expect(Object.keys(statusJson({ ...base, lanes: [awaiting], record }).lead)).toEqual(['name', 'epoch', 'account', 'state']);
  });
});

describe('a reviewer in flight (SPEC 10.6)', () => {
  const reviewed = (reviewer: NonNullable<LaneState['review']>['reviewer']) => lane('lane-a', {
    state: 'working', account: 'a2', last: 'in review (round 2)',
    review: { round: 2, seq: 3, reviewer, tried: [], picks: 1, deadline: NOW + 60_000 },
  });

  it('is an entry of its own after its lane, role "reviewer", while it has an account', () => {
    const json = statusJson(input([leadLane, reviewed({ seq: 3, account: 'o1', paneId: '%7', since: NOW })]));
    expect(json.lanes).toEqual([
      jsonLane('lane-a', { state: 'working', account: 'a2', last: 'in review (round 2)' }),
      jsonLane('lane-a.review', { role: 'reviewer', review_of: 'lane-a', round: 2, generation: 3, account: 'o1', state: 'working', last: 'reviewing lane-a (round 2)' }),
    ]);
    expect(statusJson(input([leadLane, reviewed({ seq: 3, account: 'o1', paneId: null, since: NOW })])).lanes[1]).toMatchObject({ state: 'starting' });
    expect(statusJson(input([leadLane, reviewed(null)])).lanes).toHaveLength(1);
  });

  it('is a row of the table under its lane', () => {
    const table = statusTable(input([leadLane, reviewed({ seq: 3, account: 'o1', paneId: '%7', since: NOW }), lane('lane-b')]));
    expect(table.split('\n').slice(2).map((l) => l.split(/\s{2,}/)[0])).toEqual(['lane-a', 'lane-a.review', 'lane-b']);
    expect(table).toMatch(/lane-a\.review\s+g3\s+o1\s+reviewing\s+-\s+-\s+-\s+reviewing lane-a \(round 2\)/);
  });
});

describe('accounts (SPEC 10.7): each reading with its burn rate and minutes to critical', () => {
  const MIN = 60_000;
  const accounts = {
    readings: { o1: { state: 'low' as const, remainingPct: 22, resetsAt: '2025-06-15T20:00:00.000Z' }, a2: { state: 'ok' as const, remainingPct: 80, resetsAt: null } },
    samples: { o1: [{ at: NOW - 20 * MIN, pct: 42 }, { at: NOW - 10 * MIN, pct: 32 }, { at: NOW, pct: 22 }], a2: [{ at: NOW, pct: 80 }] },
    critical: 10,
  };

  it('status --json carries accounts: the id, state, remaining %, burn per hour, minutes to critical, reset', () => {
    expect(statusJson(input([leadLane], { accounts })).accounts).toEqual([
      { id: 'a2', state: 'ok', remaining_pct: 80, burn_pct_per_hour: null, critical_in_min: null, resets_at: null },
      { id: 'o1', state: 'low', remaining_pct: 22, burn_pct_per_hour: 60, critical_in_min: 12, resets_at: '2025-06-15T20:00:00.000Z' },
    ]);
    expect(statusJson(input([leadLane])).accounts).toBeUndefined();
  });

  it('the table ends with the accounts, "~12m left" where there is a forecast', () => {
    expect(statusTable(input([leadLane, lane('lane-a')], { accounts })).split('\n').at(-1)).toBe('ACCOUNTS  a2 ok 80% · o1 low 22% ~12m left');
    expect(statusTable(input([leadLane], { accounts: { readings: {}, samples: {}, critical: 10 } }))).not.toContain('ACCOUNTS');
  });
});

describe('a done lane in the table', () => {
  it("keeps its phase's age where the lane ended, as the dashboard does", () => {
    const done = lane('lane-a', { state: 'done', phase: 'accepted', phaseSince: NOW - 60_000, endedAt: NOW - 45_000 });
    expect(statusTable(input([leadLane, done]))).toMatch(/lane-a\s+g1\s+work2\s+done\s+accepted 15s/);
  });
});

describe('spend (SPEC 10.7): each lane\'s generations, and a SPEND column once any agent told a figure', () => {
  const g = (generation: number, cost: number | null, input: number | null, end: 'handed_off' | null = null) => ({
    generation, account: 'work2', vendor: 'anthropic', started: NOW - 600_000, ended: end === null ? null : NOW - 60_000, end, turns: 3,
    processes: [{ session: `s${generation}`, last: { cost_usd: cost, tokens: { input, output: 100, cache_read: null, cache_write: null } }, kept: { cost_usd: null, tokens: { input: null, output: null, cache_read: null, cache_write: null } } }],
    context_pct_at_end: end === null ? null : 71, capacity_start: 90, capacity_end: end === null ? null : 12,
  });
  const ledger = { 'lane-a': [g(1, 1.25, 5000, 'handed_off'), g(2, 0.5, 1000)], lead: [g(1, 0.255, 2000)], 'lane-b': [g(1, null, 412_000)] };

  it('status --json lanes carry generations, oldest first, with their figures', () => {
    const json = statusJson(input([leadLane, lane('lane-a', { generation: 2 }), lane('lane-b')], { ledger }));
    expect(json.lanes[0]!.generations).toEqual([
      { generation: 1, session_id: 's1', account: 'work2', vendor: 'anthropic', started: new Date(NOW - 600_000).toISOString(), ended: new Date(NOW - 60_000).toISOString(), end: 'handed_off', turns: 3, tokens: { input: 5000, output: 100, cache_read: null, cache_write: null }, cost_usd: 1.25, context_pct_at_end: 71, capacity_start: 90, capacity_end: 12 },
      expect.objectContaining({ generation: 2, session_id: 's2', ended: null, end: null, cost_usd: 0.5 }),
    ]);
    expect(json.lanes[1]!.generations[0]).toMatchObject({ cost_usd: null, tokens: { input: 412_000 } });
  });

  it('the table gains SPEND (a cost in dollars, else tokens) and the header the run\'s total, the lead\'s included', () => {
    const lines = statusTable(input([leadLane, lane('lane-a', { generation: 2 }), lane('lane-b')], { ledger })).split('\n');
    expect(lines[0]).toBe('swarm demo — plan demo — lead lead@2 (work1) working — spent $2.01');
    expect(lines[1]).toMatch(/CTX {2}SPEND +LAST$/);
    expect(lines[2]).toMatch(/^lane-a .* \$1\.75 +-$/);
    expect(lines[3]).toMatch(/^lane-b .* 412k tok +-$/);
  });
});
