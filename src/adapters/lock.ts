/**
 * Exclusive lock files (O_EXCL) naming their holder: a process (pid and its start time), not a bare
 * pid, and its host. A lock whose holder is dead on this host is taken over; a pid now used by
 * another process (another start time) is a dead holder. Used for the plan lock of `swarm up` and
 * short read-modify-write sections (the lead record's compare-and-swap).
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { sameProcess } from '../core/process/procStat.js';
import { ownProcess, readStat } from './procStatFile.js';

export interface LockHolder {
  pid: number;
  /** The holder's start time (clock ticks since boot); null where /proc is missing or in a lock written without it. */
  startTicks: number | null;
  host: string;
  since: string;
  purpose: string;
}

export type LockResult = { ok: true; release: () => void } | { ok: false; holder: LockHolder | null };

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readHolder(path: string): LockHolder | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return null;
    const startTicks = typeof value.startTicks === 'number' ? value.startTicks : null;
    return { pid: value.pid, startTicks, host: value.host, since: String(value.since ?? ''), purpose: String(value.purpose ?? '') };
  } catch {
    return null;
  }
}

const TORN_LOCK_MS = 10_000;

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether the holder (on this host) still runs: its pid alive and, where its start time is known, still that process. */
export function holderAlive(holder: Pick<LockHolder, 'pid' | 'startTicks'>): boolean {
  if (!pidAlive(holder.pid)) return false;
  if (holder.startTicks === null) return true;
  const now = readStat(holder.pid);
  return now === null ? readStat(process.pid) === null : sameProcess({ pid: holder.pid, startTicks: holder.startTicks }, now);
}

/** The lock's holder when it is a live process of this host (that very process: pid and start time), else null. */
export function liveHolder(path: string): LockHolder | null {
  const holder = readHolder(path);
  return holder && holder.host === hostname() && holderAlive(holder) ? holder : null;
}

function isStale(holder: LockHolder | null): boolean {
  return holder !== null && holder.host === hostname() && !holderAlive(holder);
}

/** Try once; take over a dead holder's lock. */
export function tryLock(path: string, purpose: string): LockResult {
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const me: LockHolder = { pid: process.pid, startTicks: ownProcess()?.startTicks ?? null, host: hostname(), since: new Date().toISOString(), purpose };
    try {
      const fd = openSync(path, 'wx', 0o644);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return { ok: true, release: () => releaseIfMine(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    // A holder killed between creating the file and writing it leaves it empty: stale after a while.
    const torn = holder === null && ageMs(path) > TORN_LOCK_MS;
    if (!isStale(holder) && !torn) return { ok: false, holder };
    // Move the dead holder's file aside; if what we moved was not the one we judged dead
    // (someone else took over in between), put it back.
    const aside = `${path}.stale.${process.pid}`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    const moved = readHolder(aside);
    if ((moved && holder && moved.pid === holder.pid && moved.since === holder.since) || (torn && moved === null)) unlinkSync(aside);
    else renameSync(aside, path);
  }
  return { ok: false, holder: readHolder(path) };
}

function releaseIfMine(path: string): void {
  const holder = readHolder(path);
  if (holder && holder.pid === process.pid && holder.host === hostname()) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
}

/** Run `fn` holding the lock, waiting up to `timeoutMs` for a live holder to finish. */
export function withLock<T>(path: string, purpose: string, fn: () => T, timeoutMs = 5000): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = tryLock(path, purpose);
    if (result.ok) {
      try {
        return fn();
      } finally {
        result.release();
      }
    }
    if (Date.now() >= deadline) {
      const who = result.holder ? `pid ${result.holder.pid} on ${result.holder.host} (${result.holder.purpose})` : 'an unknown holder';
      throw new Error(`${path} is locked by ${who}`);
    }
    sleepSync(5 + Math.random() * 10);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
