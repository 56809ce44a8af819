/**
 * The pane host of a swarm (SPEC 3 backend): tmux when asked or available, else pty. The one place
 * the backend is chosen; `backend: tmux` without tmux is the runner's one "tmux not found".
 */
import type { SwarmConfig } from '../core/config/config.js';
import { planPaths } from '../core/plan/paths.js';
import { excerpt, UsageError } from '../errors.js';
import { findOnPath } from '../adapters/which.js';
import type { PaneHost } from '../adapters/host.js';
import { tmuxMissing } from '../adapters/tmux/runner.js';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';

export function sessionName(config: SwarmConfig): string {
  return `swarm-${config.name}`;
}

const SOCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The `tmux -L` name: a name, never a path (`../x` would put the server's socket outside tmux's own folder). */
export function tmuxSocket(env: NodeJS.ProcessEnv): string {
  const name = env.SWARM_TMUX_SOCKET?.trim() || 'swarm';
  if (!SOCKET_NAME.test(name) || name.length > 100) {
    throw new UsageError(`SWARM_TMUX_SOCKET must be a tmux socket name (letters, digits, ".", "_", "-"), got "${excerpt(name, 60)}"`, { hint: 'it is passed to `tmux -L`, which takes a name, not a path; unset it for the default "swarm"' });
  }
  return name;
}

/** What a session of the plan carries as its owner (`@swarm_plan`): the plan folder's real path, however it is spelled. */
export function planOwner(plan: string): string {
  try {
    return realpathSync(plan);
  } catch {
    return plan;
  }
}

/** Which host runs the panes: `tmux` when asked (tmux missing: exit 4) or, with `auto`, when on PATH; else `pty`. */
export function backendFor(config: Pick<SwarmConfig, 'backend'>, env: NodeJS.ProcessEnv): 'tmux' | 'pty' {
  if (config.backend === 'pty') return 'pty';
  const hasTmux = findOnPath('tmux', env) !== null;
  if (config.backend === 'tmux' && !hasTmux) throw tmuxMissing();
  return hasTmux ? 'tmux' : 'pty';
}

export async function hostFor(config: SwarmConfig, env: NodeJS.ProcessEnv): Promise<PaneHost> {
  const local = await localHostFor(config, env);
  const used = new Set(config.lanes.flatMap((lane) => (lane.host === undefined ? [] : [lane.host])));
  if (used.size === 0) return local;
  return hostSetFor(config, env, local, used);
}

async function localHostFor(config: SwarmConfig, env: NodeJS.ProcessEnv): Promise<PaneHost> {
  if (backendFor(config, env) === 'tmux') return tmuxHostFor(config, env);
  const { PtyHost } = await import('../adapters/pty/host.js');
  return new PtyHost({ session: sessionName(config) });
}

/**
 * Lanes on other hosts (SPEC 10.9): this machine's host and one RemoteHost for each host a lane names.
 * An agent's host is its lane's: a reviewer (`<lane>.review`) runs where its lane's checkout is.
 */
async function hostSetFor(config: SwarmConfig, env: NodeJS.ProcessEnv, local: PaneHost, used: ReadonlySet<string>): Promise<PaneHost> {
  const [{ RemoteHost }, { HostSet }, { reviewedLane }] = await Promise.all([
    import('../adapters/remote/host.js'), import('../adapters/remote/hostSet.js'), import('../machine/review.js'),
  ]);
  const socket = tmuxSocket(env);
  const remotes = new Map((config.hosts ?? []).filter((spec) => used.has(spec.name)).map((spec) => [spec.name, new RemoteHost({
    name: spec.name, spec, plan: config.plan, socket, session: sessionName(config), env,
  })] as const));
  const lanes = new Map(config.lanes.map((lane) => [lane.name, lane.host ?? null]));
  return new HostSet(local, remotes, (agent) => lanes.get(reviewedLane(agent) ?? agent) ?? null);
}

/** The plan's tmux host, whatever the backend setting (`swarm attach`). */
export async function tmuxHostFor(config: SwarmConfig, env: NodeJS.ProcessEnv): Promise<PaneHost> {
  const { TmuxHost } = await import('../adapters/tmux/host.js');
  return new TmuxHost({ socket: tmuxSocket(env), session: sessionName(config), plan: planOwner(config.plan), paneDeathFile: join(planPaths(config.plan).swarmDir, 'panes.jsonl') });
}
