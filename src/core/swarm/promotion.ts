/**
 * Who is promoted to lead in place (SPEC 10.5; machine/promotion.ts does the two lanes' sides). When
 * the lead lane picks a successor, the succession decides, in its order: an entry that is no lane is a
 * successor lead swarm starts (no promotion); an entry that is a lane whose agent can be promoted now
 * (working, its own pane, nothing in flight) is promoted; a lane that cannot, or whose promotion failed
 * in this handoff, is passed over. When no account is left for a successor lead, the lanes of the
 * succession after it are tried (SPEC 10.5's default order: `<lead>-b`, then the lanes of the lead's
 * checkout). Pure.
 */
import { promotable } from '../../machine/promotion.js';
import type { LaneState } from '../../machine/types.js';

export interface PromotionInput {
  lanes: Readonly<Record<string, LaneState>>;
  /** The lead lane's name, and the agent name the lead goes by now. */
  leadName: string;
  leadAgent: string;
  /** A successor already named (a handover to a lane): it is the one considered first. */
  leadNext: string | null;
  succession: readonly string[];
}

/**
 * The lane to promote, or null. `lanesOnly`: no account is left for a successor lead, so entries that
 * are no lane are passed over too.
 */
export function promotionTarget(input: PromotionInput, tried: readonly string[], lanesOnly: boolean): string | null {
  const isLane = (name: string): boolean => input.lanes[name]?.role === 'lane';
  const order = input.leadNext !== null && isLane(input.leadNext) ? [input.leadNext, ...input.succession] : input.succession;
  for (const name of order) {
    if (name === input.leadAgent || name === input.leadName || tried.includes(name)) continue;
    if (!isLane(name)) {
      if (lanesOnly) continue;
      return null; // a successor lead goes first
    }
    if (promotable(input.lanes[name]!)) return name;
  }
  return null;
}

/** The name a promoted lane's agent leads by: `<lead>-<lane>` (a suffix when that names another agent). */
export function promotedName(leadName: string, lane: string, taken: readonly string[]): string {
  const base = `${leadName}-${lane}`;
  let name = base;
  for (let n = 2; taken.includes(name); n += 1) name = `${base}-${n}`;
  return name;
}
