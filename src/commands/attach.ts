/** `swarm attach [file]` (SPEC 8): attach this terminal to the swarm's tmux session, at the dashboard (window 0). */
import { UsageError } from '../errors.js';
import { loadConfig } from '../adapters/configFile.js';
import { findOnPath } from '../adapters/which.js';
import { hasSession } from '../adapters/tmux/argv.js';
import { attachDashboard } from '../adapters/tmux/attach.js';
import { runTmux, tmuxMissing } from '../adapters/tmux/runner.js';
import { sessionName, tmuxSocket } from '../runtime/hostFor.js';
import type { CommandIO } from './io.js';

export async function attach(io: CommandIO): Promise<number> {
  if (io.args.length > 1 || io.args.some((a) => a.startsWith('-'))) throw new UsageError('usage: swarm attach [file]');
  const config = loadConfig(io.args[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env, checkKinds: false });
  if (!findOnPath('tmux', io.env)) throw tmuxMissing();
  const socket = tmuxSocket(io.env);
  const session = sessionName(config);
  const has = await runTmux(socket, hasSession(session)).then(() => true, () => false);
  if (!has) throw new UsageError(`no tmux session ${session} on socket ${socket}`, { hint: 'start it with `swarm up`' });
  return attachDashboard(socket, session, io.env);
}
