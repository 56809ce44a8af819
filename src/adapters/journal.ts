/** The plan's journal file (SPEC 7). */
import { planPaths } from '../core/plan/paths.js';
import { journalLine, parseJournal, type JournalEntry, type JournalType } from '../core/protocol/journal.js';
import { closeSync, fstatSync, openSync, readSync, statSync, watch } from 'node:fs';
import { basename } from 'node:path';
import { appendLine, readTextIfExists } from './files.js';

export interface JournalInput {
  type: JournalType;
  event: string;
  lane?: string | null;
  generation?: number | null;
  epoch?: number | null;
  [key: string]: unknown;
}

/** The entry an input becomes at `now`. */
export function journalEntry(input: JournalInput, now: Date = new Date()): JournalEntry {
  return { ts: now.toISOString(), ...input, lane: input.lane ?? null, generation: input.generation ?? null, epoch: input.epoch ?? null };
}

/** Append one entry (single write); `ts` defaults to now. */
export function appendJournal(planDir: string, input: JournalInput, now: Date = new Date()): JournalEntry {
  const entry = journalEntry(input, now);
  appendLine(planPaths(planDir).journal, journalLine(entry));
  return entry;
}

/** How far back from the journal's end a restart looks for the lines its killed predecessor wrote. */
const INTENT_TAIL_BYTES = 1 << 20;

/**
 * The intent ids (`intent`) of the lines at the journal's end: a restarted engine does not write the
 * line of an intent it finds there again (runtime/engine.ts).
 */
export function journaledIntents(planDir: string): Set<string> {
  let fd: number;
  try {
    fd = openSync(planPaths(planDir).journal, 'r');
  } catch {
    return new Set();
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - INTENT_TAIL_BYTES);
    const bytes = Buffer.alloc(size - start);
    for (let got = 0; got < bytes.length; ) {
      const n = readSync(fd, bytes, got, bytes.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const text = bytes.toString('utf8');
    const whole = start === 0 ? text : text.slice(text.indexOf('\n') + 1); // the first line may be cut
    return new Set(parseJournal(whole).flatMap((entry) => (typeof entry.intent === 'string' ? [entry.intent] : [])));
  } finally {
    closeSync(fd);
  }
}

export function readJournal(planDir: string): JournalEntry[] {
  return parseJournal(readTextIfExists(planPaths(planDir).journal) ?? '');
}

/**
 * Follow the journal from `offset` (bytes): every whole line appended after it, by this process or any
 * other (`swarm lead handover`, a fenced `swarm notify`), is handed to `onEntry`. Driven by fs.watch on
 * the plan folder; a torn last line waits until it is whole.
 */
export function followJournal(planDir: string, offset: number, onEntry: (entry: JournalEntry) => void): { close: () => void; drain: () => void } {
  const path = planPaths(planDir).journal;
  let at = offset;
  const drain = () => {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return;
    }
    if (size < at) at = 0;
    if (size === at) return;
    const fd = openSync(path, 'r');
    try {
      const bytes = Buffer.alloc(size - at);
      const n = readSync(fd, bytes, 0, bytes.length, at);
      const text = bytes.subarray(0, n).toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      at += Buffer.byteLength(text.slice(0, end));
      for (const entry of parseJournal(text.slice(0, end))) onEntry(entry);
    } finally {
      closeSync(fd);
    }
  };
  const watcher = watch(planDir, (_event, name) => {
    if (name === null || name === basename(path)) drain();
  });
  drain();
  return { close: () => watcher.close(), drain };
}

/** The journal's size now: where a follower starts to see only what comes next. */
export function journalSize(planDir: string): number {
  try {
    return statSync(planPaths(planDir).journal).size;
  } catch {
    return 0;
  }
}
