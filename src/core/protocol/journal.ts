/**
 * The journal (SPEC 7): one JSON object a line, the record of the swarm for people.
 * Pure: entries, their lines, and their one-line rendering for `swarm journal` and the headless log.
 */
import { gluedObject } from './tornLines.js';

export type JournalType = 'delegation' | 'observation' | 'intervention';

export interface JournalEntry {
  ts: string;
  type: JournalType;
  event: string;
  lane: string | null;
  generation: number | null;
  epoch: number | null;
  [key: string]: unknown;
}

export function journalLine(entry: JournalEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/**
 * Parse journal text; malformed lines are skipped (a torn last line is not yet written), and an entry
 * glued to the bytes of a write cut short is kept (core/protocol/tornLines.ts).
 */
export function parseJournal(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const value = parseLine(trimmed) ?? gluedObject(trimmed)?.value;
    if (typeof value === 'object' && value !== null && typeof (value as JournalEntry).event === 'string') entries.push(value as JournalEntry);
  }
  return entries;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // torn or foreign line: not an entry (unless an entry is glued after it)
  }
}

const SHOWN_FIRST = ['packet', 'verdict', 'account', 'reason', 'class', 'what', 'text', 'to', 'from'];
/** Shown before the fields, or (an intent's id: for the engine's restarts) not at all. */
const HIDDEN = new Set(['ts', 'type', 'event', 'lane', 'generation', 'epoch', 'intent']);

/**
 * One grep-able line: `12:04:31 lane-a g1 handoff_reported packet=plans/demo/…yaml`.
 * Times are UTC (HH:MM:SS); values are flattened to one line with no control characters.
 */
export function formatEntry(entry: JournalEntry, options: { relativeTo?: string } = {}): string {
  const time = typeof entry.ts === 'string' && entry.ts.length >= 19 ? entry.ts.slice(11, 19) : '--:--:--';
  const who = entry.lane ? `${entry.lane}${entry.generation ? ` g${entry.generation}` : ''}` : '-';
  const keys = Object.keys(entry).filter((k) => !HIDDEN.has(k));
  keys.sort((a, b) => rank(a) - rank(b));
  const fields = keys
    .map((key) => [key, entry[key]] as const)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${show(value, options.relativeTo)}`);
  return [time, who, entry.event, ...fields].join(' ');
}

function rank(key: string): number {
  const index = SHOWN_FIRST.indexOf(key);
  return index === -1 ? SHOWN_FIRST.length : index;
}

function show(value: unknown, relativeTo: string | undefined): string {
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (relativeTo && text.startsWith(`${relativeTo}/`)) text = text.slice(relativeTo.length + 1);
  /* eslint-disable no-control-regex -- escape codes are what this strips */
  // Escape sequences go whole; any run of other control characters becomes one space.
  text = text
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b[@-_]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
  /* eslint-enable no-control-regex */
  if (/\s/.test(text)) text = JSON.stringify(text);
  const chars = [...text];
  return chars.length > 200 ? `${chars.slice(0, 199).join('')}…` : text;
}
