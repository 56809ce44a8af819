/**
 * The faults of a chaos run that reach past `swarm up` itself: plan files made immutable (chattr +i:
 * we run as root, so a file's mode would not stop a write) and undone, and the agent processes a
 * killed tmux server must take with it. Only the run's own files and processes are touched.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The path a refusal of `target` freezes, in the plan folder `plan`. */
export function refusalPath(plan, target) {
  if (target === 'journal') return join(plan, 'journal.jsonl');
  if (target === 'state') return join(plan, '.swarm', 'state.json');
  return join(plan, '.swarm');
}

/** `chattr +i|-i path`: true when it took. */
export function chattr(flag, path) {
  try {
    execFileSync('chattr', [flag, path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A file's text, or null for a folder or a missing file. */
export function textOf(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The start time (ticks since boot) of a process, or null once it is gone: a pid is reused. */
function startOf(pid) {
  const stat = textOf(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).trim().split(/\s+/)[19] ?? null;
}

/** The agent panes' processes as they are now: { lane, generation, pid, start }. */
export function processesOf(panes) {
  return panes.map((p) => ({ ...p, start: startOf(p.pid) })).filter((p) => p.start !== null);
}

/** Those of `processes` still alive (the same pid with the same start time). */
export function survivors(processes) {
  return processes.filter((p) => existsSync(`/proc/${p.pid}`) && startOf(p.pid) === p.start);
}

/** Kill -9 each of `processes` still alive: agents a killed tmux server should have taken along. */
export function killSurvivors(processes) {
  for (const p of survivors(processes)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** Mount a small tmpfs on `dir` (made if missing): true when it took (we run as root). */
export function mountTmpfs(dir, size = '8m') {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Unmount `dir` (lazily: a process may still hold a file there). */
export function unmount(dir) {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  } catch {
    // not mounted
  }
}

const FILLER = '.chaos-filler';

/** Fill the file system of `dir` to its last byte with one file. */
export function fillDisk(dir) {
  const fd = openSync(join(dir, FILLER), 'a');
  try {
    for (const size of [1 << 16, 4096, 1]) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size, 0x2e));
      } catch {
        // full at this grain: a finer one next
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Free what fillDisk took. */
export function freeDisk(dir) {
  rmSync(join(dir, FILLER), { force: true });
}
