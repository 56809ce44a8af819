/**
 * The facts of a night (`swarm report --json`, the data `--html` draws): one pure function from the
 * plan's files — journal, inbox readings and reports, lead record, packets, the pool — to plain data.
 * Keys are snake_case like every other JSON swarm prints; times are the journal's ISO strings (UTC).
 * Text an agent wrote (reports, packet fields, escalations, answers) is carried verbatim: whoever
 * shows it escapes it.
 */
import type { InboxRecord } from './inbox.js';
import type { JournalEntry } from './journal.js';
import { lanesOf, type LaneRows } from './reportLanes.js';
import { escalationsOf, gatesOf, handoffsOf } from './reportEvents.js';
import { epochsOf } from './reportEpochs.js';

export const REPORT_SCHEMA = 'swarm-report/v1';

export interface Generation {
  generation: number;
  account: string | null;
  vendor: string | null;
  /** The agent's name when it is not the row's (a lead's successor: `lead-b`). */
  agent: string | null;
  started_at: string;
  ended_at: string;
  /** How it ended: handed on, the lane done, stopped at max_generations, or still going at the journal's end. */
  end: 'handed_off' | 'done' | 'stopped' | 'running';
}

export interface Reading {
  at: string;
  generation: number | null;
  account: string | null;
  state: string;
  remaining_pct: number | null;
  context_pct: number | null;
  /** Where it came from: a `swarm capacity` check (`probe`, `ak`, …), a report's capacity line, a journal verdict. */
  source: string;
}

export interface Lane {
  name: string;
  role: 'lead' | 'lane';
  state: 'done' | 'stopped' | 'blocked' | 'unfinished';
  generations: Generation[];
  capacity: Reading[];
  /** The last message it sent the lead, verbatim. */
  last_report: string | null;
}

export interface Handoff {
  lane: string;
  role: 'lead' | 'lane';
  from_generation: number | null;
  from_account: string | null;
  to_generation: number | null;
  to_account: string | null;
  reason: string | null;
  degraded: boolean;
  /** accepted; open (no successor accepted yet); stopped (max_generations); attention (held for a person). */
  state: 'accepted' | 'open' | 'stopped' | 'attention';
  reported_at: string;
  spawned_at: string | null;
  accepted_at: string | null;
  turnaround_ms: number | null;
  packet: string | null;
  /** The packet's `doing`, verbatim, when the packet could be read. */
  doing: string | null;
  rejected: Array<{ at: string; packet: string | null; reasons: string[] }>;
  waiting: Array<{ at: string; why: string | null; resets_at: string | null; retry_at: string | null }>;
}

export interface Escalation {
  lane: string | null;
  generation: number | null;
  at: string;
  /** null for a developer answer that followed no escalation of that lane. */
  class: string | null;
  what: string | null;
  source: string | null;
  resolved_at: string | null;
  /** The developer's answers (`swarm answer`), verbatim. */
  answers: Array<{ at: string; text: string }>;
}

export interface Gate {
  lane: string;
  generation: number | null;
  command: string;
  started_at: string | null;
  ended_at: string | null;
  passed: boolean | null;
  output: string | null;
}

export interface Epoch {
  epoch: number;
  lead: string;
  how: 'claimed' | 'handover' | 'takeover' | 'raised';
  from: string;
  to: string;
}

export interface ReportFacts {
  schema: typeof REPORT_SCHEMA;
  plan: string;
  started_at: string | null;
  ended_at: string | null;
  outcome: { state: 'done' | 'stopped_short' | 'unfinished'; at: string | null; why: string | null };
  thresholds: { capacity_low: number; capacity_critical: number; context_pressure: number };
  lead: { name: string | null; epoch: number | null; released: boolean };
  epochs: Epoch[];
  /** The lead's row first, then the lanes in the order they started. */
  lanes: Lane[];
  handoffs: Handoff[];
  escalations: Escalation[];
  gates: Gate[];
  summary: {
    lanes: number; lanes_done: number; generations: number; handoffs: number; degraded: number; rejected: number;
    waiting: number; escalations: number; answered: number; gates_passed: number; gates_failed: number; accounts: string[];
  };
}

export interface ReportInput {
  /** The plan as shown (a relative path, or its name). */
  plan: string;
  journal: readonly JournalEntry[];
  inbox: readonly InboxRecord[];
  /** lead.json, when there is one. */
  lead: { lead?: unknown; epoch?: unknown; released?: unknown } | null;
  /** Packet path (absolute, as journaled) → the fields the report shows. */
  packets: ReadonlyMap<string, { doing: string | null }>;
  /** The pool, when swarm.yaml could be read: account → vendor. */
  vendors: ReadonlyMap<string, string>;
  thresholds: { low: number; critical: number; contextPressure: number };
}

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
