/**
 * A process's facts read from /proc (Linux): what core/process/procStat.ts parses. Where /proc is missing
 * (or the process is gone, or another user's), null.
 */
import { readFileSync } from 'node:fs';
import { parseProcStat, type ProcessId, type ProcStat } from '../core/process/procStat.js';

export function readStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** This process as /proc knows it (null without /proc). */
export function ownProcess(): ProcessId | null {
  const stat = readStat(process.pid);
  return stat === null ? null : { pid: stat.pid, startTicks: stat.startTicks };
}
