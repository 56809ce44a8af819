/**
 * The pane host of a swarm (SPEC 3 backend): tmux when asked or available, else pty. The one place
 * the backend is chosen; `backend: tmux` without tmux is the runner's one "tmux not found".
 */
import type { SwarmConfig } from '../core/config.js';
import { planPaths } from '../core/paths.js';
import { findOnPath } from '../adapters/which.js';
import type { PaneHost } from '../adapters/host.js';
import { tmuxMissing } from '../adapters/tmux/runner.js';
import { join } from 'node:path';

export function sessionName(config: SwarmConfig): string {
  return `swarm-${config.name}`;
}

export function tmuxSocket(env: NodeJS.ProcessEnv): string {
  return env.SWARM_TMUX_SOCKET?.trim() || 'swarm';
}

/** Which host runs the panes: `tmux` when asked (tmux missing: exit 4) or, with `auto`, when on PATH; else `pty`. */
export function backendFor(config: Pick<SwarmConfig, 'backend'>, env: NodeJS.ProcessEnv): 'tmux' | 'pty' {
  if (config.backend === 'pty') return 'pty';
  const hasTmux = findOnPath('tmux', env) !== null;
  if (config.backend === 'tmux' && !hasTmux) throw tmuxMissing();
  return hasTmux ? 'tmux' : 'pty';
}

export async function hostFor(config: SwarmConfig, env: NodeJS.ProcessEnv): Promise<PaneHost> {
  if (backendFor(config, env) === 'tmux') {
    const { TmuxHost } = await import('../adapters/tmux/host.js');
    return new TmuxHost({ socket: tmuxSocket(env), session: sessionName(config), paneDeathFile: join(planPaths(config.plan).swarmDir, 'panes.jsonl') });
  }
  const { PtyHost } = await import('../adapters/pty/host.js');
  return new PtyHost({ session: sessionName(config) });
}
