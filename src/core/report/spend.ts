/**
 * The report's spend (SPEC 10.7): the run's `usage` records and numbered turn ends folded by the very
 * fold the engine keeps its ledger with (core/ledger/ledger.ts), so the report, `swarm status` and the
 * dashboard agree to the cent, and a generation still running when the report is read is in it. How a
 * generation ended and its context and capacity at the end come from its `generation_spent` line
 * (its last). Summed per lane (a lane's reviewers count for their lane), per account and per vendor;
 * and the night's cumulative spend over time, for the chart. Pure; part of buildFacts (facts.ts).
 */
import type { InboxRecord } from '../protocol/inbox.js';
import type { JournalEntry } from '../protocol/journal.js';
import { addFigures, figuresOf, foldTurn, foldUsage, generationView, NOTHING, type Figures, type GenerationView, type Ledger } from '../ledger/ledger.js';
import { reviewedLane } from '../../machine/review.js';
import type { Spend, SpendGeneration, SpendTotal } from './types.js';

/** What the spend needs of the report's rows (core/report/lanes.ts). */
interface LaneRows {
  rowOf(name: string | null): string | null;
  accountOf(row: string, generation: number | null): string | null;
}

export const MAX_POINTS = 400;

export function spendOf(inbox: readonly InboxRecord[], journal: readonly JournalEntry[], rows: LaneRows, vendors: ReadonlyMap<string, string>): Spend {
  let ledger: Ledger = {};
  const cumulative: Spend['cumulative'] = [];
  let total: number | null = null;
  const vendorOf = (account: string | null): string | null => (account === null ? null : (vendors.get(account) ?? null));
  for (const r of inbox) {
    if (r.generation === null) continue;
    const agent = r.from;
    const account = accountFor(rows, agent, r.generation) ?? r.account;
    if (r.kind === 'usage') {
      ledger = foldUsage(ledger, {
        agent, generation: r.generation, account, vendor: vendorOf(account),
        session: typeof r.session_id === 'string' ? r.session_id : '', figures: figuresOf(r.cost_usd, r.tokens),
        turns: typeof r.turns === 'number' ? r.turns : null,
      });
      const now = costOf(ledger);
      if (now !== null && now !== total) cumulative.push({ at: r.ts, cost_usd: now });
      total = now;
    } else if (r.kind === 'hook' && r.meaning === 'turn_end' && typeof r.turn === 'number') {
      ledger = foldTurn(ledger, agent, r.generation, r.turn, account, vendorOf(account));
    }
  }
  const ends = endsOf(journal);
  const generations: SpendGeneration[] = Object.entries(ledger).flatMap(([agent, list]) => list.map((g) => {
    const view = generationView(g);
    const end = ends.get(`${agent}\u0000${g.generation}`);
    const lane = laneOf(rows, agent);
    return {
      lane, agent, ...view,
      ...(end === undefined ? {} : {
        started: end.started ?? view.started, ended: end.ended, end: end.end,
        context_pct_at_end: end.context, capacity_start: end.capacityStart, capacity_end: end.capacityEnd,
      }),
    };
  }));
  generations.sort((a, b) => (a.lane === b.lane ? (a.agent === b.agent ? a.generation - b.generation : a.agent < b.agent ? -1 : 1) : a.lane < b.lane ? -1 : 1));
  return {
    total: sumOf(generations),
    generations,
    lanes: groups(generations, (g) => g.lane).map(([lane, f]) => ({ lane, ...f })),
    accounts: groups(generations.filter((g) => g.account !== null), (g) => g.account!).map(([account, f]) => ({ account, vendor: vendorOf(account), ...f })),
    vendors: groups(generations.filter((g) => g.vendor !== null), (g) => g.vendor!).map(([vendor, f]) => ({ vendor, ...f })),
    cumulative: thin(cumulative),
  };
}

/** The row an agent's spend counts for: a lead's successor is the lead's, a reviewer its lane's. */
function laneOf(rows: LaneRows, agent: string): string {
  const reviewed = reviewedLane(agent);
  return rows.rowOf(reviewed ?? agent) ?? agent;
}

function accountFor(rows: LaneRows, agent: string, generation: number): string | null {
  return reviewedLane(agent) === null ? rows.accountOf(laneOf(rows, agent), generation) : null;
}

function costOf(ledger: Ledger): number | null {
  let sum: Figures = NOTHING;
  for (const list of Object.values(ledger)) for (const g of list) sum = addFigures(sum, { cost_usd: generationView(g).cost_usd, tokens: NOTHING.tokens });
  return sum.cost_usd;
}

function sumOf(list: readonly SpendGeneration[]): SpendTotal {
  return list.reduce<Figures>((acc, g) => addFigures(acc, { cost_usd: g.cost_usd, tokens: g.tokens }), NOTHING);
}

function groups(list: readonly SpendGeneration[], key: (g: SpendGeneration) => string): Array<[string, SpendTotal]> {
  const by = new Map<string, SpendGeneration[]>();
  for (const g of list) by.set(key(g), [...(by.get(key(g)) ?? []), g]);
  return [...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, gs]) => [k, sumOf(gs)]);
}

interface End {
  started: string | null;
  ended: string | null;
  end: GenerationView['end'];
  context: number | null;
  capacityStart: number | null;
  capacityEnd: number | null;
}

const ENDS = new Set(['handed_off', 'done', 'stopped', 'lost']);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Each generation's last `generation_spent` line, by agent and generation. */
function endsOf(journal: readonly JournalEntry[]): Map<string, End> {
  const ends = new Map<string, End>();
  for (const e of journal) {
    if (e.event !== 'generation_spent' || e.lane === null || typeof e.generation !== 'number') continue;
    ends.set(`${e.lane}\u0000${e.generation}`, {
      started: strOrNull(e.started), ended: strOrNull(e.ended), end: ENDS.has(String(e.end)) ? (e.end as GenerationView['end']) : null,
      context: numOrNull(e.context_pct_at_end), capacityStart: numOrNull(e.capacity_start), capacityEnd: numOrNull(e.capacity_end),
    });
  }
  return ends;
}

/** At most MAX_POINTS points, evenly picked, the first and the last kept. */
function thin<T>(points: T[]): T[] {
  if (points.length <= MAX_POINTS) return points;
  const step = (points.length - 1) / (MAX_POINTS - 1);
  return Array.from({ length: MAX_POINTS }, (_, i) => points[Math.round(i * step)]!);
}
