/**
 * The developer's answers (SPEC 10.3): `swarm answer` run outside every pane leaves one file per
 * answer in `.swarm/answers/` and holds it open until the engine has looked; the engine takes an
 * answer only while its writer is alive, holds that very file open, and runs outside every pane of
 * the swarm (runtime/answers.ts). A file written by anything else — an agent's `printf` — has no such
 * writer and counts for nobody. Taken answers move to `read/`, refused ones to `refused/` with why.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessId } from '../core/process/procStat.js';
import { planPaths } from '../core/plan/paths.js';
import { writeFileAtomic } from './files.js';
import { processNow } from './agentRegistry.js';

export interface Answer {
  kind: 'answer';
  ts: string;
  to: string;
  text: string;
  run: number | null;
  /** The `swarm answer` process that wrote it. */
  writer: ProcessId;
}

export type Offered = { taken: true } | { taken: false; why: string } | { taken: null };

/**
 * Offer an answer to the running engine and wait (real time, at most `waitMs`) for it to be taken or
 * refused; the file is held open all the while. `{ taken: null }`: nobody looked in time (the file is removed).
 */
export async function offerAnswer(plan: string, answer: Omit<Answer, 'kind' | 'writer'>, waitMs: number): Promise<Offered> {
  const dir = planPaths(plan).answersDir;
  mkdirSync(dir, { recursive: true });
  const writer = processNow(process.pid) ?? { pid: process.pid, startTicks: 0 };
  const name = `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.json`;
  const path = join(dir, name);
  // Written whole under a name the engine does not read, then renamed while held open: the engine,
  // woken by the file's creation, never reads a half-written answer and refuses it as no answer.
  const draft = `${path}.draft`;
  const fd = openSync(draft, 'wx', 0o644);
  try {
    try {
      writeSync(fd, `${JSON.stringify({ kind: 'answer', ...answer, writer } satisfies Answer)}\n`);
      renameSync(draft, path);
    } catch (error) {
      rmSync(draft, { force: true });
      throw error;
    }
    const until = Date.now() + waitMs;
    for (;;) {
      const settled = settledAs(dir, name);
      if (settled) return settled;
      if (Date.now() >= until) {
        try {
          rmSync(path);
          return { taken: null };
        } catch {
          return settledAs(dir, name) ?? { taken: null }; // taken the moment we gave up
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    closeSync(fd);
  }
}

function settledAs(dir: string, name: string): Offered | null {
  if (existsSync(join(dir, 'read', name))) return { taken: true };
  try {
    const why = (JSON.parse(readFileSync(join(dir, 'refused', name), 'utf8')) as { why?: string }).why;
    return { taken: false, why: why ?? 'refused' };
  } catch {
    return null;
  }
}

/** Answers waiting for the engine, oldest first, each with its file name; a file that is no answer is given as `null`. */
export function pendingAnswers(plan: string): { name: string; path: string; answer: Answer | null }[] {
  const dir = planPaths(plan).answersDir;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names.map((name) => ({ name, path: join(dir, name), answer: asAnswer(readText(join(dir, name))) }));
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function asAnswer(text: string | null): Answer | null {
  try {
    const v = JSON.parse(text ?? '') as Partial<Answer>;
    const w = v.writer;
    if (v.kind !== 'answer' || typeof v.to !== 'string' || typeof v.text !== 'string' || typeof v.ts !== 'string') return null;
    if (!w || !Number.isSafeInteger(w.pid) || !Number.isSafeInteger(w.startTicks)) return null;
    return { kind: 'answer', ts: v.ts, to: v.to, text: v.text, run: typeof v.run === 'number' ? v.run : null, writer: { pid: w.pid, startTicks: w.startTicks } };
  } catch {
    return null;
  }
}

/** Whether the process `writer` is alive and holds the file `path` open (its /proc fd links). */
export function holdsOpen(writer: ProcessId, path: string): boolean {
  const now = processNow(writer.pid);
  if (now === null || now.startTicks !== writer.startTicks) return false;
  try {
    return readdirSync(`/proc/${writer.pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${writer.pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Settle an answer: moved to `read/` (taken) or to `refused/` with the reason. */
export function settleAnswer(plan: string, name: string, refusal: string | null): void {
  const dir = planPaths(plan).answersDir;
  if (refusal === null) {
    mkdirSync(join(dir, 'read'), { recursive: true });
    renameSync(join(dir, name), join(dir, 'read', name));
    return;
  }
  writeFileAtomic(join(dir, 'refused', name), `${JSON.stringify({ why: refusal })}\n`, 0o644, { durable: false });
  rmSync(join(dir, name), { force: true });
}
