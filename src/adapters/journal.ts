/** The plan's journal file (SPEC 7). */
import { planPaths } from '../core/plan/paths.js';
import { journalLine, parseJournal, type JournalEntry, type JournalType } from '../core/protocol/journal.js';
import { closeSync, openSync, readSync, statSync, watch } from 'node:fs';
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
