/** The plan's journal file (SPEC 7). */
import { planPaths } from '../core/paths.js';
import { journalLine, parseJournal, type JournalEntry, type JournalType } from '../core/journal.js';
import { appendLine, readTextIfExists } from './files.js';

export interface JournalInput {
  type: JournalType;
  event: string;
  lane?: string | null;
  generation?: number | null;
  epoch?: number | null;
  [key: string]: unknown;
}

/** Append one entry (single write); `ts` defaults to now. */
export function appendJournal(planDir: string, input: JournalInput, now: Date = new Date()): JournalEntry {
  const entry: JournalEntry = {
    ts: now.toISOString(),
    ...input,
    lane: input.lane ?? null,
    generation: input.generation ?? null,
    epoch: input.epoch ?? null,
  };
  appendLine(planPaths(planDir).journal, journalLine(entry));
  return entry;
}

export function readJournal(planDir: string): JournalEntry[] {
  return parseJournal(readTextIfExists(planPaths(planDir).journal) ?? '');
}
