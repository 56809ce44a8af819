/**
 * Why a pick leaves an account out (SPEC 5: never the spent account, one tried, or one in use):
 * the words an escalation gives for each account it calls excluded. Pure: lanes and leases in.
 */
import { excerpt } from '../../errors.js';
import type { Lease } from '../accounts/leases.js';
import type { LaneState } from '../../machine/types.js';

/** account → who uses it: a live agent, a successor in flight, or a lease file's holder. */
export function accountsInUse(lanes: Readonly<Record<string, LaneState>>, leases: readonly Lease[]): Map<string, string> {
  const used = new Map<string, string>();
  const note = (account: string, why: string): void => {
    if (!used.has(account)) used.set(account, why);
  };
  for (const lane of Object.values(lanes)) {
    if (lane.account && lane.state !== 'done') note(lane.account, `in use by ${lane.name} g${lane.generation}`);
    const s = lane.handoff?.successor;
    if (s) note(s.account, `held by ${lane.name}'s successor g${s.generation}`);
  }
  for (const lease of leases) note(lease.account, `leased to ${lease.lane} g${lease.generation}`);
  return used;
}

/** account → why this lane's handoff leaves it out: the account its spent agent leaves, and each one tried. */
export function handoffExclusions(lane: LaneState): Map<string, string> {
  const out = new Map<string, string>();
  const h = lane.handoff;
  if (h === null) return out;
  if (h.from.account !== null) out.set(h.from.account, `the account ${lane.name} g${h.from.generation} leaves`);
  for (const account of h.tried) {
    const failed = [...(h.failures ?? [])].reverse().find((f) => f.account === account);
    out.set(account, failed ? `tried for this handoff: ${excerpt(failed.why, 120)}` : 'tried for this handoff');
  }
  return out;
}
