import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReportInput } from '../../../src/adapters/reportInput.js';
import type { InboxRecord } from '../../../src/core/protocol/inbox.js';
import type { JournalEntry, JournalType } from '../../../src/core/protocol/journal.js';
import { buildFacts, type ReportInput } from '../../../src/core/report/facts.js';
import { ROOT } from '../../helpers/swarm.js';

const DEMO = join(ROOT, 'tests', 'fixtures', 'report', 'demo');
const VENDORS = new Map([['sim-a1', 'anthropic-sim'], ['sim-a2', 'anthropic-sim'], ['sim-a3', 'anthropic-sim'], ['sim-o1', 'openai-sim'], ['sim-o2', 'openai-sim'], ['sim-o3', 'openai-sim']]);
const POOL = { vendors: VENDORS, thresholds: { low: 25, critical: 10, contextPressure: 60 } };

const e = (time: string, event: string, lane: string | null, generation: number | null, more: Record<string, unknown> = {}, type: JournalType = 'observation'): JournalEntry =>
  ({ ts: `2025-06-15T${time}Z`, type, event, lane, generation, epoch: 1, ...more });
const input = (journal: JournalEntry[], inbox: InboxRecord[] = []): ReportInput =>
  ({ plan: 'p', journal, inbox, lead: null, packets: new Map(), ...POOL });

describe('buildFacts of the shipped demo run', () => {
  // tests/fixtures/report/demo: the plan files of a real `swarm up --headless` of the demo (paths under /repo).
  const facts = buildFacts(readReportInput(DEMO, 'plans/demo', POOL));

  it('has the lead row first, then the lanes, with each generation on its account and vendor', () => {
    expect(facts.lanes.map((l) => [l.name, l.role, l.state])).toEqual([
      ['lead', 'lead', 'done'], ['lane-a', 'lane', 'done'], ['lane-b', 'lane', 'done'], ['lane-c', 'lane', 'done'],
    ]);
    expect(facts.lanes[0]!.generations.map((g) => [g.generation, g.account, g.vendor, g.agent, g.end])).toEqual([
      [1, 'sim-a1', 'anthropic-sim', null, 'handed_off'], [2, 'sim-o3', 'openai-sim', 'lead-b', 'done'],
    ]);
    const a = facts.lanes[1]!.generations;
    expect(a.map((g) => [g.generation, g.account, g.vendor, g.end])).toEqual([[1, 'sim-a2', 'anthropic-sim', 'handed_off'], [2, 'sim-o2', 'openai-sim', 'done']]);
    expect(a[0]).toMatchObject({ started_at: '2026-12-01T11:58:24.338Z', ended_at: '2026-12-01T11:58:34.405Z' }); // to its pane's close
    expect(a[1]).toMatchObject({ started_at: '2026-12-01T11:58:32.014Z', ended_at: '2026-12-01T11:58:41.820Z' }); // spawned → gate passed
  });

  it('has both handoffs with times, turnaround, the packet and its `doing`', () => {
    expect(facts.handoffs.map((h) => [h.lane, h.from_generation, h.from_account, h.to_generation, h.to_account, h.reason, h.state, h.degraded])).toEqual([
      ['lane-a', 1, 'sim-a2', 2, 'sim-o2', 'capacity_low', 'accepted', false],
      ['lead', 1, 'sim-a1', 2, 'sim-o3', 'lead_handover', 'accepted', false],
    ]);
    expect(facts.handoffs[0]).toMatchObject({ reported_at: '2026-12-01T11:58:31.347Z', accepted_at: '2026-12-01T11:58:34.377Z', turnaround_ms: 3030 });
    expect(facts.handoffs[0]!.packet).toBe('/repo/plans/demo/analysis_results/handoff/lane-a-g1-20261201T115830Z.yaml');
    expect(facts.handoffs[0]!.doing).toMatch(/^stopped at a work boundary \(capacity_low\)/);
  });

  it('has the epochs, the gates, the capacity series and the summary', () => {
    expect(facts.epochs.map((x) => [x.epoch, x.lead, x.how, x.from, x.to])).toEqual([
      [1, 'lead', 'claimed', '2026-12-01T11:58:23.895Z', '2026-12-01T11:58:40.392Z'],
      [2, 'lead-b', 'handover', '2026-12-01T11:58:40.392Z', '2026-12-01T11:58:43.673Z'],
    ]);
    expect(facts.gates.map((g) => [g.lane, g.generation, g.passed])).toEqual([['lane-c', 1, true], ['lane-b', 1, true], ['lane-a', 2, true]]);
    const a = facts.lanes[1]!.capacity;
    expect(a[0]).toMatchObject({ generation: 1, account: 'sim-a2', remaining_pct: 20, source: 'probe' });
    expect(a.some((r) => r.source === 'report' && r.generation === 2)).toBe(true);
    expect(facts.lanes[1]!.last_report).toBe('done\ncapacity=ok 92% @sim-o2 context=6%');
    expect(facts.outcome).toEqual({ state: 'done', at: '2026-12-01T11:58:43.706Z', why: null });
    expect(facts.lead).toEqual({ name: 'lead-b', epoch: 2, released: true });
    expect(facts.summary).toMatchObject({ lanes: 3, lanes_done: 3, generations: 6, handoffs: 2, escalations: 0, gates_passed: 3, accounts: ['sim-a1', 'sim-a2', 'sim-a3', 'sim-o1', 'sim-o2', 'sim-o3'] });
  });
});

describe('buildFacts', () => {
  const started = e('09:00:00.000', 'lane_started', 'lane-a', 1, { account: 'w1' }, 'delegation');

  it('of an empty journal: no rows, nothing happened, not finished', () => {
    const facts = buildFacts(input([]));
    expect(facts).toMatchObject({ started_at: null, ended_at: null, lanes: [], handoffs: [], epochs: [], outcome: { state: 'unfinished' } });
  });

  it.each<[string, JournalEntry[], Record<string, unknown>]>([
    ['degraded: the notice and the packet after it are one handoff', [started,
      e('09:10:00.000', 'degraded_handoff', 'lane-a', 1, { reason: 'lane_lost', from_generation: 1 }),
      e('09:10:01.000', 'handoff_reported', 'lane-a', 1, { packet: '/p/x.yaml', reason: 'lane_lost', degraded: true })],
    { degraded: true, reason: 'lane_lost', packet: '/p/x.yaml', state: 'open', reported_at: '2025-06-15T09:10:00.000Z' }],
    ['a rejected packet, then a good one', [started,
      e('09:10:00.000', 'handoff_reported', 'lane-a', 1, { packet: '/p/bad.yaml', reason: 'capacity_low' }),
      e('09:10:01.000', 'packet_rejected', 'lane-a', 1, { packet: '/p/bad.yaml', reasons: ['doing is missing'] }),
      e('09:11:00.000', 'packet_accepted', 'lane-a', 2, { packet: '/p/good.yaml', account: 'w2', from_generation: 1 })],
    { rejected: [{ at: '2025-06-15T09:10:01.000Z', packet: '/p/bad.yaml', reasons: ['doing is missing'] }], state: 'accepted', packet: '/p/good.yaml', to_account: 'w2', turnaround_ms: 60_000 }],
    ['waiting for a reset', [started,
      e('09:10:00.000', 'handoff_reported', 'lane-a', 1, { packet: '/p/x.yaml', reason: 'capacity_critical' }),
      e('09:10:01.000', 'waiting_for_reset', 'lane-a', 1, { resetsAt: '2025-06-15T10:00:00.000Z', why: 'no headroom', retryAt: '2025-06-15T10:00:00.000Z' })],
    { state: 'open', waiting: [{ at: '2025-06-15T09:10:01.000Z', why: 'no headroom', resets_at: '2025-06-15T10:00:00.000Z', retry_at: '2025-06-15T10:00:00.000Z' }] }],
    ['stopped at max_generations', [started,
      e('09:10:00.000', 'handoff_reported', 'lane-a', 1, { packet: '/p/x.yaml', reason: 'context_pressure' }),
      e('09:10:00.100', 'max_generations', 'lane-a', 1, { packet: '/p/x.yaml', reason: 'context_pressure', max: 1 })],
    { state: 'stopped' }],
    ['held for attention', [started,
      e('09:10:00.000', 'handoff_reported', 'lane-a', 1, { packet: '/p/x.yaml', reason: 'capacity_low' }),
      e('09:20:00.000', 'escalation', 'lane-a', 1, { class: 'dependency', what: 'no successor accepted', source: 'engine' }, 'intervention')],
    { state: 'attention' }],
  ])('a handoff: %s', (_name, journal, expected) => {
    const facts = buildFacts(input(journal));
    expect(facts.handoffs).toHaveLength(1);
    expect(facts.handoffs[0]).toMatchObject(expected);
  });

  it('keeps the developer answer verbatim with its escalation, and the resolution', () => {
    const text = 'Logged in.\r\n  second line  \u001b[31mkept\u001b[0m <b>';
    const facts = buildFacts(input([started,
      e('09:10:00.000', 'escalation', 'lane-a', 1, { class: 'login', what: 'log in', source: 'screen' }, 'intervention'),
      e('09:12:00.000', 'developer_answer', 'lane-a', null, { text }, 'intervention'),
      e('09:13:00.000', 'unblocked', 'lane-a', 1, { class: 'login', source: 'screen' }),
      e('09:20:00.000', 'developer_answer', 'lane-b', null, { text: 'unprompted' }, 'intervention')]));
    expect(facts.escalations).toEqual([
      { lane: 'lane-a', generation: 1, at: '2025-06-15T09:10:00.000Z', class: 'login', what: 'log in', source: 'screen', resolved_at: '2025-06-15T09:13:00.000Z', answers: [{ at: '2025-06-15T09:12:00.000Z', text }] },
      { lane: 'lane-b', generation: null, at: '2025-06-15T09:20:00.000Z', class: null, what: null, source: null, resolved_at: null, answers: [{ at: '2025-06-15T09:20:00.000Z', text: 'unprompted' }] },
    ]);
    expect(facts.summary).toMatchObject({ escalations: 1, answered: 2 });
  });

  it('pairs a failed gate and its rerun; an unresolved escalation leaves the lane blocked', () => {
    const facts = buildFacts(input([started,
      e('09:10:00.000', 'gate_started', 'lane-a', 1, { command: 'npm test' }),
      e('09:10:05.000', 'lane_result', 'lane-a', 1, { result: 'gate_failed', gate: 'npm test', passed: false, output: '1 failing' }, 'delegation'),
      e('09:20:00.000', 'escalation', 'lane-a', 1, { class: 'decision', what: 'which API?', source: 'report' }, 'intervention')]));
    expect(facts.gates).toEqual([{ lane: 'lane-a', generation: 1, command: 'npm test', started_at: '2025-06-15T09:10:00.000Z', ended_at: '2025-06-15T09:10:05.000Z', passed: false, output: '1 failing' }]);
    expect(facts.lanes[0]).toMatchObject({ state: 'blocked', generations: [{ end: 'running', ended_at: '2025-06-15T09:20:00.000Z' }] });
  });

  it.each<[string, string, Record<string, unknown> | null]>([
    ['a capacity line on its own line', 'plan ready\ncapacity=low 22% @w1 context=41%', { remaining_pct: 22, context_pct: 41, state: 'low', account: 'w1', source: 'report' }],
    ['CRLF and trailing spaces', 'done  \r\ncapacity=ok 80% @w1  \r\n', { remaining_pct: 80, context_pct: null, state: 'ok' }],
    ['ANSI escapes', '\u001b[1mplan ready\u001b[0m\ncapacity=critical 9% @w1 \u001b[2mcontext=70%\u001b[0m', { remaining_pct: 9, context_pct: 70, state: 'critical' }],
    ['on the end of the first line', 'plan ready capacity=ok 64% @w1', { remaining_pct: 64 }],
    ['no capacity line', 'plan ready', null],
    ['empty', '', null],
  ])('reads capacity from a report: %s', (_name, text, expected) => {
    const message: InboxRecord = { kind: 'message', ts: '2025-06-15T09:05:00.000Z', from: 'lane-a', role: 'lane', account: 'w1', generation: 1, epoch: 1, to: 'lead', text, cwd: '/w' };
    const lane = buildFacts(input([started], [message])).lanes[0]!;
    expect(lane.last_report).toBe(text);
    if (expected === null) expect(lane.capacity).toEqual([]);
    else expect(lane.capacity).toEqual([expect.objectContaining(expected)]);
  });

  it('falls back to the journal’s capacity verdicts when the inbox has no reading', () => {
    const lane = buildFacts(input([started, e('09:05:00.000', 'capacity_verdict', 'lane-a', 1, { decision: 'handoff_soon', state: 'low', remainingPct: 20, contextPct: 3 })])).lanes[0]!;
    expect(lane.capacity).toEqual([{ at: '2025-06-15T09:05:00.000Z', generation: 1, account: 'w1', state: 'low', remaining_pct: 20, context_pct: 3, source: 'verdict' }]);
  });

  it('takes a takeover’s new epoch from the raise that follows it', () => {
    const facts = buildFacts(input([
      e('09:00:00.000', 'lead_claimed', 'lead', null, { account: 'w0' }),
      e('09:00:01.000', 'lane_started', 'lead', 1, { account: 'w0' }, 'delegation'),
      e('09:30:00.000', 'lead_takeover', 'lead', 1, { reason: 'lane_lost', from_generation: 1 }),
      { ...e('09:30:00.100', 'lead_epoch_raised', 'lead', null, { missing: 'x' }), epoch: 2 },
      e('09:40:00.000', 'stopped_short', null, null, { why: 'lane-x is stopped' }),
    ]));
    expect(facts.epochs.map((x) => [x.epoch, x.how, x.to])).toEqual([[1, 'claimed', '2025-06-15T09:30:00.100Z'], [2, 'raised', '2025-06-15T09:40:00.000Z']]);
    expect(facts.handoffs).toMatchObject([{ lane: 'lead', role: 'lead', degraded: true, reason: 'lane_lost', state: 'open' }]);
    expect(facts.outcome).toEqual({ state: 'stopped_short', at: '2025-06-15T09:40:00.000Z', why: 'lane-x is stopped' });
  });
});

describe('each lane\'s result (SPEC 10.2)', () => {
  it('the last PR it reported, its last gate, its checkout\'s work since the run began, its saved logs', () => {
    const msg = (ts: string, from: string, text: string): InboxRecord => ({ kind: 'message', ts: `2025-06-15T${ts}Z`, from, to: 'lead', text } as InboxRecord);
    const journal = [
      e('10:00:00', 'lane_started', 'lane-a', 1, { account: 'a1' }, 'delegation'),
      e('10:00:01', 'lane_started', 'lane-b', 1, { account: 'a2' }, 'delegation'),
      e('10:05:00', 'gate_started', 'lane-a', 1, { command: 'npm test' }),
      e('10:05:09', 'lane_result', 'lane-a', 1, { gate: 'npm test', passed: false, output: '1 failing' }, 'delegation'),
      e('10:06:00', 'gate_started', 'lane-a', 1, { command: 'npm test' }),
      e('10:06:09', 'lane_result', 'lane-a', 1, { gate: 'npm test', passed: true, output: 'ok' }, 'delegation'),
    ];
    const inbox = [
      msg('10:01:00', 'lane-a', 'PR open https://example.invalid/pr/1\ncapacity=ok 80% @a1'),
      msg('10:02:00', 'lane-a', 'PR open https://example.invalid/pr/2\ncapacity=ok 70% @a1'),
      msg('10:03:00', 'lane-b', 'blocked decision which PR?\ncapacity=ok 70% @a2'),
    ];
    const facts = buildFacts({
      ...input(journal, inbox),
      checkouts: new Map([['lane-a', { branch: 'swarm/lane-a', commits: 2, files: ['src/a.ts', 'README.md'] }]]),
      logs: new Map([['lane-a', [{ generation: 1, path: '.swarm/logs/run-1/lane-a-g1.log' }]]]),
    });
    expect(facts.results).toEqual([
      { lane: 'lane-a', branch: 'swarm/lane-a', commits: 2, files_changed: ['src/a.ts', 'README.md'], pr: 'https://example.invalid/pr/2', gate: { command: 'npm test', passed: true, output: 'ok' }, logs: [{ generation: 1, path: '.swarm/logs/run-1/lane-a-g1.log' }] },
      { lane: 'lane-b', branch: null, commits: null, files_changed: null, pr: null, gate: null, logs: [] },
    ]);
    expect(facts.needs_you.lanes).toEqual([{ name: 'lane-b', state: 'unfinished', why: 'still working at the run\'s end (g1)' }]);
  });
});

describe('buildFacts: review rounds (SPEC 10.6)', () => {
  const journal = [
    e('09:00:00.000', 'lane_started', 'lane-a', 1, { account: 'sim-a1' }, 'delegation'),
    e('09:10:00.000', 'gate_started', 'lane-a', 1, { command: 'npm test' }),
    e('09:10:05.000', 'review_requested', 'lane-a', 1, { round: 1, gate: 'npm test' }, 'delegation'),
    e('09:10:06.000', 'reviewer_leased', 'lane-a', 1, { round: 1, reviewer: 'lane-a.review', reviewer_generation: 1, account: 'sim-o1' }),
    e('09:10:07.000', 'reviewer_failed', 'lane-a', 1, { round: 1, reviewer_generation: 1, account: 'sim-o1', why: 'it exited (status 1)' }),
    e('09:10:08.000', 'reviewer_leased', 'lane-a', 1, { round: 1, reviewer: 'lane-a.review', reviewer_generation: 2, account: 'sim-o2' }),
    e('09:10:09.000', 'reviewer_started', 'lane-a', 1, { round: 1, reviewer_generation: 2, account: 'sim-o2', paneId: '%5' }, 'delegation'),
    e('09:12:00.000', 'review_verdict', 'lane-a', 1, { round: 1, reviewer_generation: 2, account: 'sim-o2', verdict: 'changes', what: 'add a test' }, 'delegation'),
    e('09:20:00.000', 'gate_started', 'lane-a', 1, { command: 'npm test' }),
    e('09:20:05.000', 'review_requested', 'lane-a', 1, { round: 2, gate: 'npm test' }, 'delegation'),
    e('09:20:06.000', 'reviewer_leased', 'lane-a', 1, { round: 2, reviewer: 'lane-a.review', reviewer_generation: 3, account: 'sim-o1' }),
    e('09:22:00.000', 'review_verdict', 'lane-a', 1, { round: 2, reviewer_generation: 3, account: 'sim-o1', verdict: 'approved' }, 'delegation'),
    e('09:22:00.000', 'lane_result', 'lane-a', 1, { result: 'done', gate: 'npm test', passed: true }, 'delegation'),
  ];
  const facts = buildFacts(input(journal));

  it('each round with its reviewers (vendor, the failed one and why) and its verdict', () => {
    expect(facts.reviews).toEqual([
      {
        lane: 'lane-a', round: 1, requested_at: '2025-06-15T09:10:05.000Z', verdict: 'changes', what: 'add a test', verdict_at: '2025-06-15T09:12:00.000Z',
        reviewers: [
          { generation: 1, account: 'sim-o1', vendor: 'openai-sim', started_at: null, failed: 'it exited (status 1)' },
          { generation: 2, account: 'sim-o2', vendor: 'openai-sim', started_at: '2025-06-15T09:10:09.000Z', failed: null },
        ],
      },
      {
        lane: 'lane-a', round: 2, requested_at: '2025-06-15T09:20:05.000Z', verdict: 'approved', what: null, verdict_at: '2025-06-15T09:22:00.000Z',
        reviewers: [{ generation: 3, account: 'sim-o1', vendor: 'openai-sim', started_at: null, failed: null }],
      },
    ]);
    expect(facts.summary).toMatchObject({ reviews_approved: 1, reviews_changes: 1, gates_passed: 2 });
  });

  it('a gate that passed into a review is one gate, ended when the review was asked for (not again at approval)', () => {
    expect(facts.gates.map((g) => [g.started_at, g.ended_at, g.passed])).toEqual([
      ['2025-06-15T09:10:00.000Z', '2025-06-15T09:10:05.000Z', true],
      ['2025-06-15T09:20:00.000Z', '2025-06-15T09:20:05.000Z', true],
    ]);
  });
});
