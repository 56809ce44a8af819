/**
 * The report's handoffs, escalations (with the developer's answers) and gates, from the journal.
 * Pure; part of buildFacts (facts.ts).
 */
import type { JournalEntry } from '../protocol/journal.js';
import type { Escalation, Gate, Handoff, ReviewRound } from './types.js';
import { num, str, type LaneRows } from './lanes.js';

/** Events that begin a handoff; a degraded notice and the packet reported after it are one handoff. */
const BEGINS = new Set(['handoff_reported', 'degraded_handoff', 'lead_takeover']);

export function handoffsOf(j: readonly JournalEntry[], rows: LaneRows, packets: ReadonlyMap<string, { doing: string | null }>): Handoff[] {
  const open = new Map<string, Handoff>();
  const all: Handoff[] = [];
  const begin = (row: string, e: JournalEntry): Handoff => {
    const from = e.event === 'handoff_reported' ? e.generation : (num(e.from_generation) ?? e.generation);
    const h: Handoff = {
      lane: row, role: row === rows.leadRow ? 'lead' : 'lane', from_generation: from, from_account: rows.accountOf(row, from),
      to_generation: null, to_account: null, reason: str(e.reason),
      degraded: e.degraded === true || e.event === 'degraded_handoff' || e.event === 'lead_takeover' || (e.event === 'max_generations' && typeof e.packet !== 'string'),
      state: 'open', reported_at: e.ts, spawned_at: null, accepted_at: null, turnaround_ms: null, packet: null, doing: null, rejected: [], waiting: [],
    };
    open.set(row, h);
    all.push(h);
    return h;
  };
  const setPacket = (h: Handoff, packet: unknown) => {
    if (typeof packet !== 'string') return;
    h.packet = packet;
    h.doing = packets.get(packet)?.doing ?? h.doing;
  };
  for (const e of j) {
    const row = rows.rowOf(e.lane);
    if (row === null) continue;
    const h = open.get(row);
    if (BEGINS.has(e.event)) {
      const current = h ?? begin(row, e);
      setPacket(current, e.packet);
      if (e.event !== 'handoff_reported' || e.degraded === true) current.degraded = true;
      current.reason ??= str(e.reason);
      continue;
    }
    switch (e.event) {
      case 'packet_rejected':
        if (h) h.rejected.push({ at: e.ts, packet: str(e.packet), reasons: Array.isArray(e.reasons) ? e.reasons.map(String) : [] });
        break;
      case 'waiting_for_reset':
        if (h) h.waiting.push({ at: e.ts, why: str(e.why), resets_at: str(e.resetsAt), retry_at: str(e.retryAt) });
        break;
      case 'successor_spawned':
        if (h) h.spawned_at = e.ts;
        break;
      case 'escalation':
        if (h && e.class === 'dependency' && e.source === 'engine') h.state = 'attention';
        break;
      case 'packet_accepted':
        if (!h) break;
        setPacket(h, e.packet);
        Object.assign(h, {
          state: 'accepted', to_generation: e.generation, to_account: str(e.account) ?? rows.accountOf(row, e.generation), accepted_at: e.ts,
          turnaround_ms: Date.parse(e.ts) - Date.parse(h.reported_at),
        });
        open.delete(row);
        break;
      case 'max_generations': {
        const stopped = h ?? begin(row, e);
        setPacket(stopped, e.packet);
        stopped.state = 'stopped';
        open.delete(row);
        break;
      }
    }
  }
  return all;
}

export function escalationsOf(j: readonly JournalEntry[], rows: LaneRows): Escalation[] {
  const all: Escalation[] = [];
  const lastOf = (row: string | null) => [...all].reverse().find((x) => x.lane === row && x.class !== null);
  for (const e of j) {
    const row = rows.rowOf(e.lane);
    if (e.event === 'escalation') {
      all.push({ lane: row, generation: e.generation, at: e.ts, class: str(e.class), what: str(e.what), source: str(e.source), resolved_at: null, answers: [] });
    } else if (e.event === 'developer_answer') {
      const text = typeof e.text === 'string' ? e.text : '';
      const target = lastOf(row);
      if (target) target.answers.push({ at: e.ts, text });
      else all.push({ lane: row, generation: null, at: e.ts, class: null, what: null, source: null, resolved_at: null, answers: [{ at: e.ts, text }] });
    } else if (e.event === 'unblocked') {
      const target = [...all].reverse().find((x) => x.lane === row && x.class !== null && x.resolved_at === null);
      if (target) target.resolved_at = e.ts;
    }
  }
  return all;
}

export function gatesOf(j: readonly JournalEntry[], rows: LaneRows): Gate[] {
  const all: Gate[] = [];
  // Lanes whose gate passed into a review (SPEC 10.6): the lane_result at approval names that gate again.
  const reviewed = new Set<string>();
  for (const e of j) {
    const row = rows.rowOf(e.lane);
    if (row === null) continue;
    if (e.event === 'gate_started' && typeof e.command === 'string') {
      all.push({ lane: row, generation: e.generation, command: e.command, started_at: e.ts, ended_at: null, passed: null, output: null });
    } else if ((e.event === 'lane_result' || e.event === 'review_requested') && typeof e.gate === 'string') {
      const gate = [...all].reverse().find((g) => g.lane === row && g.command === e.gate && g.ended_at === null);
      const result = { ended_at: e.ts, passed: e.passed !== false, output: str(e.output) };
      const told = e.event === 'lane_result' && reviewed.delete(row);
      if (e.event === 'review_requested') reviewed.add(row);
      if (gate) Object.assign(gate, result);
      else if (!told) all.push({ lane: row, generation: e.generation, command: e.gate, started_at: null, ...result });
    }
  }
  return all;
}

/** Review rounds (SPEC 10.6) from the journal: asked for, each reviewer, the verdict. */
export function reviewsOf(j: readonly JournalEntry[], rows: LaneRows, vendors: ReadonlyMap<string, string>): ReviewRound[] {
  const all: ReviewRound[] = [];
  const open = new Map<string, ReviewRound>();
  for (const e of j) {
    const row = rows.rowOf(e.lane);
    if (row === null) continue;
    const round = open.get(row);
    const generation = num(e.reviewer_generation);
    const account = str(e.account);
    switch (e.event) {
      case 'review_requested': {
        const r: ReviewRound = { lane: row, round: num(e.round) ?? all.filter((x) => x.lane === row).length + 1, requested_at: e.ts, reviewers: [], verdict: null, what: null, verdict_at: null };
        all.push(r);
        open.set(row, r);
        break;
      }
      case 'reviewer_leased':
        if (round && generation !== null) round.reviewers.push({ generation, account, vendor: account === null ? null : vendors.get(account) ?? null, started_at: null, failed: null });
        break;
      case 'reviewer_started': {
        const r = round?.reviewers.find((x) => x.generation === generation);
        if (r) r.started_at = e.ts;
        break;
      }
      case 'reviewer_failed': {
        const r = round?.reviewers.find((x) => x.generation === generation);
        if (r) r.failed = str(e.why) ?? 'failed';
        break;
      }
      case 'review_verdict':
        if (!round) break;
        Object.assign(round, { verdict: e.verdict === 'approved' ? 'approved' : 'changes', what: str(e.what), verdict_at: e.ts });
        open.delete(row);
        break;
    }
  }
  return all;
}
