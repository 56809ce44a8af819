/**
 * The night as data (`swarm report --json`, docs/report.md): the shapes buildFacts (facts.ts)
 * returns and the files it reads, kept apart so the parts that fill them import no builder.
 */
import type { InboxRecord } from '../protocol/inbox.js';
import type { JournalEntry } from '../protocol/journal.js';
import type { RunSummary } from './runs.js';
import type { GenerationView, Tokens } from '../ledger/ledger.js';

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

/** One review round of a lane (SPEC 10.6): who reviewed it on which account, and what it said. */
export interface ReviewRound {
  lane: string;
  round: number;
  requested_at: string;
  /** The reviewers of the round in order: those that failed (why) and the one that said the verdict. */
  reviewers: { generation: number; account: string | null; vendor: string | null; started_at: string | null; failed: string | null }[];
  verdict: 'approved' | 'changes' | null;
  what: string | null;
  verdict_at: string | null;
}

export interface Epoch {
  epoch: number;
  lead: string;
  how: 'claimed' | 'handover' | 'takeover' | 'raised';
  from: string;
  to: string;
}

/** What needs the developer in the morning (SPEC 10.2): the page opens with it. */
export interface NeedsYou {
  /** Escalations nobody answered, each with its agent's own last lines (its last exit, when one was journaled). */
  escalations: Array<Escalation & { last_lines: string[] }>;
  /** Lanes not done, and why. */
  lanes: Array<{ name: string; state: Lane['state']; why: string }>;
}

/** Each lane's result: where its work is and what showed it. */
export interface LaneResult {
  lane: string;
  /** The checkout's branch now; commits and files since the run began (from run_started's heads); null when unknown. */
  branch: string | null;
  commits: number | null;
  files_changed: string[] | null;
  /** The last `PR open <url>` it reported. */
  pr: string | null;
  /** Its last gate run. */
  gate: { command: string; passed: boolean | null; output: string | null } | null;
  /** Each generation's saved pane log (plan-relative path), when one was saved. */
  logs: Array<{ generation: number; path: string }>;
}

export interface SpendTotal {
  cost_usd: number | null;
  tokens: Tokens;
}

/** One agent generation's spend: the row it belongs to, the agent (`lead-b`, `lane-a.review`) when not the row's own name. */
export type SpendGeneration = GenerationView & { lane: string; agent: string };

export interface Spend {
  total: SpendTotal;
  generations: SpendGeneration[];
  lanes: Array<SpendTotal & { lane: string }>;
  accounts: Array<SpendTotal & { account: string; vendor: string | null }>;
  vendors: Array<SpendTotal & { vendor: string }>;
  /** The run's cumulative cost in USD after each change, in time order (at most MAX_POINTS; the last always kept). */
  cumulative: Array<{ at: string; cost_usd: number }>;
}

export interface ReportFacts {
  schema: typeof REPORT_SCHEMA;
  plan: string;
  /** The run this report covers (SPEC 10.2), or `all`; null for a journal with nothing in it. */
  run: number | 'all' | null;
  /** Every run the journal holds, in order. */
  runs: RunSummary[];
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
  /** Review rounds (SPEC 10.6), in the order they were asked for. */
  reviews: ReviewRound[];
  /** What each generation spent, summed per lane, account and vendor, and over the night (SPEC 10.7). */
  spend: Spend;
  needs_you: NeedsYou;
  results: LaneResult[];
  summary: {
    lanes: number; lanes_done: number; generations: number; handoffs: number; degraded: number; rejected: number;
    waiting: number; escalations: number; answered: number; gates_passed: number; gates_failed: number; reviews_approved: number; reviews_changes: number;
    /** The run's cost in USD where agents told one (SPEC 10.7); null: none did. */
    spent_usd: number | null;
    accounts: string[];
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
  /** Per lane: its checkout's branch, commits and files changed since the run began (adapters/reportInput.ts). */
  checkouts?: ReadonlyMap<string, { branch: string | null; commits: number | null; files: string[] | null }>;
  /** Per lane: the generations whose pane log was saved for this run, with the log's plan-relative path. */
  logs?: ReadonlyMap<string, Array<{ generation: number; path: string }>>;
  /** The run `journal` and `inbox` are cut to (core/report/runs.ts), and every run; absent: the whole journal. */
  run?: number | 'all' | null;
  runs?: RunSummary[];
}
