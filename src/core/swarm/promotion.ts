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
import type { SwarmState } from './state.js';

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

/** A promotion the reducer carries out: `lane`'s agent, at `generation`, is to lead as `as`. */
interface Promotion {
  lane: string;
  generation: number;
  as: string;
}

/**
 * The lead lane picks a successor (spawning, none yet, no promotion awaited): the lane to promote in
 * place instead if the succession says so, with the name it will lead by; the reducer has the lead lane
 * await it, claims lead.json for it (`promote_lane`) and names it as the lead's successor. Null: no lane
 * is to be promoted (a successor lead is started as for any). `lanesOnly` as for promotionTarget.
 */
export function leadPromotion(s: SwarmState, lead: LaneState, succession: readonly string[], lanesOnly: boolean): Promotion | null {
  const h = lead.handoff;
  if (lead.phase !== 'spawning' || h === null || h.successor !== null || (h.promotion ?? null) !== null) return null;
  const target = promotionTarget({ lanes: s.lanes, leadName: s.leadName, leadAgent: s.leadAgent, leadNext: s.leadNext, succession }, h.promotionsTried ?? [], lanesOnly);
  if (target === null) return null;
  return { lane: target, generation: s.lanes[target]!.generation, as: promotedName(s.leadName, target, [...s.order, ...succession]) };
}

/**
 * The lead lane resumed after a restart: a promotion it awaits whose lane was never told (the crash
 * fell between lead.json's claim and the lane's step; that lane still at the generation promoted) is
 * claimed and told again (`promote_lane`; both are idempotent). Null: nothing to claim again.
 */
export function promotionToClaimAgain(lanes: Readonly<Record<string, LaneState>>, lead: LaneState): Promotion | null {
  const p = lead.handoff?.promotion ?? null;
  if (p === null) return null;
  const promoted = lanes[p.lane];
  if (promoted === undefined || promoted.generation !== p.generation || promoted.handoff?.promoted !== undefined) return null;
  return { lane: p.lane, generation: p.generation, as: p.as };
}
