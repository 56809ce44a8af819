/**
 * A lost connection to a host (SPEC 10.9): tried again three times within 30 s of the loss — at once,
 * then after 5 s, then after 15 s — and when none reaches it, that host's lanes are lost and no
 * others. Pure: the host's adapter keeps the count and the timer.
 */

/** When each try after a loss is made, from the loss. */
export const RECONNECT_AT_MS = [0, 5_000, 15_000] as const;

/** How long the try after `tried` failed tries waits from the loss, or null: the host is lost. */
export function nextReconnect(tried: number): number | null {
  return RECONNECT_AT_MS[tried] ?? null;
}

/** A host lost (its three tries failed) is tried again this often, for as long as swarm runs: its lanes' successors wait for it. */
export const LOST_RETRY_MS = 30_000;
