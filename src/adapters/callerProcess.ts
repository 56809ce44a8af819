/**
 * The facts core/process/paneCaller.ts decides on, read from /proc (Linux) and from tmux: the caller's
 * ancestors and terminals, the swarm's tmux server and panes. Reads only; never starts a tmux server
 * (`display` and `list-panes` fail when none runs). Where /proc is missing, those facts are empty.
 */
import { fstatSync, readFileSync, statSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { CallerFacts, SwarmProcesses } from '../core/process/paneCaller.js';
import { readStat } from './procStatFile.js';
import { runTmux } from './tmux/runner.js';


/** A process (default: this one) and its ancestors, up to pid 1 (at most 200, against a loop), and its terminals. */
export function callerFacts(pid: number = process.pid): CallerFacts {
  const ancestors: number[] = [];
  for (let at = pid; at > 1 && ancestors.length < 200; ) {
    ancestors.push(at);
    const stat = readStat(at);
    if (!stat) break;
    at = stat.ppid;
  }
  const ttys = new Set<number>();
  const own = readStat(pid)?.ttyNr ?? 0;
  if (own > 0) ttys.add(own);
  for (const fd of [0, 1, 2]) {
    try {
      if (pid === process.pid ? isatty(fd) : statSync(`/proc/${pid}/fd/${fd}`).isCharacterDevice()) {
        ttys.add(Number(pid === process.pid ? fstatSync(fd).rdev : statSync(`/proc/${pid}/fd/${fd}`).rdev));
      }
    } catch {
      // a closed descriptor
    }
  }
  return { ancestors, ttys: [...ttys] };
}

/** The tmux socket name (`-L`) an ancestor tmux server was started with ('default' without one). */
export function tmuxSocketsOf(pids: readonly number[]): string[] {
  const sockets: string[] = [];
  for (const pid of pids) {
    if (readStat(pid)?.comm !== 'tmux: server') continue;
    const args = readNul(`/proc/${pid}/cmdline`);
    const at = args.indexOf('-L');
    if (!args.includes('-S')) sockets.push(at >= 0 && args[at + 1] ? args[at + 1]! : 'default');
  }
  return sockets;
}

/** One variable of a process's environment as it started (null when unreadable or unset). */
export function processEnv(pid: number, name: string): string | null {
  const entry = readNul(`/proc/${pid}/environ`).find((e) => e.startsWith(`${name}=`));
  return entry === undefined ? null : entry.slice(name.length + 1);
}

/** A process's argv as it started (empty when unreadable). */
export function processArgv(pid: number): string[] {
  return readNul(`/proc/${pid}/cmdline`);
}

function readNul(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The server on `socket`, when it runs and (if `session` is given) hosts that session: its pid and panes. */
export async function tmuxServer(socket: string, session: string | null): Promise<Omit<SwarmProcesses, 'engine'> | null> {
  try {
    if (session !== null) await runTmux(socket, ['has-session', '-t', `=${session}`], { timeoutMs: 5000 });
    const [pid] = await runTmux(socket, ['display-message', '-p', '#{pid}'], { timeoutMs: 5000 });
    const rows = await runTmux(socket, ['list-panes', '-a', '-F', '#{pane_pid} #{pane_tty}'], { timeoutMs: 5000 });
    const panes = rows.map((row) => {
      const [panePid, ttyPath = ''] = row.split(' ');
      return { pid: Number(panePid), tty: deviceOf(ttyPath), ttyPath };
    });
    return { servers: [Number(pid)], panes };
  } catch {
    return null;
  }
}

function deviceOf(path: string): number | null {
  try {
    return Number(statSync(path).rdev);
  } catch {
    return null;
  }
}
