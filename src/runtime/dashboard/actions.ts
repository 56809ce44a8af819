/** The dashboard's keys through tmux (ui/ only sees the `DashboardActions` interface). */
import { detachClient, selectPane, selectWindow } from '../../adapters/tmux/argv.js';
import { paneTarget } from '../../adapters/tmux/paneRef.js';
import { runTmux, runTmuxClient } from '../../adapters/tmux/runner.js';
import type { DashboardActions } from '../../ui/keys.js';

/** Go to a lane's pane; detach the client the keys came from (this pane's `TMUX`, so `env` as it is). */
export function tmuxActions(socket: string, env: NodeJS.ProcessEnv): DashboardActions {
  return {
    focusPane: (ref) => {
      const paneId = paneTarget(ref);
      void runTmux(socket, selectWindow(paneId))
        .then(() => runTmux(socket, selectPane(paneId)))
        .catch(() => undefined);
    },
    detach: () => {
      void runTmuxClient(socket, detachClient(), { env }).catch(() => undefined);
    },
  };
}
