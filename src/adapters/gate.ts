/**
 * Run a lane's `done_when` gate in its checkout: pass or fail, with the output kept. A gate runs in a
 * process group of its own (`sh -c` and all it starts), known by its pid and start time, so a later
 * swarm can end that very group, never a process that reused the pid (endGate); its environment
 * names its run (SWARM_GATE), so a run killed before its process was recorded is found too (findGate).
 * Groups still running when this process exits are ended with it; a SIGKILLed swarm leaves them to
 * its restart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { spokenDuration } from '../core/config/duration.js';
import { ended, sameProcess, type ProcessId } from '../core/process/procStat.js';
import { childProcess } from './childProcess.js';
import { readStat } from './procStatFile.js';

export interface GateResult { passed: boolean; output: string }
/** A gate started: its process (null where /proc is missing: it cannot be told apart later) and its result. */
export interface RunningGate { process: ProcessId | null; result: Promise<GateResult> }

const KEEP_CHARS = 8000;
const FORCE_AFTER_MS = 5000;
/** Leaders of the gate groups this process started and that have not exited. */
const running = new Set<number>();
let endOnExit = false;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

/** The variable naming a gate's run in its environment (and its children's). */
export const GATE_VARIABLE = 'SWARM_GATE';

/** What names a gate's run (its `SWARM_GATE`): the plan folder and the run_gate intent's id. */
export const gateRun = (plan: string, id: string): string => `${plan}#${id}`;

/**
 * The leader of the gate group whose environment names `run` (`SWARM_GATE=<run>`), started by an
 * earlier swarm; null when none runs (or /proc is missing). Only this user's processes are readable.
 */
export function findGate(run: string): ProcessId | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const entry = `${GATE_VARIABLE}=${run}`;
  for (const name of pids) {
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(entry)) continue;
    } catch {
      continue; // gone, or another user's
    }
    const stat = readStat(Number(name));
    if (stat !== null && stat.pgrp === stat.pid && stat.state !== 'Z') return { pid: stat.pid, startTicks: stat.startTicks };
  }
  return null;
}

/**
 * A gate of a lane on another host (SPEC 10.9): the argv that runs it in its checkout there (`ssh …`),
 * and a folder of this machine to start that in. The ssh process is the gate here: its end is the
 * gate's, its exit status the command's, and it is what a later engine finds and ends.
 */
export interface GateThere { argv: string[]; cwd: string }

/** Start `command` in `cwd` as the leader of a process group of its own; `run` names it in its environment. */
export function startGate(command: string, cwd: string, env: NodeJS.ProcessEnv, run: string, timeoutMs = 10 * 60_000, there: GateThere | null = null): RunningGate {
  if (!endOnExit) process.once('exit', () => { for (const pid of running) signalGroup(pid, 'SIGTERM'); });
  endOnExit = true;
  const [file, ...args] = (there?.argv ?? ['sh', '-c', command]) as [string, ...string[]];
  const child = childProcess().spawn(file, args, { cwd: there?.cwd ?? cwd, env: { ...env, [GATE_VARIABLE]: run }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  const stat = pid === undefined ? null : readStat(pid); // not reaped before this turn ends: still the gate's
  if (pid !== undefined) running.add(pid);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (output = (output + chunk).slice(-2 * KEEP_CHARS)));
  }
  const result = new Promise<GateResult>((resolve) => {
    let timedOut = false;
    const force: NodeJS.Timeout[] = [];
    // Until the leader exits its pid is ours; after, the group's id stays reserved while a member lives.
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid === undefined) return;
      signalGroup(pid, 'SIGTERM');
      force.push(setTimeout(() => signalGroup(pid, 'SIGKILL'), FORCE_AFTER_MS));
    }, timeoutMs);
    const done = (gate: GateResult) => {
      clearTimeout(timer);
      for (const t of force) clearTimeout(t);
      resolve(gate);
    };
    child.on('exit', () => {
      if (pid !== undefined) running.delete(pid);
    });
    child.on('error', (error) => done({ passed: false, output: `the gate did not start: ${error.message}` }));
    child.on('close', (code) => {
      const text = output.replace(/\r?\n$/, '').slice(-KEEP_CHARS);
      if (timedOut) done({ passed: false, output: `${text}\n(gate timed out after ${spokenDuration(timeoutMs)})` });
      else done({ passed: code === 0, output: text });
    });
  });
  return { process: stat === null ? null : { pid: stat.pid, startTicks: stat.startTicks }, result };
}

/** What ending an earlier gate found: it was still running (and is ended now), it was gone, or its pid is another process's. */
export type EndedGate = 'ended' | 'gone' | 'another process';

/**
 * End the process group of an earlier gate (one a killed swarm left running), only while its leader
 * is still that very process (pid and start time): SIGTERM, then SIGKILL after `graceMs`.
 */
export async function endGate(gate: ProcessId, graceMs = 3000): Promise<EndedGate> {
  const now = readStat(gate.pid);
  if (now === null) return 'gone';
  if (!sameProcess(gate, now) || now.pgrp !== gate.pid) return 'another process';
  if (now.state === 'Z') return 'gone';
  signalGroup(gate.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (!ended(gate, readStat(gate.pid)) && Date.now() < deadline) await sleep(25);
  if (sameProcess(gate, readStat(gate.pid))) signalGroup(gate.pid, 'SIGKILL'); // a zombie leader still holds the group's id
  return 'ended';
}
