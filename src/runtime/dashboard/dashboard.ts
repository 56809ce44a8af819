/**
 * The engine and its Ink dashboard in one process: window 0 of the swarm's tmux session
 * (`swarm up --dashboard`, started by runtime/dashboard/window.ts), or this terminal with the pty
 * backend. The dashboard's keys act through tmux (runtime/dashboard/actions.ts) or, without it, close
 * the view and leave the engine running here.
 */
import type { SwarmConfig } from '../../core/config/config.js';
import { MismatchError } from '../../errors.js';
import { detachSession } from '../../adapters/tmux/argv.js';
import { runTmux } from '../../adapters/tmux/runner.js';
import type { DashboardActions } from '../../ui/keys.js';
import type { SwarmStore } from '../../ui/store.js';
import { tmuxActions } from './actions.js';
import { writeOutcome, writeStarted } from './outcome.js';
import { sessionName, tmuxSocket } from '../hostFor.js';
import { startSwarm, type Outcome } from '../swarm.js';

/** How long a final frame stays up before an `--until-done` dashboard detaches the terminal. */
const LAST_FRAME_MS = 1500;

/**
 * React and Ink, loaded only here (`swarm notify` never pays for them), as their production builds
 * (the development build renders several times slower). NODE_ENV is set for the load alone and
 * restored before any agent starts, so no pane inherits it.
 */
async function loadUi(env: NodeJS.ProcessEnv) {
  // Through an alias: the bundle of `swarm up` (scripts/bundle-up.mjs) makes `process.env.NODE_ENV` a constant.
  const own = process.env;
  const before = own.NODE_ENV;
  if (before === undefined) own.NODE_ENV = 'production';
  try {
    const loaded = await Promise.all([import('ink'), import('../../ui/App.js'), import('../../ui/frames.js')]);
    // Ink's frames drawn without its cell-by-cell pass (ui/inkOutput.ts); SWARM_INK_OUTPUT=ink keeps Ink's own.
    if (env.SWARM_INK_OUTPUT !== 'ink') await (await import('../../ui/inkOutput.js')).installFastOutput();
    return loaded;
  } finally {
    if (before === undefined) delete own.NODE_ENV;
  }
}

/**
 * The dashboard draws on the terminal's alternate screen, as full-screen programs do: frames never
 * reach the scrollback (a terminal that narrows rewraps the frame and would push its top lines
 * there), and the terminal is given back as it was when the view closes, or the process exits.
 */
function ownScreen(): { leave: () => void } {
  if (!process.stdout.isTTY) return { leave: () => undefined };
  const leave = (): void => {
    process.off('exit', leave);
    process.stdout.write('\u001b[?1049l');
  };
  process.stdout.write('\u001b[?1049h');
  process.once('exit', leave);
  return { leave };
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
  /** `swarm up`'s preflight (SwarmOptions.preflight); window 0 has none: the `swarm up` that opens it ran it. */
  preflight?: () => Promise<void>;
}

/**
 * The engine and the dashboard in one process. It ends on a signal, or, with `--until-done` or
 * `--timeout`, once the swarm has an outcome (then written for the attached `swarm up` to report).
 * In tmux it returns 0 for every deliberate end, so the window-0 loop restarts only an engine that
 * died; in this terminal (pty backend) the outcome's code, or 1 when a signal ended it.
 */
export async function runDashboard(config: SwarmConfig, options: RunOptions): Promise<number> {
  const [{ render }, { appElement }, { bindFrames }] = await loadUi(options.env);
  let stop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  // The first frame is drawn as soon as the store exists, before any pane starts: starting 16 lanes
  // takes seconds, and a terminal that shows nothing meanwhile looks hung.
  let view: { unmount: () => void } | null = null;
  let store: SwarmStore | null = null;
  const closeView = (): void => {
    const open = view;
    view = null;
    open?.unmount();
  };
  // Without tmux this process hosts the panes: closing the dashboard leaves the engine running here.
  const actions: DashboardActions = options.inTmux
    ? tmuxActions(tmuxSocket(options.env), options.env)
    : { focusPane: () => undefined, detach: () => {
      closeView();
      options.say(`swarm ${config.name}: dashboard closed; the engine runs on here (pty backend: its panes end with this process, Ctrl-C ends it)\n`);
      if (store) options.onViewClosed?.(store);
    } };
  process.stdout.on('error', () => undefined);
  const mount = (created: SwarmStore): void => {
    store = created;
    const binding = bindFrames(created);
    const screen = ownScreen();
    const ink = render(appElement({ frames: binding.frames, actions, color: !options.env.NO_COLOR, relativeTo: config.dir }), {
      exitOnCtrlC: false, maxFps: 10,
    });
    view = { unmount: () => { binding.stop(); ink.unmount(); screen.leave(); } };
  };
  let swarm;
  try {
    swarm = await startSwarm(config, { env: options.env, untilDone: options.untilDone, timeoutMs: options.timeoutMs, onStore: mount, ...(options.preflight ? { preflight: options.preflight } : {}) });
  } catch (error) {
    closeView();
    if (!(options.inTmux && error instanceof MismatchError)) throw error;
    options.say(`swarm: ${error.message}; ${error.hint ?? ''}\n`);
    return 0;
  }
  const { engine } = swarm;
  // `swarm up --detach` returns once it sees this: the engine holds the plan and its run has begun.
  if (options.inTmux) writeStarted(config);
  const onSignal = (signal: NodeJS.Signals): void => stop(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);

  const ending = options.untilDone || options.timeoutMs !== null;
  let outcome = null as Outcome | null;
  void swarm.finished.then(async (result) => {
    outcome = result;
    engine.store.setState({ outcome: result });
    if (!ending) return;
    await new Promise((resolve) => setTimeout(resolve, LAST_FRAME_MS));
    if (options.inTmux) writeOutcome(config, result);
    stop('outcome');
  });
  const why = await stopped;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
  closeView();
  await swarm.detach();
  if (options.inTmux) {
    // The attached `swarm up` returns and reports the outcome it finds written.
    if (why === 'outcome') await runTmux(tmuxSocket(options.env), detachSession(sessionName(config))).catch(() => undefined);
    return 0;
  }
  if (why === 'outcome' && outcome) {
    options.say(outcome.code === 0 ? `swarm ${config.name}: plan done\n` : `swarm ${config.name}: stopped short — ${outcome.why}\n`);
    return outcome.code;
  }
  options.say(`swarm ${config.name}: stopped by ${why} — with the pty backend the panes end with this process; \`swarm up\` starts the swarm again\n`);
  return 1;
}
