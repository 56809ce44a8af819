/** `swarm attach [file]` (SPEC 8): attach this terminal to the swarm's tmux session, at the dashboard (window 0). */
import { execa } from 'execa';
import { UsageError, DependencyError } from '../errors.js';
import { loadConfig } from '../adapters/configFile.js';
import { findOnPath } from '../adapters/which.js';
import { DASHBOARD_WINDOW } from '../adapters/tmux/argv.js';
import { sessionName, tmuxSocket } from '../runtime/hostFor.js';
import type { CommandIO } from './io.js';

export async function attach(io: CommandIO): Promise<number> {
  if (io.args.length > 1 || io.args.some((a) => a.startsWith('-'))) throw new UsageError('usage: swarm attach [file]');
  const config = loadConfig(io.args[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env, checkKinds: false });
  if (!findOnPath('tmux', io.env)) throw new DependencyError('tmux not found', { hint: 'install tmux; with backend: pty there is no session to attach to' });
  const socket = tmuxSocket(io.env);
  const session = sessionName(config);
  const has = await execa('tmux', ['-u', '-L', socket, 'has-session', '-t', session], { reject: false });
  if (has.exitCode !== 0) throw new UsageError(`no tmux session ${session} on socket ${socket}`, { hint: 'start it with `swarm up`' });
  // Inside another tmux session (the common case) attach nested: a private server cannot be switched to.
  const env = { ...io.env, TMUX: undefined };
  // The dashboard's window first: a client shows its session's current window.
  await execa('tmux', ['-u', '-L', socket, 'select-window', '-t', `=${session}:=${DASHBOARD_WINDOW}`], { env, extendEnv: false, reject: false });
  const result = await execa('tmux', ['-u', '-L', socket, 'attach-session', '-t', session], { stdio: 'inherit', env, extendEnv: false, reject: false });
  return result.exitCode === 0 ? 0 : 1;
}
