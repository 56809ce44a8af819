/**
 * `swarm up` on a terminal (SPEC 8), outside the swarm's session. The engine and the dashboard run
 * together in the first window (`swarm`) of the swarm's own tmux session, under the restart loop of
 * runtime/dashboard/loop.ts; this terminal attaches to that window, so closing it stops nothing.
 * Run as the `swarm` program, bin/swarm.cjs's shell runs the attaching client once this process has
 * exited, and node again after it (`afterAttach`): no node process waits behind the client.
 * `swarm up --detach` opens the same window and attaches nothing (runtime/dashboard/detached.ts).
 */
import type { SwarmConfig } from '../../core/config/config.js';
import { dashboardLoop } from './loop.js';
import { planPaths } from '../../core/plan/paths.js';
import { MismatchError } from '../../errors.js';
import { liveHolder } from '../../adapters/lock.js';
import { DASHBOARD_WINDOW, dashboardBorderOff, dashboardWindowArgv, listWindows, paneEnvArgs, parseWindows } from '../../adapters/tmux/argv.js';
import { newScopedSession } from '../../adapters/tmux/serverScope.js';
import { stampOwner } from '../../adapters/tmux/sessionOwner.js';
import { attachDashboard } from '../../adapters/tmux/attach.js';
import { runTmux } from '../../adapters/tmux/runner.js';
import { clearRecords, readOutcome } from './outcome.js';
import { loadState } from '../engineState.js';
import { planOwner, sessionName, tmuxHostFor, tmuxSocket } from '../hostFor.js';
import { requireSession } from '../sessionClaim.js';
import { SWARM_BIN } from '../swarmBin.js';

/**
 * V8 tuned for size: each Ink frame allocates megabytes (a cell object per character of the
 * screen), which V8 would otherwise let pile up to a 160 MB sawtooth with 64 lanes; this holds the
 * engine with its dashboard near 100 MB RSS, for frames about a quarter slower (bench/ui.mjs).
 */
export const ENGINE_NODE_FLAGS = ['--optimize-for-size'];

/** The engine+dashboard process window 0 runs: `node <flags> bin/swarm.cjs up <file> --dashboard [flags]`. */
export function engineArgv(file: string, flags: readonly string[]): string[] {
  return [process.execPath, ...ENGINE_NODE_FLAGS, SWARM_BIN, 'up', file, '--dashboard', ...flags];
}

/** The pid of a live engine holding the plan's lock on this host, else null. */
export function liveEngine(config: SwarmConfig): number | null {
  return liveHolder(planPaths(config.plan).lock)?.pid ?? null;
}

export interface WindowOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Flags for the engine in window 0 (`--until-done`, `--timeout D`). */
  flags: string[];
  /** The window's size while no terminal is attached (an attached one resizes it). */
  size: { columns: number; rows: number };
}

export interface OpenOptions extends WindowOptions {
  say: (text: string) => void;
  /** bin/swarm.cjs's hand-off file: the launcher's shell runs the attaching client (adapters/tmux/attach.ts). */
  handoff?: string;
}

/** What `openWindow` found: the pid of an engine that already runs, else window 0 started now (`note`: how its server started, when worth telling). */
export type Opened = { running: number } | { running: null; note: string | null };

/**
 * Window 0 running the engine+dashboard, unless an engine already runs for the plan. A plan run
 * outside its session is refused (exit 3). A new session's server starts where a logout does not
 * end it, as the engine's own would (SPEC 10.8, adapters/tmux/serverScope.ts).
 */
export async function openWindow(config: SwarmConfig, options: WindowOptions): Promise<Opened> {
  const socket = tmuxSocket(options.env);
  const session = sessionName(config);
  // Only this plan's session (SPEC 10.1): another plan's is refused before its window 0 is touched.
  const exists = (await requireSession(await tmuxHostFor(config, options.env), config.plan, loadState(planPaths(config.plan).state))) !== 'absent';
  const running = liveEngine(config);
  if (running !== null && !exists) {
    throw new MismatchError(`plan ${config.name} is already run by pid ${running} on this host, outside tmux session ${session}`, [], {
      hint: 'watch it where it runs, or stop it there first',
    });
  }
  if (running !== null) return { running };
  clearRecords(config);
  const command = dashboardLoop(engineArgv(config.file, options.flags));
  let note: string | null = null;
  if (exists) {
    await runTmux(socket, dashboardWindowArgv(session, await findDashboardWindow(socket, session), options.cwd, paneEnvArgs(options.env), command, options.size));
  } else {
    const create = dashboardWindowArgv(session, null, options.cwd, paneEnvArgs(options.env), command, options.size);
    ({ note } = await newScopedSession(socket, session, [...create, ';', ...stampOwner(session, planOwner(config.plan))]));
  }
  await runTmux(socket, dashboardBorderOff(session)).catch(() => undefined);
  return { running: null, note };
}

/**
 * Start window 0 unless an engine already runs for the plan, attach this terminal to it, and after
 * the terminal detaches say how the swarm stands (`afterAttach`). Handed off to bin/swarm.cjs's
 * shell, the client runs after this process, and so does what follows it: 0 here.
 */
export async function openDashboard(config: SwarmConfig, options: OpenOptions): Promise<number> {
  const opened = await openWindow(config, options);
  if (opened.running === null && opened.note !== null) options.say(`swarm: ${opened.note}\n`);
  const attached = await attachDashboard(tmuxSocket(options.env), sessionName(config), options.env, options.handoff);
  return attached === 'handed off' ? 0 : afterAttach(config, attached, options);
}

/**
 * Once the terminal's tmux client has exited (`status`), say how the swarm stands: not attached (1),
 * an engine that ended with an outcome (`--until-done`, `--timeout`: its exit code), or detached (0).
 */
export function afterAttach(config: SwarmConfig, status: number, options: { env: NodeJS.ProcessEnv; say: (text: string) => void }): number {
  const socket = tmuxSocket(options.env);
  const session = sessionName(config);
  if (status !== 0) {
    options.say(`swarm ${config.name}: could not attach this terminal; the swarm runs on — try \`tmux -L ${socket} attach -t ${session}\`\n`);
    return 1;
  }
  const outcome = readOutcome(config);
  if (outcome) {
    options.say(outcome.code === 0 ? `swarm ${config.name}: plan done\n` : `swarm ${config.name}: stopped short — ${outcome.why}\n`);
    return outcome.code;
  }
  options.say(`swarm ${config.name}: detached — the swarm keeps running in tmux session ${session}; \`swarm attach\` re-opens the dashboard, \`swarm down\` stops it\n`);
  return 0;
}

/** The window named `swarm` (its id), `''` when the session has none. */
async function findDashboardWindow(socket: string, session: string): Promise<string> {
  const found = parseWindows(await runTmux(socket, listWindows(session))).find((w) => w.name === DASHBOARD_WINDOW);
  return found?.windowId ?? '';
}
