/**
 * `swarm up [file] [--headless | --detach] [--until-done] [--timeout D] [--force]` (SPEC 8, 10.2, 10.10):
 * start or re-adopt the swarm; a run that begins is first checked by doctor (the preflight; `--force` skips it).
 * On a terminal the engine and the live dashboard run in window 0 of the swarm's tmux session and
 * this terminal attaches to it (runtime/dashboard/window.ts; run as the `swarm` program, the attaching client
 * is handed to bin/swarm.cjs's shell, with no node process behind it); without one, with `--headless`, or with `CI`
 * set, the engine runs here and prints one line per event (the headless log). Both read one store.
 * `--detach` (`-d`) opens window 0 the same way, terminal or not, and returns once its engine started
 * (runtime/dashboard/detached.ts). `--dashboard` is internal: what window 0 runs.
 */
import { refuseFromAgent } from '../adapters/caller.js';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { parseDuration } from '../core/config/duration.js';
import { frontMatterProblem } from '../core/plan/plan.js';
import { readPlanText } from '../adapters/planFile.js';
import { formatEntry, type JournalEntry } from '../core/protocol/journal.js';
import { DependencyError, UsageError } from '../errors.js';
import type { SwarmConfig } from '../core/config/config.js';
import type { Problem } from '../core/doctor/doctor.js';
import { beginsRun } from '../runtime/initialState.js';
import { loadConfig } from '../adapters/configFile.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { backendFor, sessionName, tmuxSocket } from '../runtime/hostFor.js';
import { shellQuote } from '../adapters/tmux/argv.js';
import { findOnPath } from '../adapters/which.js';
import type { SwarmStore } from '../ui/store.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = 'usage: swarm up [file] [--headless | --detach] [--until-done] [--timeout D] [--force]';

/** Window 0's size when `swarm up --detach` has no terminal to take it from (an attached one resizes it). */
const DETACHED_SIZE = { columns: 160, rows: 48 };

export async function up(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: io.args,
      allowPositionals: true,
      strict: true,
      options: {
        headless: { type: 'boolean' }, detach: { type: 'boolean', short: 'd' }, 'until-done': { type: 'boolean' }, timeout: { type: 'string' },
        dashboard: { type: 'boolean' }, force: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError(`swarm up: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError('swarm up takes one swarm file', { hint: USAGE });
  if (values.detach && values.headless) {
    throw new UsageError('swarm up: --detach and --headless do not go together: --detach runs the engine in tmux window 0 and returns, --headless runs it here in the foreground', { hint: USAGE });
  }
  let timeoutMs: number | null = null;
  if (values.timeout !== undefined) {
    const d = parseDuration(values.timeout);
    if (!d.ok) throw new UsageError(`swarm up --timeout: ${d.error}`, { hint: USAGE });
    timeoutMs = d.ms;
  }
  tmuxSocket(io.env);
  const file = positionals[0] ?? 'swarm.yaml';
  if (io.launcher && 'attached' in io.launcher) {
    // bin/swarm.cjs's shell ran the client this `swarm up` handed it, and now only what follows the detach.
    const { afterAttach } = await import('../runtime/dashboard/window.js');
    return afterAttach(loadConfig(file, { cwd: io.cwd, env: io.env, checkKinds: false }), io.launcher.attached, { env: io.env, say: io.stdout });
  }
  const config = loadConfig(file, { cwd: io.cwd, env: io.env });
  requirePlanFile(config.plan);
  refuseFromAgent(config.plan, 'up');
  // A lead.json that is no lead record stops up here (exit 3, the file named), before any tmux server or session exists.
  readLeadRecord(config.plan);
  const flags = [...(values['until-done'] ? ['--until-done'] : []), ...(values.timeout === undefined ? [] : ['--timeout', values.timeout])];
  const say = io.stdout;
  const preflight = values.force ? undefined : () => runPreflight(config, io);

  if (values.dashboard) {
    const { runDashboard } = await import('../runtime/dashboard/dashboard.js');
    return runDashboard(config, { env: io.env, untilDone: values['until-done'] ?? false, timeoutMs, inTmux: true, say });
  }
  if (values.detach) return upDetached(config, io, { flags, file: positionals[0], ...(preflight ? { preflight } : {}) });
  const terminal = Boolean(process.stdout.isTTY && process.stdin.isTTY);
  if (terminal && !values.headless && !io.env.CI) {
    if (backendFor(config, io.env) === 'tmux') {
      // Window 0 is restarted whenever its engine exits: the preflight is run here, on this terminal, once.
      if (preflight && beginsRun(config)) await preflight();
      const { openDashboard } = await import('../runtime/dashboard/window.js');
      const size = { columns: process.stdout.columns || 120, rows: process.stdout.rows || 40 };
      const handoff = io.launcher && 'handoff' in io.launcher ? { handoff: io.launcher.handoff } : {};
      return openDashboard(config, { env: io.env, cwd: io.cwd, flags, size, say, ...handoff });
    }
    const { runDashboard } = await import('../runtime/dashboard/dashboard.js');
    return runDashboard(config, {
      env: io.env, untilDone: values['until-done'] ?? false, timeoutMs, inTmux: false, say, onViewClosed: (store) => void followLog(store, io, config.dir),
      ...(preflight ? { preflight } : {}),
    });
  }
  if (terminal && !values.headless) io.stdout('swarm: CI is set, so the headless log is shown (the dashboard draws nothing under CI)\n');
  const untilDone = values['until-done'] ?? true;

  // Loaded here: the `swarm up` that only opens window 0 never needs the engine.
  const { startSwarm } = await import('../runtime/swarm.js');
  const swarm = await startSwarm(config, { env: io.env, untilDone, timeoutMs, ...(preflight ? { preflight } : {}) });
  const { engine } = swarm;
  const where = engine.host.kind === 'tmux'
    ? `tmux session ${sessionName(config)} on socket ${tmuxSocket(io.env)} (watch: tmux -L ${tmuxSocket(io.env)} attach -t ${sessionName(config)})`
    : 'embedded pseudo-terminals (panes end with this process)';
  io.stdout(`swarm ${config.name}: plan ${config.plan}, lead ${engine.state.leadAgent}@${engine.state.epoch}, ${config.lanes.length} lanes, ${where}\n`);

  const unsubscribe = followLog(engine.store, io, config.dir);

  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    void swarm.detach().then(() => {
      io.stdout('swarm: detached — the panes keep running; `swarm up` re-adopts them, `swarm down` stops them\n');
      process.exitCode = 1;
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const outcome = await swarm.finished;
  if (interrupted) return 1;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  unsubscribe();
  await swarm.detach();
  if (outcome.fault) throw outcome.fault;
  io.stdout(outcome.code === 0 ? `swarm ${config.name}: plan done\n` : `swarm ${config.name}: stopped short — ${outcome.why}\n`);
  return outcome.code;
}

/**
 * `swarm up --detach`: window 0 as on a terminal, nothing attached, whether stdout is a terminal or
 * not (`ssh host swarm up --detach`); the command returns once its engine started. It needs tmux: a
 * pty backend's panes end with the process. A swarm already running is never started twice (exit 3).
 */
async function upDetached(config: SwarmConfig, io: CommandIO, options: { flags: string[]; file: string | undefined; preflight?: () => Promise<void> }): Promise<number> {
  if (config.backend === 'pty') {
    throw new UsageError('swarm up --detach needs tmux: with backend: pty the panes end with the process that runs them, and --detach returns at once', {
      hint: 'set backend: tmux (or auto) in swarm.yaml, or run `swarm up` without --detach',
    });
  }
  if (findOnPath('tmux', io.env) === null) {
    throw new DependencyError('swarm up --detach needs tmux, and tmux is not found', { hint: 'install it (apt-get install tmux, brew install tmux), or run `swarm up` without --detach' });
  }
  const { alreadyRunning, planHolder, startDetached } = await import('../runtime/dashboard/detached.js');
  const file = options.file === undefined ? '' : ` ${shellQuote(options.file)}`;
  const commands = { attach: `swarm attach${file}`, down: `swarm down${file}` };
  const holder = planHolder(config);
  if (holder !== null) throw alreadyRunning(config, holder, commands);
  if (options.preflight && beginsRun(config)) await options.preflight();
  const { columns, rows } = process.stdout;
  const size = process.stdout.isTTY && columns && rows ? { columns, rows } : DETACHED_SIZE;
  const how = await startDetached(config, { env: io.env, cwd: io.cwd, flags: options.flags, size, commands, say: io.stdout });
  const where = `tmux session ${sessionName(config)} on socket ${tmuxSocket(io.env)}`;
  const what = how === 'started' ? `started in ${where}` : `starting in ${where} (its engine holds the plan; its agents are still starting)`;
  io.stdout(`swarm ${config.name}: ${what}; watch: ${commands.attach} · stop: ${commands.down}\n`);
  return 0;
}

/**
 * The preflight (SPEC 10.2): doctor's checks when a run begins. A problem refuses the start (exit 4,
 * doctor's lines, nothing started); warnings are printed and never refuse.
 */
async function runPreflight(config: SwarmConfig, io: CommandIO): Promise<void> {
  const { doctorFor } = await import('./doctor.js');
  const report = await doctorFor(config, io.env);
  const told = (p: Problem) => `  ${p.what}\n    fix: ${p.fix}`;
  if (!report.ok) {
    throw new DependencyError(`swarm up: the preflight found ${report.problems.length} problem(s) that would stop this swarm before morning; nothing was started:\n${report.problems.map(told).join('\n')}`, {
      hint: 'fix each (`swarm doctor` checks again), or start anyway with `swarm up --force`',
    });
  }
  for (const w of report.warnings) io.stdout(`swarm: preflight warning: ${w.what}\n  fix: ${w.fix}\n`);
}

/** PLAN.md is what every agent reads first: `swarm up` refuses a plan without one, or with broken front matter. */
function requirePlanFile(plan: string): void {
  const file = join(plan, 'PLAN.md');
  const text = readPlanText(plan);
  if (text === null) throw new UsageError(`no PLAN.md in the plan folder ${plan}`, { hint: 'write the plan (goal, approvals, gates, steps) there, or fix "plan" in swarm.yaml' });
  const problem = frontMatterProblem(text);
  if (problem !== null) throw new UsageError(`${file}:${problem}`);
}

/** The headless log: one grep-able line per journal event as the engine records it, no escape codes. */
function followLog(store: SwarmStore, io: CommandIO, relativeTo: string): () => void {
  const printed = new WeakSet<JournalEntry>();
  const print = (events: JournalEntry[]) => {
    for (const entry of events) {
      if (printed.has(entry)) continue;
      printed.add(entry);
      if (entry.event === 'ignored') continue;
      io.stdout(`${formatEntry(entry, { relativeTo })}\n`);
    }
  };
  print(store.getState().events);
  return store.subscribe((s) => print(s.events));
}
