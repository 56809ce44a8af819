/**
 * The shell loop window 0 runs (SPEC 8 `swarm up` on a terminal): the engine+dashboard, started
 * again after any exit but a clean one, so a crash costs a restart and never the swarm. Pure: argv
 * for `/bin/sh`.
 */

/** Seconds the window-0 loop waits before it restarts a dead engine. */
export const RESTART_AFTER_S = 2;

/** How the loop tells an engine's failed exit, its status after it (`swarm up --detach` reads it off the screen). */
const EXITED = 'swarm: the engine exited (status ';

/** The status a line of window 0 tells its engine exited with, or null when it is no such line. */
export function exitedStatus(line: string): number | null {
  const status = line.startsWith(EXITED) ? /^(\d+)\)/.exec(line.slice(EXITED.length))?.[1] : undefined;
  return status === undefined ? null : Number(status);
}

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
    `printf '${EXITED}%s); restarting in ${RESTART_AFTER_S} s\\n' "$rc"`,
    `sleep ${RESTART_AFTER_S}`,
    'done',
  ].join('\n');
  return ['/bin/sh', '-c', script, 'swarm-dashboard', ...argv];
}
