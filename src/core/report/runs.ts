/**
 * A report covers one run (SPEC 10.2): the journal cut into runs at each `run_started`, each run ending
 * at its `plan_done`, else its `swarm_down`, else its last event; the last run unless `--run N|all`.
 * A journal written before runs were numbered is one run. Records of the inbox go with the run they
 * name (SWARM_RUN), else with the run whose time they fall in. Pure.
 */
import type { InboxRecord } from '../protocol/inbox.js';
import type { JournalEntry } from '../protocol/journal.js';

export interface RunSummary {
  run: number;
  started: string;
  ended: string;
  /** done (`plan_done`), stopped_short, down (`swarm down` ended it), unfinished (none of these yet). */
  outcome: 'done' | 'stopped_short' | 'down' | 'unfinished';
}

export interface RunSlice {
  summary: RunSummary;
  /** Its entries, from its start to its end (inclusive). */
  entries: JournalEntry[];
}

export type WhichRun = number | 'last' | 'all';

export function runsOf(journal: readonly JournalEntry[]): RunSlice[] {
  if (journal.length === 0) return [];
  const starts = journal.flatMap((e, i) => (e.event === 'run_started' ? [i] : []));
  // Lines before the first run_started (an older release's journal, or none numbered) are the first run.
  const bounds = starts.length === 0 || starts[0] !== 0 ? [0, ...starts.filter((i) => i !== 0)] : starts;
  return bounds.map((from, k) => {
    const all = journal.slice(from, bounds[k + 1] ?? journal.length);
    const first = all[0]!;
    const numbered = first.event === 'run_started' && typeof first.run === 'number' ? first.run : null;
    const endAt = endIndex(all);
    const entries = all.slice(0, endAt + 1);
    const end = entries[entries.length - 1]!;
    const outcome = end.event === 'plan_done' ? 'done' : end.event === 'swarm_down' ? 'down' : all.some((e) => e.event === 'stopped_short') ? 'stopped_short' : 'unfinished';
    return { summary: { run: numbered ?? k + 1, started: first.ts, ended: end.ts, outcome }, entries };
  });
}

/** Where a run ends: its plan_done, else its swarm down, else its last event. */
function endIndex(entries: readonly JournalEntry[]): number {
  const done = entries.findIndex((e) => e.event === 'plan_done');
  if (done !== -1) return done;
  const down = entries.findIndex((e) => e.event === 'swarm_down');
  return down !== -1 ? down : entries.length - 1;
}

export type Picked =
  | { ok: true; run: number | 'all'; entries: JournalEntry[]; runs: RunSummary[] }
  | { ok: false; error: string };

/** The run a report covers: the last, a numbered one, or all (the whole journal). */
export function pickRun(journal: readonly JournalEntry[], which: WhichRun): Picked {
  const slices = runsOf(journal);
  const runs = slices.map((s) => s.summary);
  if (which === 'all') return { ok: true, run: 'all', entries: [...journal], runs };
  if (slices.length === 0) return which === 'last' ? { ok: true, run: 'all', entries: [], runs } : { ok: false, error: `no run ${which}: the journal holds no run yet` };
  const slice = which === 'last' ? slices[slices.length - 1]! : slices.find((s) => s.summary.run === which);
  if (!slice) return { ok: false, error: `no run ${which} in the journal (runs: ${runs.map((r) => r.run).join(', ')})` };
  return { ok: true, run: slice.summary.run, entries: slice.entries, runs };
}

/** The inbox records of a run: those that name it, and unnamed ones written between its start and end. */
export function recordsOfRun(records: readonly InboxRecord[], run: RunSummary | null): InboxRecord[] {
  if (run === null) return [...records];
  const from = Date.parse(run.started);
  const to = Date.parse(run.ended);
  return records.filter((r) => {
    if (typeof r.run === 'number') return r.run === run.run;
    const at = Date.parse(r.ts);
    return Number.isFinite(at) && at >= from && at <= to;
  });
}
