/**
 * swarm's own claims of lead.json (a takeover of a lost lead: leadSuccession.ts; a lane promoted in
 * place: promotion.ts) against the record as read, one rule for both (SPEC 6): the record naming the
 * claim's name already is that claim carried out again after a restart; a record moved past the epoch
 * swarm knows is another claim met, and the tie-break (epochs.winner) says which ranks first.
 */
import { winner, type LeadOutcome, type LeadRecord } from '../core/lead/epochs.js';
import type { Engine } from './engine.js';

/** A claim of lead.json by swarm, at the epoch after `known`. */
interface Claim {
  /** The name lead.json is to name. */
  name: string;
  /** The epoch swarm knows. */
  known: number;
  /** The record naming `name` at this epoch or later is claimed already (undefined: at any epoch). */
  since?: number;
  /** The name the claim ranks by in the tie-break (default: `name`). */
  ranksAs?: string;
  /** Names this claim ranks first over whatever the tie-break says. */
  outranks?: ReadonlySet<string>;
}

/** How a claim meets the record (a released record meets nothing). */
type Meeting =
  /** The record names the claim's name already: nothing to write (`refusal`, code 'held'). */
  | { kind: 'already'; epoch: number; refusal: LeadOutcome }
  /** Another claim (`other` at `epoch`) moved the record past `known`; `first` is the one ranking first. */
  | { kind: 'met'; other: string; epoch: number; first: string }
  | { kind: 'none' };

export function meetClaim(engine: Engine, current: LeadRecord, claim: Claim): Meeting {
  if (current.released) return { kind: 'none' };
  const other = current.lead;
  if (other === claim.name && (claim.since === undefined || current.epoch >= claim.since)) {
    return { kind: 'already', epoch: current.epoch, refusal: { ok: false, code: 'held', message: `${claim.name} holds the record at epoch ${current.epoch} already` } };
  }
  if (current.epoch <= claim.known || other === null) return { kind: 'none' };
  const ranksAs = claim.ranksAs ?? claim.name;
  const first = claim.outranks?.has(other) === true
    ? ranksAs
    : winner({ name: ranksAs, epoch: claim.known + 1 }, { name: other, epoch: current.epoch }, engine.config.lead.succession, engine.state.leadAgent);
  return { kind: 'met', other, epoch: current.epoch, first };
}
