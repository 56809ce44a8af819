/**
 * Which pool accounts would stop at their start (readiness): the profile checks of
 * each account's kind (kinds/<kind>/readiness.ts), plus the accounts a successor showed a blocking screen on during this run.
 * Feeds `pick`'s `notReady`; each skip is journaled (`account_skipped`, account and why).
 */
import type { Account } from '../core/config/types.js';
import { skippedNotReady, type PickInput } from '../core/accounts/leases.js';
import type { Kinds } from '../kinds/index.js';
import type { JournalInput } from '../adapters/journal.js';
import type { EngineState } from './engineState.js';

/** What the readiness checks need of the engine (not the engine: no import cycle). */
export interface ReadyAccountsEngine {
  readonly state: Pick<EngineState, 'notReady'>;
  readonly env: NodeJS.ProcessEnv;
  readonly kinds: Kinds;
  journal(input: JournalInput): unknown;
}

/** account → why it is not ready, for the accounts of `pool` on `checkout`. */
export function notReadyAccounts(engine: ReadyAccountsEngine, pool: readonly Account[], checkout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const account of pool) {
    const marked = engine.state.notReady?.[account.id];
    if (marked !== undefined) {
      out.set(account.id, marked);
      continue;
    }
    const ready = engine.kinds(account.kind).readiness?.check(account, checkout, engine.env.HOME) ?? { ready: true };
    if (!ready.ready) out.set(account.id, ready.why);
  }
  return out;
}

/** Journal each account the pick skips as not ready. */
export function journalSkips(engine: ReadyAccountsEngine, lane: string, generation: number, input: PickInput): void {
  for (const { account, why } of skippedNotReady(input)) {
    engine.journal({ type: 'observation', event: 'account_skipped', lane, generation, account, why });
  }
}
