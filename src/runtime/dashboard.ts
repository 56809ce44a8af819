/**
 * `swarm up` on a terminal (SPEC 8). The engine and the dashboard run together in the first window
 * (`swarm`) of the swarm's own tmux session, under a small shell loop that restarts them if they
 * die; this terminal attaches to that window, so closing it stops nothing. The dashboard's keys act
 * through tmux here: ui/ only sees the `DashboardActions` interface.
 */
import { execa } from 'execa';
import { unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SwarmConfig } from '../core/config.js';
import { planPaths } from '../core/paths.js';
import { DependencyError, MismatchError } from '../errors.js';
import { findOnPath } from '../adapters/which.js';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';
import { pidAlive, readHolder } from '../adapters/lock.js';
import { DASHBOARD_WINDOW, startDirectory } from '../adapters/tmux/argv.js';
import { paneTarget } from '../adapters/tmux/paneRef.js';
import { TMUX_MISSING, runTmux, tmuxEnv } from '../adapters/tmux/runner.js';
import type { DashboardActions } from '../ui/keys.js';
import type { SwarmStore } from '../ui/store.js';
import { sessionName, tmuxSocket } from './hostFor.js';
import { startSwarm, type Outcome } from './swarm.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
/** Seconds the window-0 loop waits before it restarts a dead engine. */
export const RESTART_AFTER_S = 2;
/** How long a final frame stays up before an `--until-done` dashboard detaches the terminal. */
const LAST_FRAME_MS = 1500;

/**
 * V8 tuned for size: each Ink frame allocates megabytes (a cell object per character of the
 * screen), which V8 would otherwise let pile up to a 160 MB sawtooth with 64 lanes; this holds the
 * engine with its dashboard near 100 MB RSS, for frames about a quarter slower (bench/ui.mjs).
 */
export const ENGINE_NODE_FLAGS = ['--optimize-for-size'];

/** The engine+dashboard process window 0 runs: `node <flags> cli.js up <file> --dashboard [flags]`. */
export function engineArgv(file: string, flags: readonly string[]): string[] {
  return [process.execPath, ...ENGINE_NODE_FLAGS, CLI, 'up', file, '--dashboard', ...flags];
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
    `printf 'swarm: the engine exited (status %s); restarting in ${RESTART_AFTER_S} s\\n' "$rc"`,
    `sleep ${RESTART_AFTER_S}`,
    'done',
  ].join('\n');
  return ['/bin/sh', '-c', script, 'swarm-dashboard', ...argv];
}

const NOT_PASSED = new Set(['TMUX', 'TMUX_PANE', 'CI', 'CONTINUOUS_INTEGRATION', 'TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'COLUMNS', 'LINES']);

/** `-e KEY=VALUE` for the caller's environment (an existing tmux server keeps its own older one). */
export function paneEnvArgs(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !NOT_PASSED.has(entry[0]) && !entry[0].includes('='))
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([key, value]) => ['-e', `${key}=${value}`]);
}

/** The session with window 0 running `command`: a new session, else window `swarm` respawned (or added). */
export function dashboardWindowArgv(session: string, window: string | null, cwd: string, env: string[], command: string[], size: { columns: number; rows: number }): string[] {
  const tail = [...startDirectory(cwd), ...env, '--', ...command];
  if (window === null) return ['new-session', '-d', '-s', session, '-n', DASHBOARD_WINDOW, '-x', String(size.columns), '-y', String(size.rows), ...tail];
  if (window === '') return ['new-window', '-d', '-t', `=${session}:`, '-n', DASHBOARD_WINDOW, ...tail];
  return ['respawn-window', '-k', '-t', window, ...tail];
}

/** True when tmux hosts this swarm's panes; `backend: tmux` without tmux is a missing dependency. */
export function dashboardInTmux(config: SwarmConfig, env: NodeJS.ProcessEnv): boolean {
  const hasTmux = findOnPath('tmux', env) !== null;
  if (config.backend === 'tmux' && !hasTmux) throw new DependencyError(TMUX_MISSING);
  return config.backend === 'tmux' || (config.backend === 'auto' && hasTmux);
}

/** The pid of a live engine holding the plan's lock on this host, else null. */
export function liveEngine(config: SwarmConfig): number | null {
  const holder = readHolder(planPaths(config.plan).lock);
  return holder && holder.host === hostname() && pidAlive(holder.pid) ? holder.pid : null;
}

const outcomeFile = (config: SwarmConfig): string => join(planPaths(config.plan).swarmDir, 'dashboard-outcome.json');

export interface OpenOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Flags for the engine in window 0 (`--until-done`, `--timeout D`). */
  flags: string[];
  size: { columns: number; rows: number };
  say: (text: string) => void;
}

/**
 * Outside tmux's session: start window 0 unless an engine already runs for the plan, attach this
 * terminal to it, and after the terminal detaches say how the swarm stands. An engine that ended
 * with an outcome (`--until-done`, `--timeout`) gives its exit code.
 */
export async function openDashboard(config: SwarmConfig, options: OpenOptions): Promise<number> {
  const socket = tmuxSocket(options.env);
  const session = sessionName(config);
  const exists = await runTmux(socket, ['has-session', '-t', `=${session}`]).then(() => true, () => false);
  const running = liveEngine(config);
  if (running !== null && !exists) {
    throw new MismatchError(`plan ${config.name} is already run by pid ${running} on this host, outside tmux session ${session}`, [], {
      hint: 'watch it where it runs, or stop it there first',
    });
  }
  if (running === null) {
    try {
      unlinkSync(outcomeFile(config));
    } catch {
      // none from an earlier run
    }
    const window = exists ? await findDashboardWindow(socket, session) : null;
    const command = dashboardLoop(engineArgv(config.file, options.flags));
    await runTmux(socket, dashboardWindowArgv(session, window, options.cwd, paneEnvArgs(options.env), command, options.size));
    // The agents' panes carry a border with their identity; the dashboard's would only cost a row.
    await runTmux(socket, ['set-option', '-w', '-t', `=${session}:=${DASHBOARD_WINDOW}`, 'pane-border-status', 'off']).catch(() => undefined);
  }
  if ((await attachDashboard(socket, session, options.env)) !== 0) {
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
  const rows = await runTmux(socket, ['list-windows', '-t', `=${session}`, '-F', '#{window_id}\t#{window_name}']);
  const found = rows.map((r) => r.split('\t')).find(([, name]) => name === DASHBOARD_WINDOW);
  return found?.[0] ?? '';
}

/**
 * Select window 0 and attach this terminal. `TMUX` is removed so this works from inside another
 * tmux session (a private server cannot be switched to, only attached nested).
 */
export async function attachDashboard(socket: string, session: string, env: NodeJS.ProcessEnv): Promise<number> {
  await runTmux(socket, ['select-window', '-t', `=${session}:=${DASHBOARD_WINDOW}`]).catch(() => undefined);
  const result = await execa('tmux', ['-u', '-L', socket, 'attach-session', '-t', `=${session}`], {
    stdio: 'inherit', env: tmuxEnv(env), extendEnv: false, reject: false,
  });
  return result.exitCode === 0 ? 0 : 1;
}

function readOutcome(config: SwarmConfig): Outcome | null {
  try {
    const value = JSON.parse(readTextIfExists(outcomeFile(config)) ?? 'null') as Outcome | null;
    return value && (value.code === 0 || value.code === 1) ? { code: value.code, why: String(value.why) } : null;
  } catch {
    return null;
  }
}

/** Keys through tmux: go to a lane's pane; detach the client the keys came from (this pane's `TMUX`). */
export function tmuxActions(socket: string, env: NodeJS.ProcessEnv): DashboardActions {
  return {
    focusPane: (ref) => {
      const paneId = paneTarget(ref);
      void runTmux(socket, ['select-window', '-t', paneId])
        .then(() => runTmux(socket, ['select-pane', '-t', paneId]))
        .catch(() => undefined);
    },
    detach: () => {
      void execa('tmux', ['-u', '-L', socket, 'detach-client'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    },
  };
}

/**
 * React and Ink, loaded only here (`swarm notify` never pays for them), as their production builds
 * (the development build renders several times slower). NODE_ENV is set for the load alone and
 * restored before any agent starts, so no pane inherits it.
 */
async function loadUi(env: NodeJS.ProcessEnv) {
  const before = process.env.NODE_ENV;
  if (before === undefined) process.env.NODE_ENV = 'production';
  try {
    const loaded = await Promise.all([import('react'), import('ink'), import('../ui/App.js'), import('../ui/frames.js')]);
    // Ink's frames drawn without its cell-by-cell pass (ui/inkOutput.ts); SWARM_INK_OUTPUT=ink keeps Ink's own.
    if (env.SWARM_INK_OUTPUT !== 'ink') await (await import('../ui/inkOutput.js')).installFastOutput();
    return loaded;
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
  }
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  untilDone: boolean;
  timeoutMs: number | null;
  /** In window 0 of the swarm's tmux session; else in this terminal (pty backend). */
  inTmux: boolean;
  say: (text: string) => void;
  /** Without tmux: the dashboard was closed by its keys; the engine runs on (start the headless log). */
  onViewClosed?: (store: SwarmStore) => void;
}

/**
 * The engine and the dashboard in one process. It ends on a signal, or, with `--until-done` or
 * `--timeout`, once the swarm has an outcome (then written for the attached `swarm up` to report).
 * In tmux it returns 0 for every deliberate end, so the window-0 loop restarts only an engine that
 * died; in this terminal (pty backend) the outcome's code, or 1 when a signal ended it.
 */
export async function runDashboard(config: SwarmConfig, options: RunOptions): Promise<number> {
  const [{ createElement }, { render }, { App }, { bindFrames }] = await loadUi(options.env);
  let swarm;
  try {
    swarm = await startSwarm(config, { env: options.env, untilDone: options.untilDone, timeoutMs: options.timeoutMs });
  } catch (error) {
    if (!(options.inTmux && error instanceof MismatchError)) throw error;
    options.say(`swarm: ${error.message}; ${error.hint ?? ''}\n`);
    return 0;
  }
  const { engine } = swarm;
  const binding = bindFrames(engine.store);
  let stop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  let viewOpen = true;
  const closeView = (): void => {
    if (!viewOpen) return;
    viewOpen = false;
    binding.stop();
    ink.unmount();
  };
  // Without tmux this process hosts the panes: closing the dashboard leaves the engine running here.
  const actions: DashboardActions = options.inTmux
    ? tmuxActions(tmuxSocket(options.env), options.env)
    : { focusPane: () => undefined, detach: () => {
      closeView();
      options.say(`swarm ${config.name}: dashboard closed; the engine runs on here (pty backend: its panes end with this process, Ctrl-C ends it)\n`);
      options.onViewClosed?.(engine.store);
    } };
  process.stdout.on('error', () => undefined);
  const ink = render(createElement(App, { frames: binding.frames, actions, color: !options.env.NO_COLOR, relativeTo: config.dir }), {
    exitOnCtrlC: false, maxFps: 10,
  });
  const onSignal = (signal: NodeJS.Signals): void => stop(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);

  const ending = options.untilDone || options.timeoutMs !== null;
  let outcome = null as Outcome | null;
  void swarm.finished.then(async (result) => {
    outcome = result;
    engine.store.setState({ outcome: result });
    if (!ending) return;
    await new Promise((resolve) => setTimeout(resolve, LAST_FRAME_MS));
    if (options.inTmux) writeFileAtomic(outcomeFile(config), `${JSON.stringify({ ...result, pid: process.pid, at: new Date().toISOString() })}\n`);
    stop('outcome');
  });
  const why = await stopped;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
  closeView();
  await swarm.detach();
  if (options.inTmux) {
    // The attached `swarm up` returns and reports the outcome it finds written.
    if (why === 'outcome') await runTmux(tmuxSocket(options.env), ['detach-client', '-s', `=${sessionName(config)}`]).catch(() => undefined);
    return 0;
  }
  if (why === 'outcome' && outcome) {
    options.say(outcome.code === 0 ? `swarm ${config.name}: plan done\n` : `swarm ${config.name}: stopped short — ${outcome.why}\n`);
    return outcome.code;
  }
  options.say(`swarm ${config.name}: stopped by ${why} — with the pty backend the panes end with this process; \`swarm up\` starts the swarm again\n`);
  return 1;
}
