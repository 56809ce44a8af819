/**
 * What of the plan folder an agent on another host reads, and the engine writes (SPEC 10.9): copied
 * to the host's plan folder (the same absolute path there) before a pane starts or is typed into,
 * and whenever it changes. Everything an agent writes travels the other way (the host relay's
 * followed set). Plan-relative paths. Pure.
 */

/** Folders and files copied whole. */
const ROOTS = ['PLAN.md', 'lead.json', '.swarm/prompts', '.swarm/agents', '.swarm/mailbox', '.swarm/git-hooks'] as const;

/**
 * The one packet the engine writes itself: a lost lane's degraded packet (runtime/effects.ts), which
 * its successor there reads. Every other packet is an agent's, written where its checkout is.
 */
const HANDOFF = 'analysis_results/handoff';
const ENGINE_PACKET = /^analysis_results\/handoff\/[^/]+-degraded\.yaml$/;

/** Where the engine looks for what to copy. */
export const PUSHED_ROOTS: readonly string[] = [...ROOTS, HANDOFF];

/** Whether the engine copies `path` to a host (and a host's relay takes it). */
export function isPushed(path: string): boolean {
  return ROOTS.some((root) => path === root || path.startsWith(`${root}/`)) || ENGINE_PACKET.test(path);
}
