/**
 * Panes of other hosts as the engine knows them (SPEC 10.9): each host's tmux server hands out its
 * own ids (`%3/<server>`, adapters/tmux/paneRef.ts), so the engine's id of a pane on host `box` is
 * `box:%3/<server>`; a pane of this machine keeps its id as it is (an id saved before hosts existed
 * still names the same pane). A host name follows the lane-name rule, which has no `:`. Pure.
 */

/** The engine's id of pane `ref` of host `host`. */
export const hostPane = (host: string, ref: string): string => `${host}:${ref}`;

/** The host a pane id names and the host's own id, or null for a pane of this machine. */
export function paneHost(id: string): { host: string; ref: string } | null {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*):(.+)$/.exec(id);
  return match ? { host: match[1]!, ref: match[2]! } : null;
}
