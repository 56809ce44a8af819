/**
 * The facts of a night (`swarm report --json`, the data `--html` draws): one pure function from the
 * plan's files — journal, inbox readings and reports, lead record, packets, the pool — to plain data.
 * Keys are snake_case like every other JSON swarm prints; times are the journal's ISO strings (UTC).
 * Text an agent wrote (reports, packet fields, escalations, answers) is carried verbatim: whoever
 * shows it escapes it.
 */
import { lanesOf, type LaneRows } from './lanes.js';
import { escalationsOf, gatesOf, handoffsOf, reviewsOf } from './events.js';
import { epochsOf } from './epochs.js';
import { REPORT_SCHEMA, type Escalation, type Gate, type Handoff, type Lane, type LaneResult, type NeedsYou, type ReportFacts, type ReportInput, type Spend } from './types.js';
import type { JournalEntry } from '../protocol/journal.js';
import { spendOf } from './spend.js';

export { REPORT_SCHEMA } from './types.js';

export type { Generation, Reading, Lane, Handoff, Escalation, Gate, ReviewRound, Epoch, ReportFacts, ReportInput, NeedsYou, LaneResult } from './types.js';

export function buildFacts(input: ReportInput): ReportFacts {
  const j = input.journal;
  const started = j[0]?.ts ?? null;
  const ended = j.at(-1)?.ts ?? null;
  const rows: LaneRows = lanesOf(input, ended ?? '');
  const handoffs = handoffsOf(j, rows, input.packets);
  const escalations = escalationsOf(j, rows);
  const gates = gatesOf(j, rows);
  const reviews = reviewsOf(j, rows, input.vendors);
  const spend = spendOf(input.inbox, j, rows, input.vendors);
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
  const needsYou = needsYouOf(j, rows.lanes, escalations, handoffs);
  const results = lanesOnly.map((lane) => resultOf(lane, input, gates));
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
    reviews,
    spend,
    needs_you: needsYou,
    results,
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
      reviews_approved: reviews.filter((r) => r.verdict === 'approved').length,
      reviews_changes: reviews.filter((r) => r.verdict === 'changes').length,
      spent_usd: spend.total.cost_usd,
      accounts,
    },
  };
}

/** The run's spend alone (the text report's part: SPEC 10.7). */
export function spendFacts(input: ReportInput): Spend {
  return spendOf(input.inbox, input.journal, lanesOf(input, input.journal.at(-1)?.ts ?? ''), input.vendors);
}

/** Unanswered escalations with their agent's last lines, and every lane not done with why. */
function needsYouOf(j: readonly JournalEntry[], lanes: Lane[], escalations: Escalation[], handoffs: Handoff[]): NeedsYou {
  const open = escalations.filter((e) => e.class !== null && e.answers.length === 0 && e.resolved_at === null);
  const lastLines = (e: Escalation): string[] => {
    const exit = [...j].reverse().find((x) => x.event === 'agent_exited' && x.lane === e.lane && x.ts <= e.at && Array.isArray(x.last_lines));
    return exit ? (exit.last_lines as unknown[]).filter((l): l is string => typeof l === 'string') : [];
  };
  const why = (lane: Lane): string => {
    const escalation = [...open].reverse().find((e) => e.lane === lane.name);
    if (escalation) return `blocked ${escalation.class ?? ''}: ${escalation.what ?? ''}`.trim();
    if (lane.state === 'stopped') return 'stopped at max generations';
    const handoff = [...handoffs].reverse().find((h) => h.lane === lane.name && h.state !== 'accepted');
    if (handoff) return `a handoff not finished (${handoff.state}${handoff.reason ? `, ${handoff.reason}` : ''})`;
    const last = lane.generations.at(-1);
    return last?.end === 'running' ? `still working at the run's end (g${last.generation})` : 'not done';
  };
  return {
    escalations: open.map((e) => ({ ...e, last_lines: lastLines(e) })),
    lanes: lanes.filter((l) => l.role === 'lane' && l.state !== 'done').map((l) => ({ name: l.name, state: l.state, why: why(l) })),
  };
}

const PR = /^PR open (\S+)/m;

function resultOf(lane: Lane, input: ReportInput, gates: Gate[]): LaneResult {
  const prs = input.inbox.flatMap((r) => (r.kind === 'message' && r.from === lane.name && r.to === 'lead' ? [PR.exec(r.text)?.[1] ?? null] : [])).filter((u): u is string => u !== null);
  const gate = [...gates].reverse().find((g) => g.lane === lane.name) ?? null;
  const checkout = input.checkouts?.get(lane.name);
  return {
    lane: lane.name,
    branch: checkout?.branch ?? null,
    commits: checkout?.commits ?? null,
    files_changed: checkout?.files ?? null,
    pr: prs.at(-1) ?? null,
    gate: gate === null ? null : { command: gate.command, passed: gate.passed, output: gate.output },
    logs: input.logs?.get(lane.name) ?? [],
  };
}
