import { describe, expect, it } from 'vitest';
import type { JournalEntry, JournalType } from '../../../src/core/protocol/journal.js';
import { buildReport } from '../../../src/core/report/report.js';

/** A journal entry as the engine writes it (runtime/effects.ts adds lane, generation and epoch). */
const e = (time: string, event: string, lane: string | null, generation: number | null, more: Record<string, unknown> = {}, type: JournalType = 'observation'): JournalEntry =>
  ({ ts: `2025-06-15T${time}Z`, type, event, lane, generation, epoch: 1, ...more });

const DIR = '/repo/plans/demo/analysis_results/handoff';
const options = { plan: 'demo', relativeTo: '/repo' };

const claimed = e('09:00:00.000', 'lead_claimed', 'lead', null, { account: 'work1' });
const startedA = e('09:00:01.000', 'lane_started', 'lane-a', 1, { account: 'work2', paneId: '%1' }, 'delegation');
const startedB = e('09:00:02.000', 'lane_started', 'lane-b', 1, { account: 'work3', paneId: '%2' }, 'delegation');

/** One full handoff of lane-a, as the lane machine journals it. */
const fullHandoff: JournalEntry[] = [
  e('09:30:00.000', 'capacity_verdict', 'lane-a', 1, { decision: 'handoff_now', state: 'critical', remainingPct: 8, contextPct: 40 }),
  e('09:30:10.000', 'handoff_reported', 'lane-a', 1, { packet: `${DIR}/lane-a-g1-20250615T093005Z.yaml`, reason: 'capacity_critical' }),
  e('09:30:12.000', 'lease_acquired', 'lane-a', 1, { account: 'work4', why: 'ok 90%', for_generation: 2 }),
  e('09:30:15.000', 'successor_spawned', 'lane-a', 1, { account: 'work4', paneId: '%5', for_generation: 2 }),
  e('09:31:15.000', 'packet_accepted', 'lane-a', 2, { packet: `${DIR}/lane-a-g1-20250615T093005Z.yaml`, account: 'work4', from_generation: 1 }),
  e('09:31:15.000', 'lease_released', 'lane-a', 2, { account: 'work2' }),
  e('09:31:15.000', 'pane_closed', 'lane-a', 2, { paneId: '%1' }),
];

const finished: JournalEntry[] = [
  claimed, startedA, startedB, ...fullHandoff,
  e('09:40:00.000', 'escalation', 'lane-b', 1, { class: 'login', what: 'log in to work3 in the pane', source: 'screen' }, 'intervention'),
  e('09:45:00.000', 'developer_answer', 'lane-b', null, { text: 'done' }, 'intervention'),
  e('10:00:00.000', 'lane_result', 'lane-a', 2, { result: 'done', gate: 'npm test', passed: true }, 'delegation'),
  e('10:05:00.000', 'lane_result', 'lane-b', 1, { result: 'done', gate: null, passed: true }, 'delegation'),
  e('10:06:00.000', 'lead_released', 'lead', null, { by: 'swarm', why: 'timeout' }),
  e('10:06:01.000', 'plan_done', null, null, {}, 'delegation'),
];

describe('buildReport', () => {
  it('reports a finished plan with one full handoff, exactly', () => {
    expect(buildReport(finished, options)).toBe([
      'swarm report — plan demo',
      'started 09:00:00, plan done 10:06:01 (66m01s)',
      '',
      'lead:',
      '  09:00:00 claimed lead@1',
      '  10:06:00 released lead@1',
      '',
      'handoffs: 1',
      '  lane-a g1 @work2 → g2 @work4 in 1m05s, capacity_critical',
      '    reported 09:30:10, accepted 09:31:15; packet plans/demo/analysis_results/handoff/lane-a-g1-20250615T093005Z.yaml',
      '',
      'lanes:',
      '  lane-a: done at 10:00:00 (g2, gate passed: npm test)',
      '  lane-b: done at 10:05:00 (g1)',
      '',
      'escalations: 1',
      '  09:40:00 lane-b g1 login: log in to work3 in the pane',
      '',
    ].join('\n'));
  });

  it('reports an empty journal', () => {
    expect(buildReport([], { plan: 'demo' })).toBe([
      'swarm report — plan demo', '', 'lead:', '  (no lead events)', '', 'handoffs: 0', '', 'lanes:', '', 'escalations: 0', '',
    ].join('\n'));
  });

  /** The lines of the report from `handoffs:` up to the blank line after them. */
  const handoffLines = (entries: JournalEntry[], opts: { plan: string; relativeTo?: string } = options): string[] => {
    const lines = buildReport(entries, opts).split('\n');
    const from = lines.findIndex((l) => l.startsWith('handoffs: '));
    return lines.slice(from, lines.indexOf('', from));
  };

  it.each<[string, JournalEntry[], string[]]>([
    ['a full handoff', [startedA, ...fullHandoff], [
      'handoffs: 1',
      '  lane-a g1 @work2 → g2 @work4 in 1m05s, capacity_critical',
      '    reported 09:30:10, accepted 09:31:15; packet plans/demo/analysis_results/handoff/lane-a-g1-20250615T093005Z.yaml',
    ]],
    ['a degraded one, its packet not written yet', [startedB,
      e('09:50:00.000', 'degraded_handoff', 'lane-b', 1, { paneId: '%2', status: 1, reason: 'lane_lost', from_generation: 1 })], [
      'handoffs: 1',
      '  lane-b g1 @work3 → not accepted, degraded, lane_lost',
      '    reported 09:50:00; packet (none)',
    ]],
    ['a rejected one', [startedA,
      e('09:30:00.000', 'handoff_reported', 'lane-a', 1, { packet: `${DIR}/a1.yaml`, reason: 'capacity_low' }),
      e('09:30:01.000', 'packet_rejected', 'lane-a', 1, { packet: `${DIR}/a1.yaml`, reasons: ['next is missing'] })], [
      'handoffs: 1',
      '  lane-a g1 @work2 → not accepted, capacity_low, 1 rejected',
      '    reported 09:30:00; packet plans/demo/analysis_results/handoff/a1.yaml',
    ]],
    ['a handoff accepted within a minute', [startedA,
      e('09:30:00.000', 'handoff_reported', 'lane-a', 1, { packet: `${DIR}/a1.yaml`, reason: 'context_pressure' }),
      e('09:30:04.500', 'packet_accepted', 'lane-a', 2, { packet: `${DIR}/a1.yaml`, account: 'work4', from_generation: 1 })], [
      'handoffs: 1',
      '  lane-a g1 @work2 → g2 @work4 in 4.5s, context_pressure',
      '    reported 09:30:00, accepted 09:30:04; packet plans/demo/analysis_results/handoff/a1.yaml',
    ]],
    ['two handoffs of one lane chain their accounts', [startedA, ...fullHandoff,
      e('11:00:00.000', 'handoff_reported', 'lane-a', 2, { packet: `${DIR}/a2.yaml`, reason: 'usage_limit' }),
      e('11:02:00.000', 'packet_accepted', 'lane-a', 3, { packet: `${DIR}/a2.yaml`, account: 'work5', from_generation: 2 })], [
      'handoffs: 2',
      '  lane-a g1 @work2 → g2 @work4 in 1m05s, capacity_critical',
      '    reported 09:30:10, accepted 09:31:15; packet plans/demo/analysis_results/handoff/lane-a-g1-20250615T093005Z.yaml',
      '  lane-a g2 @work4 → g3 @work5 in 2m00s, usage_limit',
      '    reported 11:00:00, accepted 11:02:00; packet plans/demo/analysis_results/handoff/a2.yaml',
    ]],
    ['a lane started without a known account', [
      e('09:00:01.000', 'lane_started', 'lane-a', 1, { paneId: '%1' }, 'delegation'),
      e('09:30:00.000', 'handoff_reported', 'lane-a', 1, { packet: `${DIR}/a1.yaml` })], [
      'handoffs: 1',
      '  lane-a g1 → not accepted, reason?',
      '    reported 09:30:00; packet plans/demo/analysis_results/handoff/a1.yaml',
    ]],
    ['an acceptance with no handoff in hand is left out', [startedA,
      e('09:30:00.000', 'packet_accepted', 'lane-a', 2, { packet: `${DIR}/a1.yaml`, account: 'work4' })], ['handoffs: 0']],
    ['a rejection with no handoff in hand is left out', [startedA,
      e('09:30:00.000', 'packet_rejected', 'lane-a', 1, { packet: `${DIR}/a1.yaml`, reasons: ['x'] })], ['handoffs: 0']],
  ])('handoffs: %s', (_name, entries, expected) => {
    expect(handoffLines(entries)).toEqual(expected);
  });

  it.each<[string, { plan: string; relativeTo?: string }, string]>([
    ['without relativeTo the packet path stays absolute', { plan: 'demo' }, `${DIR}/lane-a-g1-20250615T093005Z.yaml`],
    ['a relativeTo that is only a name prefix leaves it', { plan: 'demo', relativeTo: '/rep' }, `${DIR}/lane-a-g1-20250615T093005Z.yaml`],
    ['relativeTo with the plan', { plan: 'demo', relativeTo: '/repo/plans/demo' }, 'analysis_results/handoff/lane-a-g1-20250615T093005Z.yaml'],
  ])('packet paths: %s', (_name, opts, packet) => {
    expect(handoffLines([startedA, ...fullHandoff], opts)[2]).toBe(`    reported 09:30:10, accepted 09:31:15; packet ${packet}`);
  });

  it.each<[string, JournalEntry[], string]>([
    ['plan done', [claimed, e('09:00:30.500', 'plan_done', null, null)], 'started 09:00:00, plan done 09:00:30 (30.5s)'],
    ['not finished', [claimed, startedA], 'started 09:00:00, not finished'],
    ['stopped short, the last reason', [claimed,
      e('09:10:00.000', 'stopped_short', null, null, { why: 'lane-a is blocked' }),
      e('09:20:00.000', 'stopped_short', null, null, { why: 'lane-a is stopped (max generations)' })],
    'started 09:00:00, stopped short 09:20:00: lane-a is stopped (max generations)'],
    ['plan done after stopping short', [claimed,
      e('09:10:00.000', 'stopped_short', null, null, { why: 'lane-a is blocked' }),
      e('11:00:00.000', 'plan_done', null, null)], 'started 09:00:00, plan done 11:00:00 (120m00s)'],
  ])('outcome: %s', (_name, entries, line) => {
    expect(buildReport(entries, options).split('\n')[1]).toBe(line);
  });

  /** The lines between a heading and the next blank line. */
  const section = (entries: JournalEntry[], heading: string): string[] => {
    const lines = buildReport(entries, options).split('\n');
    const from = lines.findIndex((l) => l.startsWith(heading));
    return lines.slice(from, lines.indexOf('', from));
  };

  it('lists the lanes in start order with their results', () => {
    expect(section([
      startedB, startedA,
      e('09:10:00.000', 'lane_started', 'lane-a', 2, { account: 'work4' }, 'delegation'),
      e('09:20:00.000', 'max_generations', 'lane-b', 8, { packet: null, reason: 'capacity_critical', max: 8 }),
      e('09:30:00.000', 'lane_result', 'lane-a', 2, { result: 'done', gate: 'make check', passed: true }, 'delegation'),
      e('09:40:00.000', 'lane_started', 'lane-c', 1, { account: 'work5' }, 'delegation'),
    ], 'lanes:')).toEqual([
      'lanes:',
      '  lane-b: stopped at g8 (max generations)',
      '  lane-a: done at 09:30:00 (g2, gate passed: make check)',
      '  lane-c: not done',
    ]);
  });

  it('lists every escalation with its time, lane, generation, class and what', () => {
    expect(section([
      startedA, startedB,
      e('09:10:00.000', 'escalation', 'lane-a', 1, { class: 'permission', what: 'allow rm?', source: 'screen' }, 'intervention'),
      e('09:20:00.000', 'escalation', 'lane-b', 2, { class: 'stalled', what: 'no output for 30 min', source: 'engine' }, 'intervention'),
      e('09:30:00.000', 'escalation', 'lane-a', null, { class: 'decision' }, 'intervention'),
    ], 'escalations:')).toEqual([
      'escalations: 3',
      '  09:10:00 lane-a g1 permission: allow rm?',
      '  09:20:00 lane-b g2 stalled: no output for 30 min',
      '  09:30:00 lane-a g? decision: ',
    ]);
  });

  it('lists the lead events with their epochs', () => {
    expect(section([
      claimed,
      e('10:00:00.000', 'lead_handover', 'lead-b', null, { packet: `${DIR}/lead-g1.yaml`, epoch: 2, by: 'lead', to: 'lead-b' }),
      e('10:00:05.000', 'lead_accepted', 'lead', 2, { packet: `${DIR}/lead-g1.yaml`, takeover: false }),
      e('11:00:00.000', 'lead_takeover', 'lead', 2, { reason: 'lane_lost', from_generation: 2 }),
      e('11:00:01.000', 'lead_epoch_raised', 'lead-c', null, { epoch: 3, missing: 'the in-flight intent' }),
      e('12:00:00.000', 'lead_released', 'lead-c', null, { epoch: 0 }),
    ], 'lead:')).toEqual([
      'lead:',
      '  09:00:00 claimed lead@1',
      '  10:00:00 handover lead → lead-b@2',
      '  10:00:05 accepted by lead g2',
      '  11:00:00 takeover of lead g2 (lane_lost)',
      '  11:00:01 epoch raised: lead-c@3 (missing: the in-flight intent)',
      '  12:00:00 released lead-c',
    ]);
  });

  it('ends with one newline', () => {
    const text = buildReport(finished, options);
    expect(text.endsWith('escalations: 1\n  09:40:00 lane-b g1 login: log in to work3 in the pane\n')).toBe(true);
  });
});

describe('buildReport: one handoff however it was journaled', () => {
  const packet = `${DIR}/lane-a-g1-x.yaml`;
  const handoffLines = (entries: JournalEntry[]) => buildReport([claimed, startedA, ...entries], options).split('\n').filter((l) => l.startsWith('handoffs:') || l.startsWith('  lane-a g'));

  it('a degraded notice and its packet are one handoff, marked degraded', () => {
    expect(handoffLines([
      e('09:10:00.000', 'degraded_handoff', 'lane-a', 1, { reason: 'lane_lost', from_generation: 1 }),
      e('09:10:01.000', 'handoff_reported', 'lane-a', 1, { packet, reason: 'lane_lost', degraded: true }),
      e('09:10:05.000', 'packet_accepted', 'lane-a', 2, { packet, account: 'work4', from_generation: 1 }),
    ])).toEqual(['handoffs: 1', '  lane-a g1 @work2 → g2 @work4 in 5.0s, degraded, lane_lost']);
  });

  it('a rejected packet and the one reported after it are one handoff with its rejection count', () => {
    expect(handoffLines([
      e('09:10:00.000', 'handoff_reported', 'lane-a', 1, { packet: `${DIR}/p1.yaml`, reason: 'capacity_critical' }),
      e('09:10:01.000', 'packet_rejected', 'lane-a', 1, { reasons: ['mode'] }),
      e('09:11:00.000', 'handoff_reported', 'lane-a', 1, { packet, reason: 'capacity_critical' }),
      e('09:11:02.000', 'packet_accepted', 'lane-a', 2, { packet, account: 'work4', from_generation: 1 }),
    ])).toEqual(['handoffs: 1', '  lane-a g1 @work2 → g2 @work4 in 1m02s, capacity_critical, 1 rejected']);
  });

  it('rounds spans to whole seconds without printing 60 seconds', () => {
    expect(handoffLines([
      e('09:12:00.000', 'handoff_reported', 'lane-a', 1, { packet, reason: 'capacity_low' }),
      e('09:13:59.600', 'packet_accepted', 'lane-a', 2, { packet, account: 'work4', from_generation: 1 }),
    ])).toEqual(['handoffs: 1', '  lane-a g1 @work2 → g2 @work4 in 2m00s, capacity_low']);
  });

  it('a failing gate is not reported as done', () => {
    const text = buildReport([claimed, startedA, e('10:00:00.000', 'lane_result', 'lane-a', 1, { result: 'gate_failed', gate: 'npm test', passed: false }, 'delegation')], options);
    expect(text).toContain('  lane-a: not done: gate failed at 10:00:00 (g1: npm test)');
  });

  it('an escalation quoting pane lines stays on one line, without escape codes', () => {
    const text = buildReport([claimed, startedA, e('09:40:00.000', 'escalation', 'lane-a', 1, { class: 'dependency', what: 'crash loop:\n\u001b[31mError\u001b[0m: boom\r\n' }, 'intervention')], options);
    expect(text).toContain('  09:40:00 lane-a g1 dependency: crash loop: Error: boom\n');
  });
});

describe('buildReport: the lead is not a lane', () => {
  it('leaves the lead (and its successors) out of the lanes list', () => {
    const text = buildReport([
      claimed,
      e('09:00:00.500', 'lane_started', 'lead', 1, { account: 'work1' }, 'delegation'),
      startedA,
      e('10:00:00.000', 'lead_handover', 'lead-b', null, { epoch: 2, by: 'lead', to: 'lead-b' }),
    ], options);
    expect(text).toContain('lanes:\n  lane-a: not done\n');
  });
});
