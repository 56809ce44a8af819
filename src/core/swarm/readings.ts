/**
 * Readings belong to their account (SPEC 10.3). An agent's capacity reading — a `swarm capacity`
 * record, or the capacity line of a report to the lead — counts only for the account the engine
 * knows that agent holds (machine/laneState.ts `accountOf`), never for the one the reading or the
 * agent's environment names: a reading naming another account counts for none and is journaled
 * `capacity_ignored`. Pure.
 *
 * A reading that counts is merged into the account's last one (`mergeReading`), so that nothing
 * never overwrites something:
 * - `unknown` (a line `capacity=unknown`, a check with no source) is no reading: the last one stays.
 * - A state without a percentage keeps the last percentage only when the state is the same (ok
 *   80%, then ok: still 80%); a new state without a number has none (ok 80%, then critical: null).
 * - The reset time likewise: a report's line carries none, so a reset known for the same state stays.
 */
import type { Reading } from '../accounts/leases.js';
import { countsForSender } from '../protocol/protocol.js';
import { accountOf } from '../../machine/laneState.js';
import type { LaneState } from '../../machine/types.js';

export type Attribution =
  /** The reading is its sender's own: of `account` (null: the sender holds no account the engine knows, so nothing to apply). */
  | { counts: true; account: string | null }
  /** It names `named`, not the sender's `own` account: it counts for none. */
  | { counts: false; named: string; own: string | null };

/**
 * Whose reading it is: sent by the agent of `generation` of `lane` (undefined: no lane of this swarm),
 * naming `named` (null: it names none, so it is the sender's own).
 */
export function attribute(lane: LaneState | undefined, generation: number | null, named: string | null): Attribution {
  const own = lane === undefined ? null : accountOf(lane, generation);
  if (named === null || countsForSender(named, own)) return { counts: true, account: own };
  return { counts: false, named, own };
}

/** The account's reading once `next` is taken in after `previous` (see above: nothing never overwrites something). */
export function mergeReading(previous: Reading | undefined, next: Reading): Reading {
  if (previous === undefined) return next;
  if (next.state === 'unknown') return previous;
  const same = previous.state === next.state;
  return {
    state: next.state,
    remainingPct: next.remainingPct ?? (same ? previous.remainingPct : null),
    resetsAt: next.resetsAt ?? (same ? previous.resetsAt : null),
  };
}
