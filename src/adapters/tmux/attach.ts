/**
 * This terminal attached to a swarm's session at its dashboard (window 0): `swarm up` on a terminal
 * and `swarm attach`. Nested when called from inside another tmux session (`TMUX` removed: a
 * private server cannot be switched to, only attached).
 */
import { attachSession, dashboardTarget, selectWindow } from './argv.js';
import { runTmux, runTmuxClient, tmuxEnv } from './runner.js';

/** Select window 0 and attach; 0 once the terminal detaches again, 1 when it could not attach. */
export async function attachDashboard(socket: string, session: string, env: NodeJS.ProcessEnv): Promise<number> {
  // A client shows its session's current window: the dashboard's first.
  await runTmux(socket, selectWindow(dashboardTarget(session))).catch(() => undefined);
  return (await runTmuxClient(socket, attachSession(session), { env: tmuxEnv(env), terminal: true })) === 0 ? 0 : 1;
}
