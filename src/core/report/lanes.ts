/**
 * The report's rows: the lead's and each lane's generations (start, end, account, vendor) and
 * capacity readings over time. Pure; part of buildFacts (facts.ts).
 */
import type { JournalEntry } from '../protocol/journal.js';
import { parseReport } from '../protocol/protocol.js';
import type { Generation, Lane, Reading, ReportInput } from './types.js';

export interface LaneRows {
  lanes: Lane[];
  /** The lead's row name (the first lead's name). */
  leadRow: string;
  /** The row a journal or inbox name belongs to: the lead's successors (`lead-b`) are the lead's row. */
  rowOf(name: string | null): string | null;
  accountOf(row: string, generation: number | null): string | null;
}

const LEAD_EVENTS = new Set(['lead_claimed', 'lead_handover', 'lead_takeover', 'lead_epoch_raised', 'lead_accepted', 'lead_released']);

export function lanesOf(input: ReportInput, end: string): LaneRows {
  const j = input.journal;
  const leadRow = j.find((e) => e.event === 'lead_claimed' && e.lane)?.lane ?? 'lead';
  const leadNames = new Set<string>([leadRow]);
  for (const e of j) {
    if (!LEAD_EVENTS.has(e.event)) continue;
    if (e.lane) leadNames.add(e.lane);
    if (typeof e.to === 'string') leadNames.add(e.to);
  }
  for (const r of input.inbox) if (r.role === 'lead') leadNames.add(r.from);
  const rowOf = (name: string | null) => (name === null ? null : leadNames.has(name) ? leadRow : name);

  const byName = new Map<string, Lane>();
  const ensure = (name: string): Lane => {
    let lane = byName.get(name);
    if (!lane) {
      lane = { name, role: name === leadRow ? 'lead' : 'lane', state: 'unfinished', generations: [], capacity: [], last_report: null };
      byName.set(name, lane);
    }
    return lane;
  };
  const gen = (lane: Lane, n: number | null) => lane.generations.find((g) => g.generation === n);
  const nextAgent = new Map<string, string>();

  for (const e of j) {
    const row = rowOf(e.lane);
    if (row === null) continue;
    if (e.event === 'lead_handover' && typeof e.to === 'string') nextAgent.set(row, e.to);
    if (e.event === 'lane_started' || e.event === 'successor_spawned') {
      const lane = ensure(row);
      const n = e.event === 'lane_started' ? (e.generation ?? 1) : num(e.for_generation);
      if (n === null) continue;
      const account = str(e.account);
      const agent = e.event === 'successor_spawned' ? (nextAgent.get(row) ?? null) : e.lane === row ? null : e.lane;
      const g: Generation = { generation: n, account, vendor: vendorOf(input, account), agent, started_at: e.ts, ended_at: end, end: 'running' };
      lane.generations = [...lane.generations.filter((x) => x.generation !== n), g].sort((a, b) => a.generation - b.generation);
      continue;
    }
    const lane = byName.get(row);
    if (!lane) continue;
    const current = gen(lane, e.generation) ?? lane.generations.at(-1);
    switch (e.event) {
      case 'packet_accepted': {
        const to = gen(lane, e.generation);
        const account = str(e.account);
        if (to && account) Object.assign(to, { account, vendor: vendorOf(input, account) });
        const from = gen(lane, num(e.from_generation) ?? (e.generation ?? 0) - 1);
        if (from) Object.assign(from, { ended_at: e.ts, end: 'handed_off' });
        break;
      }
      case 'pane_closed': {
        const from = gen(lane, (e.generation ?? 0) - 1);
        if (from?.end === 'handed_off') from.ended_at = e.ts;
        break;
      }
      case 'lane_result':
        if (e.passed !== false && current) {
          Object.assign(current, { ended_at: e.ts, end: 'done' });
          lane.state = 'done';
        }
        break;
      case 'lead_released':
        if (current && current.end === 'running') Object.assign(current, { ended_at: e.ts, end: 'done' });
        lane.state = 'done';
        break;
      case 'max_generations':
        if (current) Object.assign(current, { ended_at: e.ts, end: 'stopped' });
        lane.state = 'stopped';
        break;
    }
  }
  const lanes = [...byName.values()].sort((a, b) => (a.role === b.role ? 0 : a.role === 'lead' ? -1 : 1));
  for (const lane of lanes) readingsOf(lane, input, rowOf);
  return {
    lanes, leadRow, rowOf,
    accountOf: (row, n) => byName.get(row)?.generations.find((g) => g.generation === n)?.account ?? null,
  };
}

/** Capacity readings from the inbox (checks and reports' capacity lines); without any, the journal's verdicts. */
function readingsOf(lane: Lane, input: ReportInput, rowOf: (name: string | null) => string | null): void {
  const readings: Reading[] = [];
  for (const r of input.inbox) {
    if (rowOf(r.from) !== lane.name) continue;
    if (r.kind === 'capacity') {
      readings.push({ at: r.ts, generation: r.generation, account: r.account, state: r.state, remaining_pct: r.remaining_pct, context_pct: r.context_pct, source: r.source });
    } else if (r.kind === 'message' && r.to === 'lead' && r.role === 'lane') {
      lane.last_report = r.text;
      const parsed = parseReport(r.text);
      if (!parsed.ok || parsed.report.capacity.raw === '') continue;
      const c = parsed.report.capacity;
      readings.push({ at: r.ts, generation: r.generation, account: c.account ?? r.account, state: c.state, remaining_pct: c.pct, context_pct: c.contextPct, source: 'report' });
    }
  }
  if (readings.length === 0) {
    for (const e of input.journal) {
      if (e.event !== 'capacity_verdict' || rowOf(e.lane) !== lane.name) continue;
      readings.push({
        at: e.ts, generation: e.generation, account: accountAt(lane, e), state: str(e.state) ?? 'unknown',
        remaining_pct: num(e.remainingPct), context_pct: num(e.contextPct), source: 'verdict',
      });
    }
  }
  lane.capacity = readings.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

function accountAt(lane: Lane, e: JournalEntry): string | null {
  return lane.generations.find((g) => g.generation === e.generation)?.account ?? null;
}

function vendorOf(input: ReportInput, account: string | null): string | null {
  return account === null ? null : (input.vendors.get(account) ?? null);
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
