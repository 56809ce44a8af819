/**
 * The simulated lead's lane table: the last report and capacity line of every lane, kept in
 * `$SWARM_PLAN/.swarm/sim/lead-table.md` and carried to a successor lead in the packet's `next`.
 * Pure: reports in, rows and text out.
 */
import { parseReport } from '../core/protocol/protocol.js';

export interface LaneRow {
  lane: string;
  /** The last report's first line (`plan ready`, `done`, `handoff <path>`, `blocked …`), or `-`. */
  last: string;
  /** The last capacity line, or `-`. */
  capacity: string;
  /** When it arrived (ISO), or `-`. */
  at: string;
}

const ROW = /^lane ([A-Za-z0-9._-]+): (.*?) \| (.*?) \| (.*)$/;

/** Rows for lanes not yet heard from. */
export function initialRows(lanes: readonly string[]): LaneRow[] {
  return [...new Set(lanes)].map((lane) => ({ lane, last: '-', capacity: '-', at: '-' }));
}

/** Record a report from a lane (a new row for a lane not yet known). Notes keep their first line. */
export function recordReport(rows: readonly LaneRow[], from: string, text: string, at: string): LaneRow[] {
  const parsed = parseReport(text);
  const firstLine = (parsed.ok ? parsed.report.text : text).split('\n')[0]?.trim() ?? '';
  const last = parsed.ok && parsed.report.event.kind === 'note' ? `note: ${firstLine}` : firstLine;
  const capacity = parsed.ok && parsed.report.capacity.raw !== '' ? parsed.report.capacity.raw : '-';
  const row: LaneRow = { lane: from, last: last === '' ? '-' : last.replace(/\|/g, '/'), capacity: capacity.replace(/\|/g, '/'), at };
  const index = rows.findIndex((r) => r.lane === from);
  return index === -1 ? [...rows, row] : rows.map((r, i) => (i === index ? row : r));
}

/** The table as Markdown. */
export function renderTable(rows: readonly LaneRow[], heading: string): string {
  const lines = [`# ${heading}`, '', '| lane | last report | capacity | at |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.lane} | ${r.last} | ${r.capacity} | ${r.at} |`);
  return `${lines.join('\n')}\n`;
}

export const RELEASE_STEP = 'release the plan (`swarm lead release`) when swarm says every lane is done';

/** The lead packet's `next`: one entry per lane (`lane <name>: <last> | <capacity> | <at>`), then the release. */
export function tableNext(rows: readonly LaneRow[]): string[] {
  return [...rows.map((r) => `lane ${r.lane}: ${r.last} | ${r.capacity} | ${r.at}`), RELEASE_STEP];
}

/** The lead packet's `doing`: a one-line summary of the table. */
export function tableDoing(plan: string, rows: readonly LaneRow[]): string {
  const done = rows.filter((r) => r.last === 'done').length;
  return `leading plan ${plan}: ${rows.length} lane(s), ${done} done; watching reports and answering none it need not`;
}

/** Rows back from a lead packet's `next` (entries that are no rows are skipped). */
export function rowsFromNext(next: readonly string[]): LaneRow[] {
  return next.flatMap((entry) => {
    const m = ROW.exec(entry.trim());
    return m ? [{ lane: m[1]!, last: m[2]!, capacity: m[3]!, at: m[4]! }] : [];
  });
}
