/**
 * `swarm up --detach` (SPEC 10.8, 10.10): window 0 opened as on a terminal (runtime/dashboard/window.ts),
 * no terminal attached. It returns once the engine in it is seen to have started: its start record
 * (runtime/dashboard/outcome.ts) written, or, at the deadline, its lock held by a live engine still
 * starting its agents. An engine that exits first is told by its last lines and the exit status the
 * window-0 loop printed; its window is closed, so no broken window restarts behind the user's back.
 */
import { hostname } from 'node:os';
import { basename } from 'node:path';
import type { SwarmConfig } from '../../core/config/config.js';
import { planPaths } from '../../core/plan/paths.js';
import { MismatchError, SwarmError, type ExitCode } from '../../errors.js';
import { holderAlive, readHolder, type LockHolder } from '../../adapters/lock.js';
import { capturePane, dashboardPaneState, dashboardTarget, killDashboard, parseDashboardPane } from '../../adapters/tmux/argv.js';
import { isGoneError, runTmux } from '../../adapters/tmux/runner.js';
import { exitedStatus } from './loop.js';
import { readStarted } from './outcome.js';
import { liveEngine, openWindow, type WindowOptions } from './window.js';
import { sessionName, tmuxSocket } from '../hostFor.js';

/** How long the engine in window 0 has to show it started. */
const START_DEADLINE_MS = 15_000;
/** How often window 0 and the start record are looked at meanwhile. */
const LOOK_EVERY_MS = 100;
/** The most of a failed engine's screen told. */
const LAST_LINES = 20;

/** What one look at window 0 saw. */
export interface WindowLook {
  /** The engine wrote its start record since window 0 was opened. */
  started: boolean;
  /** Window 0's pane; null once the window is gone. */
  pane: { dead: boolean; status: number | null } | null;
  /** What window 0 shows now (once it is gone: what it showed last). */
  screen: readonly string[];
  /** A live engine holds the plan's lock. */
  holding: boolean;
  /** The deadline has passed. */
  late: boolean;
}

export type StartVerdict =
  | { kind: 'wait' }
  | { kind: 'started' }
  /** The deadline passed with a live engine holding the plan: its agents are still starting. */
  | { kind: 'starting' }
  | { kind: 'failed'; code: ExitCode; why: string; lines: string[] };

/** The exit code of SPEC 8 an engine's exit status stands for (a signal's or a shell's own: 1). */
const codeOf = (status: number): ExitCode => (status >= 1 && status <= 5 ? (status as ExitCode) : 1);

/** A screen's last lines that say something, at most `LAST_LINES`. */
function lastLines(screen: readonly string[]): string[] {
  const lines = screen.map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.slice(-LAST_LINES);
}

/** Pure: whether the engine in window 0 started, failed, or is still to be waited for. */
export function judgeStart(look: WindowLook): StartVerdict {
  if (look.started) return { kind: 'started' };
  const exited = look.screen.findIndex((line) => exitedStatus(line) !== null);
  if (exited !== -1) {
    const status = exitedStatus(look.screen[exited]!)!;
    return { kind: 'failed', code: codeOf(status), why: `its engine exited with status ${status}`, lines: lastLines(look.screen.slice(0, exited)) };
  }
  // The loop ends only on a clean exit: before a start, that is an engine that refused the plan (another holds it).
  if (look.pane === null || look.pane.dead) {
    const status = look.pane?.status ?? 0;
    return { kind: 'failed', code: status === 0 ? 3 : codeOf(status), why: 'its engine ended before it started', lines: lastLines(look.screen) };
  }
  if (!look.late) return { kind: 'wait' };
  if (look.holding) return { kind: 'starting' };
  return { kind: 'failed', code: 1, why: `its engine did not start within ${START_DEADLINE_MS / 1000} s`, lines: lastLines(look.screen) };
}

/** The engine that holds the plan: a live one of this host, or another host's (whose life cannot be told from here), else null. */
export function planHolder(config: SwarmConfig): LockHolder | null {
  const holder = readHolder(planPaths(config.plan).lock);
  return holder !== null && (holder.host !== hostname() || holderAlive(holder)) ? holder : null;
}

/** A second engine is never started (SPEC 9): exit 3, the holder named, and how to reach the one running. */
export function alreadyRunning(config: SwarmConfig, holder: Pick<LockHolder, 'pid' | 'host'> & { since?: string }, commands: { attach: string; down: string }): MismatchError {
  const since = holder.since ? ` (since ${holder.since})` : '';
  return new MismatchError(`swarm ${config.name} is already running: plan ${basename(config.plan)} is run by pid ${holder.pid} on ${holder.host}${since}`, [], {
    hint: `watch it: ${commands.attach} · stop it: ${commands.down}`,
  });
}

export interface DetachOptions extends WindowOptions {
  /** `swarm attach` and `swarm down` as the user would type them for this swarm file. */
  commands: { attach: string; down: string };
  say: (text: string) => void;
}

/**
 * Open window 0 and wait (at most `START_DEADLINE_MS`) until its engine started: 'started', or
 * 'starting' (it holds the plan, its agents still starting). A failed start is thrown with the
 * engine's exit code (SPEC 8) and its last lines, its window closed.
 */
export async function startDetached(config: SwarmConfig, options: DetachOptions): Promise<'started' | 'starting'> {
  const socket = tmuxSocket(options.env);
  const session = sessionName(config);
  const opened = await openWindow(config, options);
  if (opened.running !== null) throw alreadyRunning(config, { pid: opened.running, host: hostname() }, options.commands);
  if (opened.note !== null) options.say(`swarm: ${opened.note}\n`);
  const deadline = Date.now() + START_DEADLINE_MS;
  let screen: string[] = [];
  let pane: WindowLook['pane'] = { dead: false, status: null };
  for (;;) {
    const started = readStarted(config) !== null;
    // A tmux that does not answer this once (busy, slow) is asked again; only a window gone counts.
    pane = await runTmux(socket, dashboardPaneState(session)).then(parseDashboardPane, (error: unknown) => (isGoneError(error) ? null : pane));
    if (pane !== null) screen = await runTmux(socket, capturePane(dashboardTarget(session))).catch(() => screen);
    const verdict = judgeStart({ started, pane, screen, holding: liveEngine(config) !== null, late: Date.now() >= deadline });
    if (verdict.kind === 'started' || verdict.kind === 'starting') return verdict.kind;
    if (verdict.kind === 'failed') {
      await runTmux(socket, killDashboard(session)).catch(() => undefined);
      const told = verdict.lines.length > 0 ? `; its last lines:\n${verdict.lines.map((l) => `  | ${l}`).join('\n')}` : '';
      throw new SwarmError(`swarm up --detach: window 0 of tmux session ${session} did not start: ${verdict.why}${told}`, {
        exitCode: verdict.code,
        hint: `its window is closed; fix what it says and run \`swarm up --detach\` again (\`swarm up\` on a terminal shows the engine as it starts; \`${options.commands.down}\` stops any pane it started)`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
