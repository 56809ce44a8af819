/**
 * `swarm up [file] [--headless] [--until-done] [--timeout D] [--force]` (SPEC 8, 10.2): start or re-adopt the
 * swarm; a run that begins is first checked by doctor (the preflight; `--force` skips it).
 * On a terminal the engine and the live dashboard run in window 0 of the swarm's tmux session and
 * this terminal attaches to it (runtime/dashboard/window.ts); without one, with `--headless`, or with `CI`
 * set, the engine runs here and prints one line per event (the headless log). Both read one store.
 * `--dashboard` is internal: what window 0 runs.
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
import type { SwarmStore } from '../ui/store.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = 'usage: swarm up [file] [--headless] [--until-done] [--timeout D] [--force]';

export async function up(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: io.args,
      allowPositionals: true,
      strict: true,
      options: { headless: { type: 'boolean' }, 'until-done': { type: 'boolean' }, timeout: { type: 'string' }, dashboard: { type: 'boolean' }, force: { type: 'boolean' } },
    });
  } catch (error) {
    throw new UsageError(`swarm up: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError('swarm up takes one swarm file', { hint: USAGE });
  let timeoutMs: number | null = null;
  if (values.timeout !== undefined) {
    const d = parseDuration(values.timeout);
    if (!d.ok) throw new UsageError(`swarm up --timeout: ${d.error}`, { hint: USAGE });
    timeoutMs = d.ms;
  }
  tmuxSocket(io.env);
  const config = loadConfig(positionals[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env });
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
  const terminal = Boolean(process.stdout.isTTY && process.stdin.isTTY);
  if (terminal && !values.headless && !io.env.CI) {
    if (backendFor(config, io.env) === 'tmux') {
      // Window 0 is restarted whenever its engine exits: the preflight is run here, on this terminal, once.
      if (preflight && beginsRun(config)) await preflight();
      const { openDashboard } = await import('../runtime/dashboard/window.js');
      const size = { columns: process.stdout.columns || 120, rows: process.stdout.rows || 40 };
      return openDashboard(config, { env: io.env, cwd: io.cwd, flags, size, say });
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
