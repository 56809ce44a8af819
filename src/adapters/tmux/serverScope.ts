/**
 * The tmux server in a systemd user scope of its own (SPEC 10.8; the decision is
 * core/host/serverScope.ts): the facts it needs, gathered here, and the one command that creates the
 * server run under `systemd-run` when it says so. A `systemd-run` that fails (no user bus, say) costs
 * the swarm nothing: tmux is started plainly and a note says so.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { scopeUnit, serverScope, type ScopeFacts } from '../../core/host/serverScope.js';
import { excerpt } from '../../errors.js';
import { findOnPath } from '../which.js';
import { hasSession, listSessions } from './argv.js';
import { runTmux, type Via } from './runner.js';

export interface ScopeOptions {
  /** The folder `run/systemd/system` and `var/lib/systemd/linger/` are looked for in; default `/`. */
  root?: string;
  /** The environment whose PATH finds `systemd-run` and `loginctl`; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** Whose lingering counts; default the user this process runs as. */
  user?: string;
  /** The unit name's unique part; default random. */
  unique?: string;
}

/** What starting the session did: the server made in a scope, or not, and what to tell of it (a fallback), once. */
export interface ServerStart {
  scoped: boolean;
  note: string | null;
}

/** The facts of this machine for the swarm's session `session`. */
export async function scopeFacts(session: string, options: ScopeOptions = {}): Promise<ScopeFacts> {
  const root = options.root ?? '/';
  const env = options.env ?? process.env;
  const user = options.user ?? currentUser();
  return {
    systemdRuns: existsSync(join(root, 'run', 'systemd', 'system')),
    lingers: await lingers(user, root, env),
    systemdRun: findOnPath('systemd-run', env),
    user,
    unit: scopeUnit(session, options.unique ?? randomBytes(4).toString('hex')),
  };
}

/**
 * Run `args`, a `new-session` of `session`, on the swarm's socket. Only when no server runs there yet
 * (it is the command that creates the server) and the facts say so, under `systemd-run`; when that
 * fails and made no session, plainly again. A failure that left the session there (another swarm made
 * it meanwhile) is thrown, for the caller to judge as it would a plain one.
 */
export async function newScopedSession(socket: string, session: string, args: readonly string[], options: { bin?: string; scope?: ScopeOptions; via?: Via } = {}): Promise<ServerStart> {
  const bin = { ...(options.bin === undefined ? {} : { bin: options.bin }), ...(options.via === undefined ? {} : { via: options.via }) };
  const plain = async (note: string | null): Promise<ServerStart> => {
    await runTmux(socket, args, bin);
    return { scoped: false, note };
  };
  if (await runTmux(socket, listSessions(), bin).then(() => true, () => false)) return plain(null); // a server runs: it is not made here
  if (options.via !== undefined) return plain(null); // another host's server: its systemd is not this machine's to ask
  const { argvPrefix } = serverScope(await scopeFacts(session, options.scope));
  if (argvPrefix === null) return plain(null);
  try {
    await runTmux(socket, args, { ...bin, prefix: argvPrefix });
    return { scoped: true, note: null };
  } catch (error) {
    if (await runTmux(socket, hasSession(session), bin).then(() => true, () => false)) throw error;
    const said = excerpt(error instanceof Error ? error.message : String(error), 300);
    return plain(`${argvPrefix[0] ?? 'systemd-run'} failed (${said}): the tmux server was started plainly, so a logout may end it — check that \`systemd-run --user --scope true\` works (the user's systemd manager runs, XDG_RUNTIME_DIR is set)`);
  }
}

/** loginctl's answer (a short timeout), else the linger file, else null when neither can tell. */
async function lingers(user: string, root: string, env: NodeJS.ProcessEnv): Promise<boolean | null> {
  const loginctl = findOnPath('loginctl', env);
  if (loginctl !== null) {
    const said = await execa(loginctl, ['show-user', user, '--property=Linger', '--value'], { env, extendEnv: false, stdin: 'ignore', timeout: 3000, reject: false });
    const value = said.exitCode === 0 ? String(said.stdout).trim() : '';
    if (value === 'yes' || value === 'no') return value === 'yes';
  }
  // loginctl missing, or silent (it fails for a user with no session who does not linger): logind's own files.
  const folder = join(root, 'var', 'lib', 'systemd', 'linger');
  if (existsSync(join(folder, user))) return true;
  return existsSync(folder) ? false : null;
}

/** The user's name; its uid where it has no name (loginctl takes either). */
function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'unknown');
  }
}
