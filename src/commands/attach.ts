/**
 * `swarm attach [file]` (SPEC 8): attach this terminal to the swarm's tmux session, at the dashboard
 * (window 0); only to this plan's (SPEC 10.1). Run as a program, bin/swarm.cjs's shell runs the client.
 */
import { UsageError } from '../errors.js';
import { loadConfig } from '../adapters/configFile.js';
import { findOnPath } from '../adapters/which.js';
import { attachDashboard } from '../adapters/tmux/attach.js';
import { tmuxMissing } from '../adapters/tmux/runner.js';
import { planPaths } from '../core/plan/paths.js';
import { loadState } from '../runtime/engineState.js';
import { sessionName, tmuxHostFor, tmuxSocket } from '../runtime/hostFor.js';
import { requireSession } from '../runtime/sessionClaim.js';
import type { CommandIO } from './io.js';

export async function attach(io: CommandIO): Promise<number> {
  if (io.args.length > 1 || io.args.some((a) => a.startsWith('-'))) throw new UsageError('usage: swarm attach [file]');
  // bin/swarm.cjs's shell ran the client this command handed it: its status is the answer.
  if (io.launcher && 'attached' in io.launcher) return io.launcher.attached === 0 ? 0 : 1;
  const config = loadConfig(io.args[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env, checkKinds: false });
  if (!findOnPath('tmux', io.env)) throw tmuxMissing();
  const socket = tmuxSocket(io.env);
  const session = sessionName(config);
  const has = (await requireSession(await tmuxHostFor(config, io.env), config.plan, loadState(planPaths(config.plan).state))) !== 'absent';
  if (!has) throw new UsageError(`no tmux session ${session} on socket ${socket}`, { hint: 'start it with `swarm up`' });
  const attached = await attachDashboard(socket, session, io.env, io.launcher && 'handoff' in io.launcher ? io.launcher.handoff : undefined);
  return attached === 'handed off' ? 0 : attached;
}
