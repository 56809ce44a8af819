/**
 * The shell loop window 0 runs (SPEC 8 `swarm up` on a terminal): the engine+dashboard, started
 * again after any exit but a clean one, so a crash costs a restart and never the swarm. Pure: argv
 * for `/bin/sh`.
 */

/** Seconds the window-0 loop waits before it restarts a dead engine. */
export const RESTART_AFTER_S = 2;

/**
 * The window-0 command: run the engine+dashboard, and again after any exit but a clean one (0).
 * The engine's argv arrives as "$@", never spliced into the script. `CI` is dropped: under it Ink
 * would draw nothing. Each start clears the screen (tmux's `scroll-on-clear` keeps the old one).
 */
export function dashboardLoop(argv: readonly string[]): string[] {
  const script = [
    'while :; do',
    // A clean screen for each start; tmux scrolls what was there (a crash's last words) into history.
    "printf '\\033[H\\033[2J'",
    'env -u CI -u CONTINUOUS_INTEGRATION "$@"; rc=$?',
    '[ "$rc" -eq 0 ] && exit 0',
    `printf 'swarm: the engine exited (status %s); restarting in ${RESTART_AFTER_S} s\\n' "$rc"`,
    `sleep ${RESTART_AFTER_S}`,
    'done',
  ].join('\n');
  return ['/bin/sh', '-c', script, 'swarm-dashboard', ...argv];
}
