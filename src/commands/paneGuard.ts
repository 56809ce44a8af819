/**
 * Gathers what core/process/paneCaller.ts needs to tell whether `swarm answer` runs in a pane of the swarm:
 * the caller's ancestors and terminals; the swarm's tmux server on the socket this environment names
 * (SWARM_TMUX_SOCKET, default "swarm"), on the socket the engine holding the plan's lock was started
 * with, and on the socket of any ancestor tmux server that hosts the swarm's session (so unsetting
 * or changing SWARM_TMUX_SOCKET changes nothing); and that engine's pid.
 */
import type { SwarmConfig } from '../core/config/config.js';
import { paneCaller, type PaneVerdict, type SwarmProcesses } from '../core/process/paneCaller.js';
import { planPaths } from '../core/plan/paths.js';
import { callerFacts, processEnv, tmuxServer, tmuxSocketsOf } from '../adapters/callerProcess.js';
import { liveHolder } from '../adapters/lock.js';
import { sessionName, tmuxSocket } from '../runtime/hostFor.js';

export async function swarmPaneVerdict(config: SwarmConfig, env: NodeJS.ProcessEnv): Promise<PaneVerdict> {
  const caller = callerFacts();
  const engine = liveHolder(planPaths(config.plan).lock)?.pid ?? null;
  const named = new Set([tmuxSocket(env)]);
  if (engine !== null) named.add(processEnv(engine, 'SWARM_TMUX_SOCKET')?.trim() || 'swarm');
  const found = tmuxSocketsOf(caller.ancestors).filter((socket) => !named.has(socket));
  const servers = await Promise.all([
    ...[...named].map((socket) => tmuxServer(socket, null)),
    ...found.map((socket) => tmuxServer(socket, sessionName(config))),
  ]);
  const swarm: SwarmProcesses = {
    servers: servers.flatMap((s) => s?.servers ?? []),
    engine,
    panes: servers.flatMap((s) => s?.panes ?? []),
  };
  return paneCaller(caller, swarm);
}
