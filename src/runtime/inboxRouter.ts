/**
 * Inbox records → lane events and mailbox deliveries. Lane reports go to the lead's mailbox and, parsed,
 * to the lane's machine (a report's capacity line, as a `swarm capacity` record, is a reading of the
 * sender's account); other messages go where they are addressed; acceptances, capacity readings,
 * agents' hook signals and lead-record changes become events. Text is data: it is stored and pointed
 * at, never typed. A record of another run (core/swarm/runs.ts) is journaled `stale_record` and goes nowhere.
 */
import type { InboxRecord } from '../core/protocol/inbox.js';
import type { Sender } from '../core/protocol/mailbox.js';
import { isAnswer, isAsk, parseReport, type CapacityState, type Report } from '../core/protocol/protocol.js';
import { spoolName } from '../core/authority/agents.js';
import { recordVerdict, runOf } from '../core/swarm/runs.js';
import { publishPacket, spoolPacketsDir } from '../adapters/packetFile.js';
import type { Engine } from './engine.js';
import { leadRecordEvent } from './leadSuccession.js';
import { reviewerRecord } from './reviewers.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { readPacketFile } from '../adapters/packetFile.js';
import { readPlanText } from '../adapters/planFile.js';
import { parsePacket } from '../core/packet/packet.js';
import { planGates, travellingGates } from '../core/gate/travel.js';
import { turn } from './spend.js';

export function route(engine: Engine, record: InboxRecord): void {
  // A reviewer's records are its verdict, or nothing (SPEC 10.6; runtime/reviewers.ts).
  if (record.role === 'reviewer') return reviewerRecord(engine, record);
  const agentLane = engine.laneOfAgent(record.from);
  const verdict = recordVerdict(engine.state, agentLane === null ? undefined : engine.lane(agentLane), record);
  if (!verdict.counts) {
    engine.journal({ type: 'observation', event: 'stale_record', lane: record.from, generation: record.generation, kind: record.kind, run: record.run ?? null, why: verdict.why });
    return;
  }
  const refused = leadPowerRefused(engine, record);
  if (refused !== null) {
    engine.journal({ type: 'intervention', event: 'fenced', lane: record.from, generation: record.generation, command: record.kind === 'lead' ? `lead ${record.action}` : record.kind === 'lane' ? 'lane add' : 'notify all', reason: refused });
    return;
  }
  switch (record.kind) {
    case 'message':
      return message(engine, record);
    case 'accept': {
      const lane = engine.laneOfAgent(record.from);
      if (lane) engine.dispatch(lane, { type: 'accepted', generation: record.generation ?? 0, packet: record.packet, gates: travelling(engine, lane, record.packet) });
      return;
    }
    case 'capacity': {
      // The reading and its verdict count only for the account the engine knows the sender holds (core/swarm/readings.ts).
      const lane = engine.laneOfAgent(record.from);
      const state = record.state as CapacityState;
      const verdict = lane === null ? null : {
        type: 'verdict' as const,
        generation: record.generation ?? 0,
        decision: record.decision as 'continue' | 'handoff_soon' | 'handoff_now',
        state,
        remainingPct: record.remaining_pct,
        contextPct: record.context_pct,
      };
      const reading = { state, remainingPct: record.remaining_pct, resetsAt: record.resets_at };
      engine.dispatch({ type: 'reading', lane, from: record.from, generation: record.generation, named: record.account, reading, source: 'capacity', verdict });
      return;
    }
    case 'hook':
      return hookSignal(engine, record);
    case 'usage':
      return; // usage goes to the agent's usage file, looked at on its own (runtime/usageLook.ts): one here counts for nothing

    case 'lead':
      return leadRecordEvent(engine, record);
    case 'lane':
      return engine.dispatch({ type: 'lane_add', record });
    case 'answer':
      engine.journal({ type: 'intervention', event: 'developer_answer', lane: record.to, text: record.text });
      engine.deliver(record.to, { kind: 'developer' }, record.text);
      // A block the lane reported itself is over at once (SPEC 10.6); the machine decides.
      if (engine.laneOfAgent(record.to) === record.to && engine.lane(record.to)?.state === 'blocked') engine.dispatch(record.to, { type: 'answered' });
      return;
  }
}

function message(engine: Engine, record: Extract<InboxRecord, { kind: 'message' }>): void {
  const leadMailbox = engine.leadMailbox();
  const ask = isAsk(record.text);
  const fromLead = engine.laneOfAgent(record.from) === engine.state.leadName && record.role === 'lead';
  if (fromLead) engine.dispatch({ type: 'ask', event: { type: 'lead_spoke', to: record.to } });
  // When it was asked, by the record, but never later than the swarm's clock: an agent's clock (or a
  // test's hand clock) ahead of it must not push the deadline out.
  else if (record.to === 'lead' && ask) engine.dispatch({ type: 'ask', event: { type: 'asked', from: record.from, at: Math.min(Date.parse(record.ts) || Infinity, engine.now()) } });
  if (ask || isAnswer(record.text)) {
    engine.journal({ type: 'observation', event: ask ? 'ask' : 'answer', lane: record.from, generation: record.generation, to: record.to, text: record.text });
  }
  if (record.role === 'lane' && record.to === 'lead' && !ask) {
    // A lane's report: to the lead's mailbox, and parsed to the lane's machine.
    const lane = engine.laneOfAgent(record.from);
    const parsed = parseReport(record.text);
    engine.deliver(leadMailbox, senderOf(engine, record), record.text);
    // Its capacity line is a reading of the sender's account, as a `swarm capacity` record is: taken before the report is (a handoff picks an account).
    const line = parsed.ok ? parsed.report.capacity : null;
    if (line !== null && line.raw !== '') {
      const reading = { state: line.state, remainingPct: line.pct, resetsAt: null };
      engine.dispatch({ type: 'reading', lane, from: record.from, generation: record.generation, named: line.account, reading, source: 'report', verdict: null });
    }
    if (lane && parsed.ok) engine.dispatch(lane, { type: 'report', generation: record.generation ?? 0, report: published(engine, record, parsed.report) });
    return;
  }
  const targets = record.to === 'all'
    ? engine.state.order.filter((n) => n !== engine.state.leadName)
    : [record.to === 'lead' ? leadMailbox : record.to];
  const from = senderOf(engine, record);
  for (const to of targets) engine.deliver(to, from, record.text);
}

/**
 * A handoff whose packet lies in the sender's own spool (a sandboxed agent wrote it there: SPEC 10.3)
 * names the packet as published into the handoff folder (`packet_published`); any other report
 * stands as sent. Publishing again on a re-read (after a crash) finds the same packet published.
 */
function published(engine: Engine, record: Extract<InboxRecord, { kind: 'message' }>, report: Report): Report {
  if (report.event.kind !== 'handoff' || record.generation === null) return report;
  const spool = spoolName(record.run ?? runOf(engine.state), record.from, record.generation);
  if (!report.event.path.startsWith(`${spoolPacketsDir(engine.config.plan, spool)}/`)) return report;
  const packet = publishPacket(engine.config.plan, spool, report.event.path);
  if (packet === null) return report;
  engine.journal({ type: 'observation', event: 'packet_published', lane: record.from, generation: record.generation, from: report.event.path, packet });
  return { ...report, event: { kind: 'handoff', path: packet } };
}

/**
 * Who a message is from, for its mailbox header: the lane or lead this swarm knows the agent as (a
 * name swarm.yaml or `lane add` validated), with the generation and epoch its record carried.
 */
function senderOf(engine: Engine, record: Extract<InboxRecord, { kind: 'message' }>): Sender {
  const lane = engine.laneOfAgent(record.from);
  if (lane === null) return { kind: 'unknown', name: record.from };
  if (lane === engine.state.leadName) return { kind: 'lead', name: record.from, epoch: record.epoch, generation: record.generation };
  return { kind: 'lane', name: record.from, generation: record.generation };
}

/**
 * An agent's own signal (`swarm hook`): a session start is recorded for the lane's generation (the
 * delivery's idle signal), a turn end may let a pointer line through, the rest are lane events.
 */
function hookSignal(engine: Engine, record: Extract<InboxRecord, { kind: 'hook' }>): void {
  const lane = engine.laneOfAgent(record.from);
  const state = lane ? engine.lane(lane) : undefined;
  if (!lane || !state) return;
  const generation = record.generation ?? 0;
  if (record.meaning === 'session') {
    engine.dispatch({ type: 'session', lane, generation, sessionId: record.session_id, transcriptPath: record.transcript_path });
    return;
  }
  // A turn end that names its session (Codex's thread) records it too: a restart after host loss resumes it.
  if (record.meaning === 'turn_end' && record.session_id !== null && record.session_id.trim() !== '') {
    engine.dispatch({ type: 'session', lane, generation, sessionId: record.session_id, transcriptPath: null });
  }
  if (record.meaning === 'turn_end') turn(engine, lane, record);
  const resetsAt = record.resets_at ?? (record.account ? engine.state.readings[record.account]?.resetsAt ?? null : null);
  engine.dispatch(lane, { type: 'signal', generation, signal: record.meaning, what: `${record.event}: ${record.detail}`, resetsAt });
  if (record.meaning === 'turn_end') engine.deliveries.turnEnd(record.from);
}

/**
 * The lead's powers, checked again where the record lies (SPEC 10.3): `notify all`, `lane add`, a
 * handover or release count only from the agent the engine knows as the current lead; a takeover only
 * from the agent lead.json now names, at the epoch it names. The commands refuse the others before
 * they write; this refuses a record written by hand into a spool. Null: the record may act.
 */
function leadPowerRefused(engine: Engine, record: InboxRecord): string | null {
  const isLead = record.from === engine.state.leadAgent && engine.laneOfAgent(record.from) === engine.state.leadName;
  if (record.kind === 'message' && record.to === 'all' && !isLead) return `${record.from} is not the current lead: only the lead notifies all`;
  if (record.kind === 'lane' && !isLead) return `${record.from} is not the current lead: only the lead adds lanes`;
  if (record.kind !== 'lead') return null;
  if (record.action === 'claim') return 'the lead is claimed by swarm up, never by a record';
  if (record.action === 'takeover') {
    const now = readLeadRecord(engine.config.plan);
    return now?.lead === record.from && now.epoch === record.new_epoch ? null : `lead.json does not name ${record.from} at epoch ${record.new_epoch}: no takeover happened`;
  }
  return isLead ? null : `${record.from} is not the current lead (${engine.state.leadAgent}): no ${record.action}`;
}

/**
 * The accepted packet's unverified gates that the lane's `done` runs with `done_when` (SPEC 10.6): those
 * equal to `done_when` or naming a gate of PLAN.md's `gates:`. Unreadable files add none (the gate
 * text is shown to the successor in its brief either way).
 */
function travelling(engine: Engine, lane: string, packet: string): string[] {
  try {
    const parsed = parsePacket(readPacketFile(engine.config.plan, packet).text);
    if (!parsed.ok) return [];
    const doneWhen = engine.config.lanes.find((l) => l.name === lane)?.doneWhen ?? null;
    return travellingGates(parsed.packet.unverified, doneWhen, planGates(readPlanText(engine.config.plan) ?? ''));
  } catch {
    return [];
  }
}
