/**
 * A line of /proc/<pid>/stat (proc(5)): the facts that identify a process across a pid's reuse.
 * The command sits in parentheses and may hold spaces and parentheses itself, so the fields are read
 * after the last `)`. Pure.
 */

/** What identifies a process across a pid's reuse. */
export interface ProcessId { pid: number; startTicks: number }

export interface ProcStat {
  pid: number;
  /** The command's name (at most 15 bytes: `tmux: server`, `node`). */
  comm: string;
  /** R, S, D, Z (a zombie: exited, not yet reaped), … */
  state: string;
  /** Its parent. */
  ppid: number;
  /** Its process group. */
  pgrp: number;
  /** Its controlling terminal's device number (0: none). */
  ttyNr: number;
  /** When it started: clock ticks since boot (field 22); a reused pid has another. */
  startTicks: number;
}

/** The stat line's facts, or null when it is not one. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf(' (');
  const close = text.lastIndexOf(')');
  if (open <= 0 || close < open) return null;
  const pid = Number(text.slice(0, open));
  // Fields from 3 (state) on; field n is at index n - 3.
  const fields = text.slice(close + 1).trim().split(/\s+/);
  const state = fields[0] ?? '';
  const [ppid, pgrp, ttyNr, startTicks] = [fields[1], fields[2], fields[4], fields[19]].map((f) => (f === undefined ? NaN : Number(f)));
  if (!Number.isSafeInteger(pid) || pid <= 0 || !/^[A-Za-z]$/.test(state)) return null;
  if (![ppid, pgrp, ttyNr, startTicks].every((n) => Number.isSafeInteger(n))) return null;
  return { pid, comm: text.slice(open + 2, close), state, ppid: ppid!, pgrp: pgrp!, ttyNr: ttyNr!, startTicks: startTicks! };
}

/**
 * Whether `now` (the pid's stat read now) is still the process first seen as `then`. A zombie still
 * is: its pid (and so its process group's id) is not given to another process until it is reaped.
 */
export function sameProcess(then: ProcessId, now: ProcStat | null): boolean {
  return now !== null && now.pid === then.pid && now.startTicks === then.startTicks;
}

/** Whether the process has ended (gone, a zombie, or the pid now another's). */
export function ended(then: ProcessId, now: ProcStat | null): boolean {
  return !sameProcess(then, now) || now === null || now.state === 'Z' || now.state === 'X';
}
