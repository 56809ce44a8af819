/**
 * The one place that spawns `tmux` for a single command (STYLE habit 3): always on the swarm's
 * private socket, with execa's error turned into ours and its short message kept.
 */
import { execa, ExecaError } from 'execa';
import { DependencyError, SwarmError, excerpt } from '../../errors.js';

export const TMUX_MISSING = 'tmux not found';
const TMUX_MISSING_HINT = 'install it (apt-get install tmux, brew install tmux), or set backend: pty in swarm.yaml';

/** The one "tmux not found" (exit 4): from the backend choice, the runner and the control client alike. */
export function tmuxMissing(cause?: unknown): DependencyError {
  return new DependencyError(TMUX_MISSING, { hint: TMUX_MISSING_HINT, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Every tmux call runs with `-u`: without a UTF-8 locale (cron, systemd, CI, `env -i`) tmux 3.3a replaces
 * a tab in format output with `_` (measured), which empties every tab-separated listing.
 *
 * The environment tmux gets: ours without `TMUX`, so a swarm started inside tmux is not "nested". */
export function tmuxEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && key !== 'TMUX' && key !== 'TMUX_PANE') out[key] = value;
  // A client with no terminal name is refused by some tmux builds; the control client draws nothing.
  if (!out.TERM) out.TERM = 'xterm-256color';
  return out;
}

/** tmux's own words for "that pane, session or server is not there (any more)". */
export function isGoneError(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /can't find (pane|session|window)|no server running|error connecting to|server exited|session not found|no such (pane|session)/i.test(text);
}

/**
 * How a tmux command reaches its server: as given (this machine), or wrapped whole into another
 * program's argv — `ssh … -- 'tmux -u -L … args'` for a server on another host (SPEC 10.9).
 */
export type Via = (tmuxArgv: readonly string[]) => string[];

/**
 * Run `tmux -L <socket> <args…>` and resolve with its stdout lines. `path`: the PATH of a pane this
 * command makes (tmux gives a new pane the PATH of a client attached to no session, over `-e PATH=`). A missing tmux binary is a
 * DependencyError (exit 4); any other failure is a SwarmError naming the command and tmux's answer.
 * `prefix`: a program tmux runs under (`systemd-run … --`, adapters/tmux/serverScope.ts), whose own
 * absence is a SwarmError naming it, not "tmux not found"; `via`: the server is another host's (`ssh`).
 */
export async function runTmux(socket: string, args: readonly string[], options: { bin?: string; timeoutMs?: number; path?: string; prefix?: readonly string[]; via?: Via } = {}): Promise<string[]> {
  const bin = options.bin ?? 'tmux';
  const tmuxArgv = [...(options.prefix ?? []), bin, '-u', '-L', socket, ...args];
  const [file, ...argv] = (options.via ? options.via(tmuxArgv) : tmuxArgv) as [string, ...string[]];
  try {
    const result = await execa(file, argv, {
      env: { ...tmuxEnv(), ...(options.path === undefined ? {} : { PATH: options.path }) }, extendEnv: false, stdin: 'ignore', timeout: options.timeoutMs ?? 15_000,
    });
    return result.stdout === '' ? [] : result.stdout.split('\n');
  } catch (error) {
    if (file !== bin && error instanceof ExecaError && error.code === 'ENOENT') {
      throw new SwarmError(`${file} not found: tmux ${args[0] ?? ''} could not be run under it`, { cause: error, hint: 'put it on PATH, or start tmux without it' });
    }
    throw toSwarmError(error, bin, args);
  }
}

/**
 * Run a tmux client whose exit code is the answer, never a throw: one that takes this terminal
 * (`attach-session`, `terminal: true`) or one that acts on the client a key came from
 * (`detach-client`, which finds it by `TMUX`). `env` goes to tmux exactly as given: pass
 * tmuxEnv(env) to attach from inside another tmux session. A missing tmux is still tmuxMissing.
 */
export async function runTmuxClient(socket: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; terminal?: boolean }): Promise<number> {
  const result = await execa('tmux', ['-u', '-L', socket, ...args], {
    env: options.env, extendEnv: false, reject: false, ...(options.terminal ? { stdio: 'inherit' as const } : { stdin: 'ignore' as const }),
  });
  if (result.code === 'ENOENT') throw tmuxMissing(result);
  return result.exitCode ?? 1;
}

function toSwarmError(error: unknown, bin: string, args: readonly string[]): SwarmError {
  if (error instanceof ExecaError) {
    if (error.code === 'ENOENT') return tmuxMissing(error);
    const said = String(error.stderr ?? '').trim();
    const short = excerpt(error.shortMessage, 300);
    const message = said === '' ? short : `tmux ${args[0] ?? ''}: ${excerpt(said, 200)} (${short})`;
    return new SwarmError(message, { cause: error });
  }
  return new SwarmError(`${bin} ${args[0] ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/**
 * `tmux -u ARGS` for another engine (the host relay runs its engine's tmux commands there: SPEC 10.9),
 * its socket among ARGS: never a throw, its exit code (null: it did not run, or ran out of time) and
 * output as they came. This process's environment less TMUX, with a terminal name.
 */
export async function runTmuxHere(args: readonly string[], timeoutMs = 15_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const result = await execa('tmux', ['-u', ...args], { env: tmuxEnv(), extendEnv: false, stdin: 'ignore', reject: false, timeout: timeoutMs, stripFinalNewline: false });
  const stderr = String(result.stderr ?? '');
  return { code: result.timedOut || result.exitCode === undefined ? null : result.exitCode, stdout: String(result.stdout ?? ''), stderr: result.code === 'ENOENT' ? `${stderr}tmux not found` : stderr };
}
