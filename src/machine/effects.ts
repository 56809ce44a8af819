/**
 * Building the lane machine's effects: stable ids (so the executor runs each once), journal entries,
 * timers, escalations, and the handoff's pick, spawn and degraded-packet effects. Pure.
 */
import type { PacketReason } from '../core/packet/packet.js';
import type { BlockClass, Blocked, Effect, Handoff, JournalKind, LaneState, Successor, TimerName } from './types.js';

/** An effect id: `<lane>/g<generation>/<parts…>`. */
export function effectId(lane: LaneState, generation: number, ...parts: (string | number)[]): string {
  return [lane.name, `g${generation}`, ...parts].join('/');
}

/** A journal effect; `tag` makes its id unique (defaults to the event time). */
export function journal(
  lane: LaneState, event: string, kind: JournalKind, data: Record<string, unknown>, tag: string | number,
): Effect {
  return { type: 'journal', id: effectId(lane, lane.generation, event, tag), event, kind, data };
}

export function setTimer(lane: LaneState, timer: TimerName, at: number): Effect {
  return { type: 'set_timer', id: effectId(lane, lane.generation, 'timer', timer, at), timer, at };
}

export function clearTimer(lane: LaneState, timer: TimerName, now: number): Effect {
  return { type: 'clear_timer', id: effectId(lane, lane.generation, 'timer', timer, `clear@${now}`), timer };
}

/** One escalation: the journal entry and the effect that runs notify_command and tells the lead. */
export function escalation(lane: LaneState, cls: BlockClass, what: string, source: Blocked['source'], now: number): Effect[] {
  return [
    journal(lane, 'escalation', 'intervention', { class: cls, what, source }, now),
    { type: 'escalate', id: effectId(lane, lane.generation, 'escalate', cls, now), class: cls, what },
  ];
}

/** The pick of the handoff's latest attempt: never the spent account nor one tried, another vendor preferred. */
export function pickEffect(lane: LaneState, h: Handoff): Effect {
  const exclude = [...new Set([...(h.from.account === null ? [] : [h.from.account]), ...h.tried])];
  return { type: 'pick_account', id: effectId(lane, h.from.generation + 1, 'pick', h.picks), exclude, preferOtherThan: h.from.account };
}

export function spawnEffect(lane: LaneState, h: Handoff, s: Successor): Effect {
  return { type: 'spawn', id: effectId(lane, s.generation, 'spawn', s.account), generation: s.generation, account: s.account, packet: h.packet ?? '' };
}

/** swarm writes the fallback packet; one that stands in for a rejected packet names it and its reasons. */
export function writeDegraded(lane: LaneState, reason: PacketReason): Effect {
  const packet = lane.handoff?.rejectedPacket;
  return {
    type: 'write_degraded', id: effectId(lane, lane.generation, 'degraded', lane.phaseSince ?? 0), reason, generation: lane.generation,
    ...(packet === undefined ? {} : { rejected: { packet, reasons: [...(lane.handoff?.rejected ?? [])] } }),
  };
}
