/**
 * The facts of a night (`swarm report --json`, the data `--html` draws): one pure function from the
 * plan's files — journal, inbox readings and reports, lead record, packets, the pool — to plain data.
 * Keys are snake_case like every other JSON swarm prints; times are the journal's ISO strings (UTC).
 * Text an agent wrote (reports, packet fields, escalations, answers) is carried verbatim: whoever
 * shows it escapes it.
 */
import { lanesOf, type LaneRows } from './lanes.js';
import { escalationsOf, gatesOf, handoffsOf } from './events.js';
import { epochsOf } from './epochs.js';
import { REPORT_SCHEMA, type ReportFacts, type ReportInput } from './types.js';

export { REPORT_SCHEMA } from './types.js';

export type { Generation, Reading, Lane, Handoff, Escalation, Gate, Epoch, ReportFacts, ReportInput } from './types.js';

export function buildFacts(input: ReportInput): ReportFacts {
  const j = input.journal;
  const started = j[0]?.ts ?? null;
  const ended = j.at(-1)?.ts ?? null;
  const rows: LaneRows = lanesOf(input, ended ?? '');
  const handoffs = handoffsOf(j, rows, input.packets);
  const escalations = escalationsOf(j, rows);
  const gates = gatesOf(j, rows);
  const done = j.find((e) => e.event === 'plan_done');
  const stopped = [...j].reverse().find((e) => e.event === 'stopped_short');
  const outcome: ReportFacts['outcome'] = done
    ? { state: 'done', at: done.ts, why: null }
    : stopped ? { state: 'stopped_short', at: stopped.ts, why: typeof stopped.why === 'string' ? stopped.why : null }
      : { state: 'unfinished', at: null, why: null };
  for (const lane of rows.lanes) {
    if (lane.state !== 'unfinished') continue;
    if (escalations.some((e) => e.lane === lane.name && e.class !== null && e.resolved_at === null)) lane.state = 'blocked';
  }
  const lanesOnly = rows.lanes.filter((l) => l.role === 'lane');
  const accounts = [...new Set(rows.lanes.flatMap((l) => l.generations.map((g) => g.account)).filter((a): a is string => a !== null))].sort();
  return {
    schema: REPORT_SCHEMA,
    plan: input.plan,
    run: input.run ?? null,
    runs: input.runs ?? [],
    started_at: started,
    ended_at: ended,
    outcome,
    thresholds: { capacity_low: input.thresholds.low, capacity_critical: input.thresholds.critical, context_pressure: input.thresholds.contextPressure },
    lead: {
      name: typeof input.lead?.lead === 'string' ? input.lead.lead : null,
      epoch: typeof input.lead?.epoch === 'number' ? input.lead.epoch : null,
      released: input.lead?.released === true,
    },
    epochs: epochsOf(j, rows.leadRow, ended ?? ''),
    lanes: rows.lanes,
    handoffs,
    escalations,
    gates,
    summary: {
      lanes: lanesOnly.length,
      lanes_done: lanesOnly.filter((l) => l.state === 'done').length,
      generations: rows.lanes.reduce((n, l) => n + l.generations.length, 0),
      handoffs: handoffs.length,
      degraded: handoffs.filter((h) => h.degraded).length,
      rejected: handoffs.reduce((n, h) => n + h.rejected.length, 0),
      waiting: handoffs.filter((h) => h.waiting.length > 0).length,
      escalations: escalations.filter((e) => e.class !== null).length,
      answered: escalations.filter((e) => e.answers.length > 0).length,
      gates_passed: gates.filter((g) => g.passed === true).length,
      gates_failed: gates.filter((g) => g.passed === false).length,
      accounts,
    },
  };
}
