/**
 * When swarm writes the packet itself (a degraded handoff), and when a lane at max_generations stops
 * instead. Pure.
 */
import type { PacketReason } from '../core/packet/packet.js';
import { clearTimer, escalation, journal, writeDegraded } from './effects.js';
import { quoteExit } from './lastWords.js';
import { freshHandoff } from './successor.js';
import { type AgentExit, type Handoff, type LaneState, type MachineContext, MAX_GENERATIONS_HINT, type Step } from './types.js';

/**
 * swarm writes the fallback packet (or, at max_generations, stops the lane). A lane whose last packet
 * was rejected gets one that names that packet and its reasons; `exit`: the agent's exit that began
 * it, kept for the escalations that may follow.
 */
export function degrade(lane: LaneState, reason: PacketReason, ctx: MachineContext, data: Record<string, unknown> = {}, exit: AgentExit | null = null): Step {
  if (lane.generation >= ctx.maxGenerations) return stop(lane, null, reason, ctx, exit);
  const h = lane.handoff;
  const rejected = lane.phase === 'rejected' && h !== null && h.packet !== null ? { packet: h.packet, reasons: h.rejected } : null;
  const handoff: Handoff = {
    ...freshHandoff(lane, reason, true),
    ...(rejected === null ? {} : { rejectedPacket: rejected.packet, rejected: [...rejected.reasons] }),
    ...(exit === null ? {} : { exit }),
  };
  const next: LaneState = { ...lane, phase: 'degraded', phaseSince: ctx.now, handoff };
  const event = lane.role === 'lead' ? 'lead_takeover' : 'degraded_handoff';
  const named = rejected === null ? {} : { rejected: rejected.packet, reasons: rejected.reasons };
  return {
    lane: next,
    effects: [
      clearTimer(next, 'packet', ctx.now),
      journal(next, event, 'observation', { ...data, ...named, reason, from_generation: lane.generation }, ctx.now),
      writeDegraded(next, reason),
    ],
  };
}

/** A handoff from generation max_generations: there is no further generation. */
export function stop(lane: LaneState, packet: string | null, reason: PacketReason, ctx: MachineContext, exit: AgentExit | null = null): Step {
  const handoff: Handoff = { ...freshHandoff(lane, reason, packet === null), packet, ...(exit === null ? {} : { exit }) };
  const next: LaneState = { ...lane, state: 'stopped', phase: 'stopped', phaseSince: ctx.now, endedAt: ctx.now, handoff };
  const what = `${lane.name} handed off from generation ${lane.generation}, its max_generations (${ctx.maxGenerations}): ` +
    `there is no further generation; ${MAX_GENERATIONS_HINT}${exit === null ? '' : `\n${quoteExit(`its agent (g${lane.generation})`, exit)}`}`;
  return {
    lane: next,
    effects: [
      clearTimer(next, 'packet', ctx.now),
      clearTimer(next, 'stall', ctx.now),
      journal(next, 'max_generations', 'observation', { packet, reason, max: ctx.maxGenerations }, ctx.now),
      ...escalation(next, 'decision', what, 'engine', ctx.now),
    ],
  };
}
