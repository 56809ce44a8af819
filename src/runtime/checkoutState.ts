/**
 * A lane's checkout's git state as its host reads it (SPEC 10.9), for the packet's checks and the
 * degraded packet the engine writes (runtime/effects.ts). Each asker keeps its own rule for a host
 * that is down or gives no state: a packet is not taken, a degraded packet names the checkout alone.
 */
import type { GitState } from '../adapters/git.js';
import type { PaneHost } from '../adapters/host.js';
import type { LaneState } from '../machine/types.js';

/**
 * `there`: read on the other host the lane runs on; `here`: a lane of this machine, for the asker to
 * read here (adapters/git.ts `gitState`); `down`: its host cannot be reached now and was not asked;
 * `unreadable`: its host was asked and gave no state (it went meanwhile, or could not read the checkout).
 */
type CheckoutState =
  | { readonly kind: 'there'; readonly git: GitState }
  | { readonly kind: 'here' }
  | { readonly kind: 'down'; readonly why: string }
  | { readonly kind: 'unreadable'; readonly why: string };

interface Where {
  readonly host: PaneHost;
  checkoutOf(name: string): string;
}

/** `waitForHost`: a host that is down is asked anyway (remote/host.ts tries it once more), so never `down`. */
export async function checkoutState(engine: Where, lane: LaneState, { waitForHost }: { waitForHost: boolean }): Promise<CheckoutState> {
  if (!waitForHost) {
    const down = engine.host.hostDown?.(lane.name) ?? null;
    if (down !== null) return { kind: 'down', why: down };
  }
  try {
    const git = (await engine.host.gitState?.(lane.name, engine.checkoutOf(lane.name))) ?? null;
    return git === null ? { kind: 'here' } : { kind: 'there', git };
  } catch (error) {
    return { kind: 'unreadable', why: error instanceof Error ? error.message : String(error) };
  }
}
