/**
 * Questions about one lane's state that more than one transition asks, and the fresh lane itself.
 * Pure.
 */
import type { LaneState, MachineContext, Phase } from './types.js';

/** A fresh lane before its first agent started: generation 1, no pane, no handoff. */
export function initialLane(input: { name: string; role: 'lane' | 'lead'; account: string | null; now: number }): LaneState {
  return {
    name: input.name, role: input.role, generation: 1, account: input.account, paneId: null,
    state: 'starting', phase: null, phaseSince: null, blocked: null,
    capacity: null, capacityState: 'unknown', remainingPct: null, contextPct: null, last: null,
    startedAt: input.now, lastActivity: input.now, quickExits: 0, nearGeneration: null,
    stallNudged: false, gate: null, handoff: null,
  };
}

/** A lane as a state file saved it: older files have `gatePending` (true: a gate in flight) and no `gate`. */
export type SavedLane = Omit<LaneState, 'gate'> & { gate?: LaneState['gate']; gatePending?: boolean };

/**
 * A saved lane as the machine knows lanes now. An older file's `gatePending: true` is a gate in
 * flight whose run and process are unknown: after a restart it runs again (no process to end is known).
 */
export function savedLane(saved: SavedLane): LaneState {
  const { gatePending, gate, ...lane } = saved;
  const legacy = gatePending === true ? { id: `${saved.name}/g${saved.generation}/gate/saved`, command: 'done_when', since: saved.lastActivity } : null;
  return { ...lane, gate: gate ?? legacy };
}

const IN_FLIGHT: ReadonlySet<Phase> = new Set<Phase>(['reported', 'spawning', 'waiting', 'degraded', 'rejected', 'attention']);

/** The phases from which a handoff is in flight (hysteresis: capacity no longer matters). */
export function handoffInFlight(lane: LaneState): boolean {
  return lane.phase !== null && IN_FLIGHT.has(lane.phase);
}

/** When a rejected lane's time to report a valid packet ends: `timeouts.packet` after its first report. */
export function rejectedDue(lane: LaneState, ctx: Pick<MachineContext, 'now' | 'timeouts'>): number {
  return (lane.handoff?.firstReportAt ?? lane.phaseSince ?? ctx.now) + ctx.timeouts.packet;
}

/** The lane still has an agent to watch: neither done nor stopped. */
export const isLive = (lane: LaneState): boolean => lane.state !== 'done' && lane.state !== 'stopped';

/**
 * The account the lane's agent of `generation` holds, as the engine knows it: the current agent's,
 * or the awaited successor's; null for any other generation (retired, unknown) or none leased.
 */
export function accountOf(lane: LaneState, generation: number | null): string | null {
  if (generation === null) return null;
  if (generation === lane.generation) return lane.account;
  const successor = lane.handoff?.successor ?? null;
  return successor !== null && successor.generation === generation ? successor.account : null;
}

/** The current agent's exit was already handled (lost, or held after a crash loop). */
export const exitRecorded = (lane: LaneState): boolean =>
  lane.state === 'lost' || (lane.blocked?.source === 'engine' && lane.blocked.class === 'dependency');

/** Stall: working (or starting), no gate running, and the agent expected to act (not mid-handoff). */
export function stallWatched(lane: LaneState): boolean {
  return (lane.state === 'working' || lane.state === 'starting') && lane.gate === null && !lane.review && (!handoffInFlight(lane) || lane.phase === 'rejected');
}

/**
 * The swarm's lanes with `name` in them (first start, or `lane add`): a lane already known is kept
 * as it is (never reset to a fresh one), a new one is fresh and goes last in the order.
 */
export function withLane(
  lanes: Readonly<Record<string, LaneState>>,
  order: readonly string[],
  input: { name: string; role: 'lane' | 'lead'; account: string | null; now: number },
): { lanes: Record<string, LaneState>; order: string[]; lane: LaneState } {
  const known = lanes[input.name];
  const lane = known ?? initialLane(input);
  return { lanes: known ? { ...lanes } : { ...lanes, [input.name]: lane }, order: order.includes(input.name) ? [...order] : [...order, input.name], lane };
}
