/**
 * Before a command acts on the swarm's tmux session (SPEC 10.1): is it this plan's? A session of
 * another plan is refused (`up`, `attach` and `logs` say so; `down` does its own part first); one
 * without a stamp whose panes match this plan's state is adopted and stamped.
 */
import { foreignSession, judgeSession, recordedPanes } from '../core/plan/sessionOwner.js';
import { MismatchError } from '../errors.js';
import type { PaneHost } from '../adapters/host.js';
import type { EngineState } from './engineState.js';
import { planOwner } from './hostFor.js';

/** `none`: a host no other plan can reach (pty). `refused`: another plan's session, with what to say (exit 3). */
export type Claimed = 'none' | 'absent' | 'ours' | 'adopted' | { refused: MismatchError };

export async function claimSession(host: PaneHost, plan: string, state: Pick<EngineState, 'lanes'> | null): Promise<Claimed> {
  const own = host.ownership;
  if (own === undefined) return 'none';
  const owner = planOwner(plan);
  const claim = judgeSession(await own.found(), owner, recordedPanes(Object.values(state?.lanes ?? {})));
  if (claim === 'adopt') {
    await own.stamp();
    return 'adopted';
  }
  if (typeof claim === 'string') return claim;
  const { message, hint } = foreignSession({ session: own.session, socket: own.socket, plan: owner, owner: claim.foreign });
  return { refused: new MismatchError(message, [], { hint }) };
}

/** The claim, or its refusal thrown. */
export async function requireSession(host: PaneHost, plan: string, state: Pick<EngineState, 'lanes'> | null): Promise<Exclude<Claimed, { refused: MismatchError }>> {
  const claimed = await claimSession(host, plan, state);
  if (typeof claimed === 'object') throw claimed.refused;
  return claimed;
}
