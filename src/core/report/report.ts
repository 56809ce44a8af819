/**
 * `swarm report` (SPEC 7): the completion report read from the journal — every handoff and
 * succession with its packet, times, accounts and generations; escalations; the outcome. Pure.
 */
import type { JournalEntry } from '../protocol/journal.js';
import { stopwatch } from '../config/duration.js';
import type { RunSummary } from './runs.js';
import type { Spend, SpendTotal } from './types.js';
import { spendText, tokenTotal } from '../ledger/ledger.js';

interface Handoff {
  lane: string;
  from: number | null;
  fromAccount: string | null;
  to: number | null;
  toAccount: string | null;
  packet: string | null;
  reason: string | null;
  degraded: boolean;
  reportedAt: string | null;
  acceptedAt: string | null;
  rejections: number;
}

export function buildReport(entries: readonly JournalEntry[], options: { plan: string; relativeTo?: string; run?: number | 'all' | null; runs?: readonly RunSummary[]; spend?: Spend }): string {
  const rel = (path: unknown) => {
    const text = typeof path === 'string' ? path : '';
    return options.relativeTo && text.startsWith(`${options.relativeTo}/`) ? text.slice(options.relativeTo.length + 1) : text;
  };
  const first = entries[0]?.ts ?? null;
  const done = entries.find((e) => e.event === 'plan_done') ?? null;
  const stopped = [...entries].reverse().find((e) => e.event === 'stopped_short') ?? null;
  const runs = options.runs ?? [];
  const which = options.run === 'all' ? `, all ${runs.length} runs` : typeof options.run === 'number' ? `, run ${options.run}${runs.length > 1 ? ` of ${runs.length} (--run N|all for another)` : ''}` : '';
  const lines: string[] = [`swarm report — plan ${options.plan}${which}`];
  const down = entries.at(-1)?.event === 'swarm_down' ? entries.at(-1)! : null;
  const end = done ? `, plan done ${clock(done.ts)} (${span(first ?? '', done.ts)})` : stopped ? `, stopped short ${clock(stopped.ts)}: ${String(stopped.why ?? '')}`
    : down ? `, ended by swarm down ${clock(down.ts)} (${span(first ?? '', down.ts)})` : ', not finished';
  if (first) lines.push(`started ${clock(first)}${end}`);

  const accountOf = new Map<string, string>();
  const open = new Map<string, Handoff>();
  const handoffs: Handoff[] = [];
  const results = new Map<string, string>();
  const escalations: string[] = [];
  const reviews: string[] = [];
  const leads: string[] = [];
  const leadNames = new Set<string>();
  for (const e of entries) {
    const lane = e.lane ?? '-';
    switch (e.event) {
      case 'lane_started':
        if (typeof e.account === 'string') accountOf.set(`${lane}/${e.generation}`, e.account);
        break;
      case 'handoff_reported':
      case 'degraded_handoff': {
        // One handoff per open record: a degraded notice and its packet, or a rejected packet and the
        // one reported after it, are the same handoff.
        const packet = typeof e.packet === 'string' ? e.packet : null;
        const existing = open.get(lane);
        if (existing) {
          if (packet) existing.packet = packet;
          if (e.event === 'degraded_handoff' || e.degraded === true) existing.degraded = true;
          break;
        }
        const h: Handoff = {
          lane, from: e.generation, fromAccount: accountOf.get(`${lane}/${e.generation}`) ?? null, to: null, toAccount: null,
          packet, reason: typeof e.reason === 'string' ? e.reason : null,
          degraded: e.event === 'degraded_handoff' || e.degraded === true, reportedAt: e.ts, acceptedAt: null, rejections: 0,
        };
        open.set(lane, h);
        handoffs.push(h);
        break;
      }
      case 'packet_rejected': {
        const h = open.get(lane);
        if (h) h.rejections += 1;
        break;
      }
      case 'packet_accepted': {
        const h = open.get(lane);
        if (!h) break;
        h.to = e.generation;
        h.toAccount = typeof e.account === 'string' ? e.account : null;
        if (typeof e.packet === 'string') h.packet = e.packet;
        h.acceptedAt = e.ts;
        if (h.toAccount) accountOf.set(`${lane}/${e.generation}`, h.toAccount);
        open.delete(lane);
        break;
      }
      case 'lane_result':
        if (e.passed === false || (typeof e.result === 'string' && e.result !== 'done')) {
          results.set(lane, `not done: gate failed at ${clock(e.ts)} (g${e.generation ?? '?'}${e.gate ? `: ${String(e.gate)}` : ''})`);
        } else {
          results.set(lane, `done at ${clock(e.ts)} (g${e.generation ?? '?'}${e.gate ? `, gate passed: ${String(e.gate)}` : ''})`);
        }
        break;
      case 'max_generations':
        results.set(lane, `stopped at g${e.generation ?? '?'} (max generations)`);
        break;
      case 'escalation':
        escalations.push(`${clock(e.ts)} ${lane} g${e.generation ?? '?'} ${String(e.class ?? '')}: ${flat(String(e.what ?? ''))}`);
        break;
      case 'review_verdict':
        reviews.push(`${clock(e.ts)} ${lane} round ${String(e.round ?? '?')}: ${String(e.verdict ?? '?')} by ${lane}.review g${String(e.reviewer_generation ?? '?')} @${String(e.account ?? '?')}${e.verdict === 'changes' ? ` — ${flat(String(e.what ?? ''))}` : ''}`);
        break;
      case 'lead_claimed':
      case 'lead_handover':
      case 'lead_takeover':
      case 'lead_epoch_raised':
      case 'lead_accepted':
      case 'lead_released':
        leadNames.add(lane);
        if (typeof e.to === 'string') leadNames.add(e.to);
        leads.push(`${clock(e.ts)} ${leadLine(e)}`);
        break;
    }
  }

  lines.push('', 'lead:', ...(leads.length ? leads.map((l) => `  ${l}`) : ['  (no lead events)']));
  lines.push('', `handoffs: ${handoffs.length}`);
  for (const h of handoffs) {
    const from = `g${h.from ?? '?'}${h.fromAccount ? ` @${h.fromAccount}` : ''}`;
    const to = h.to === null ? 'not accepted' : `g${h.to}${h.toAccount ? ` @${h.toAccount}` : ''}`;
    const timing = h.reportedAt && h.acceptedAt ? ` in ${span(h.reportedAt, h.acceptedAt)}` : '';
    lines.push(`  ${h.lane} ${from} → ${to}${timing}, ${h.degraded ? 'degraded, ' : ''}${h.reason ?? 'reason?'}${h.rejections ? `, ${h.rejections} rejected` : ''}`);
    lines.push(`    reported ${h.reportedAt ? clock(h.reportedAt) : '?'}${h.acceptedAt ? `, accepted ${clock(h.acceptedAt)}` : ''}; packet ${rel(h.packet) || '(none)'}`);
  }
  lines.push('', 'lanes:');
  const laneNames = [...new Set(entries.filter((e) => e.event === 'lane_started' && e.lane).map((e) => e.lane as string))]
    .filter((name) => !leadNames.has(name));
  for (const name of laneNames) lines.push(`  ${name}: ${results.get(name) ?? 'not done'}`);
  lines.push('', `escalations: ${escalations.length}`, ...escalations.map((e) => `  ${e}`));
  if (reviews.length > 0) lines.push('', `reviews: ${reviews.length}`, ...reviews.map((r) => `  ${r}`));
  if (options.spend !== undefined) lines.push('', ...spendLines(options.spend));
  return `${lines.join('\n')}\n`;
}

/**
 * `spend: $4.56 over 5 generations`, then per lane, account and vendor, then each generation: its
 * account, spend, turns, tokens and how it ended (SPEC 10.7).
 */
function spendLines(spend: Spend): string[] {
  const said = (t: SpendTotal): string => spendText({ cost_usd: t.cost_usd, tokens: t.tokens }) ?? 'not told';
  const n = spend.generations.length;
  if (n === 0) return ['spend: not reported (no agent told its usage)'];
  const lines = [`spend: ${said(spend.total)} over ${n} generation${n === 1 ? '' : 's'}`];
  lines.push(`  by lane: ${spend.lanes.map((l) => `${l.lane} ${said(l)}`).join(' · ')}`);
  if (spend.accounts.length > 0) lines.push(`  by account: ${spend.accounts.map((a) => `${a.account}${a.vendor ? `/${a.vendor}` : ''} ${said(a)}`).join(' · ')}`);
  if (spend.vendors.length > 0) lines.push(`  by vendor: ${spend.vendors.map((v) => `${v.vendor} ${said(v)}`).join(' · ')}`);
  for (const g of spend.generations) {
    const tokens = tokenTotal({ cost_usd: null, tokens: g.tokens });
    const parts = [
      `${g.agent} g${g.generation}${g.account ? ` @${g.account}` : ''}`,
      said({ cost_usd: g.cost_usd, tokens: g.tokens }),
      ...(g.turns > 0 ? [`${g.turns} turn${g.turns === 1 ? '' : 's'}`] : []),
      ...(g.cost_usd !== null && tokens !== null ? [`${tokens} tokens`] : []),
      g.end === null ? 'running' : g.end.replace('_', ' '),
      ...(g.context_pct_at_end === null ? [] : [`context ${g.context_pct_at_end}% at the end`]),
    ];
    lines.push(`  ${parts.join(', ')}`);
  }
  return lines;
}

/** `handover lead → lead-b@2`, `takeover lead g1 (lane_lost)`, `accepted lead g2`, `claimed lead@1`. */
function leadLine(e: JournalEntry): string {
  const at = e.epoch ? `@${e.epoch}` : '';
  switch (e.event) {
    case 'lead_handover':
      return `handover ${String(e.by ?? e.lane)} → ${String(e.to ?? e.lane)}${at}`;
    case 'lead_takeover':
      return `takeover of ${e.lane} g${e.generation ?? '?'}${e.reason ? ` (${String(e.reason)})` : ''}`;
    case 'lead_epoch_raised':
      return `epoch raised: ${e.lane}${at}${e.missing ? ` (missing: ${String(e.missing)})` : ''}`;
    case 'lead_accepted':
      return `accepted by ${e.lane} g${e.generation ?? '?'}`;
    default:
      return `${e.event.replace('lead_', '')} ${e.lane}${at}`;
  }
}

function clock(ts: string): string {
  return ts.length >= 19 ? ts.slice(11, 19) : ts;
}

function span(from: string, to: string): string {
  const ms = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(ms)) return '?';
  return stopwatch(ms);
}

/** One line, no escape codes: quoted pane lines must not break the report up. */
function flat(text: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 300 ? `${plain.slice(0, 299)}…` : plain;
}
