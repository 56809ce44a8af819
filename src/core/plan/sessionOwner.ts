/**
 * A tmux session belongs to one plan (SPEC 10.1): it carries `@swarm_plan`, the plan folder's real
 * path. Whether a swarm may act on the session it found, and what it says when it may not. Pure.
 */

/** The session as found: absent, or its stamp (null: none) and its agents' panes (ids as the engine records them). */
export type SessionFound = { exists: false } | { exists: true; owner: string | null; panes: readonly string[] };

/**
 * `absent`: none yet (made and stamped by this plan). `ours`: stamped with this plan. `adopt`: no
 * stamp, and nothing in it that this plan did not start: no agent pane, or a pane its state records
 * (a session made before sessions were stamped); stamp it, then it is ours. `foreign`: another plan's.
 */
export type SessionClaim = 'absent' | 'ours' | 'adopt' | { foreign: string | null };

export function judgeSession(found: SessionFound, plan: string, recorded: ReadonlySet<string>): SessionClaim {
  if (!found.exists) return 'absent';
  if (found.owner === plan) return 'ours';
  if (found.owner !== null) return { foreign: found.owner };
  return found.panes.length === 0 || found.panes.some((pane) => recorded.has(pane)) ? 'adopt' : { foreign: null };
}

/** The panes a saved state records: each lane's agent, the agent it hands off from, and its successor. */
export function recordedPanes(lanes: Iterable<{ paneId: string | null; handoff: { from: { paneId: string | null }; successor: { paneId: string | null } | null } | null }>): Set<string> {
  const panes = new Set<string>();
  for (const lane of lanes) {
    for (const pane of [lane.paneId, lane.handoff?.from.paneId, lane.handoff?.successor?.paneId]) if (pane) panes.add(pane);
  }
  return panes;
}

/** Where the other plan's session is and how to keep the two apart: what `up` and `down` say (exit 3). */
export function foreignSession(where: { session: string; socket: string; plan: string; owner: string | null }): { message: string; hint: string } {
  const other = where.owner === null ? 'a swarm of another plan (its panes are none of this plan\'s)' : `plan ${where.owner}`;
  return {
    message: `tmux session ${where.session} on socket ${where.socket} belongs to ${other}, not to plan ${where.plan}: nothing of it is touched`,
    hint: `give this plan its own session: another \`name:\` in its swarm.yaml, or its own tmux server with SWARM_TMUX_SOCKET=<name>` +
      (where.owner === null ? `; if that session is a leftover of this plan, end it with \`tmux -L ${where.socket} kill-session -t ${where.session}\`` : ''),
  };
}
