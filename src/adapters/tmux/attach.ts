/**
 * This terminal attached to a swarm's session at its dashboard (window 0): `swarm up` on a terminal
 * and `swarm attach`. Nested when called from inside another tmux session (`TMUX` removed: a
 * private server cannot be switched to, only attached).
 */
import { writeFileSync } from 'node:fs';
import { attachCommand, attachSession, dashboardTarget, selectWindow } from './argv.js';
import { runTmux, runTmuxClient, tmuxEnv } from './runner.js';

/**
 * Select window 0 and attach: 0 once the terminal detaches again, 1 when it could not attach. With
 * `handoff` (bin/swarm.cjs run as a program) the client is not run from here: its argv goes to that
 * file, an argument a line (socket and session names hold no newline), for the launcher's shell to
 * run once this process has exited, and the answer is 'handed off'. A file that takes no write: the
 * client runs from here after all.
 */
export async function attachDashboard(socket: string, session: string, env: NodeJS.ProcessEnv, handoff?: string): Promise<number | 'handed off'> {
  // A client shows its session's current window: the dashboard's first.
  await runTmux(socket, selectWindow(dashboardTarget(session))).catch(() => undefined);
  if (handoff !== undefined) {
    try {
      writeFileSync(handoff, `${attachCommand(socket, session, env).join('\n')}\n`);
      return 'handed off';
    } catch {
      // attached from here
    }
  }
  return (await runTmuxClient(socket, attachSession(session), { env: tmuxEnv(env), terminal: true })) === 0 ? 0 : 1;
}
