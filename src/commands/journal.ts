/**
 * `swarm journal [file] [--follow] [--json]` (SPEC 7): the plan's record, one grep-able line an
 * event; `--follow` keeps printing as events arrive (fs.watch, no polling).
 */
import { parseArgs } from 'node:util';
import { closeSync, openSync, readSync, statSync, watch } from 'node:fs';
import { dirname, basename } from 'node:path';
import { formatEntry, parseJournal, type JournalEntry } from '../core/journal.js';
import { planPaths } from '../core/paths.js';
import { UsageError } from '../errors.js';
import { resolvePlanDir, shownFrom } from './planDir.js';
import type { CommandIO } from './io.js';

export async function journal(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { follow: { type: 'boolean', short: 'f' }, json: { type: 'boolean' } } });
  } catch (error) {
    throw new UsageError(`swarm journal: ${(error as Error).message}`, { hint: 'usage: swarm journal [file] [--follow] [--json]' });
  }
  const { values, positionals } = parsed;
  const plan = await resolvePlanDir(io, positionals[0]);
  const path = planPaths(plan).journal;
  const print = (entry: JournalEntry) => io.stdout(values.json ? `${JSON.stringify(entry)}\n` : `${formatEntry(entry, { relativeTo: shownFrom(io, plan) })}\n`);

  let offset = 0;
  const drain = () => {
    const { text, next } = readFrom(path, offset);
    // Only whole lines: a torn last line is read again when it is complete.
    const end = text.lastIndexOf('\n') + 1;
    offset = next - Buffer.byteLength(text.slice(end));
    for (const entry of parseJournal(text.slice(0, end))) print(entry);
  };
  drain();
  if (!values.follow) return 0;

  await new Promise<void>((done) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === null || name === basename(path)) drain();
    });
    const stop = () => {
      watcher.close();
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

function readFrom(path: string, offset: number): { text: string; next: number } {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return { text: '', next: offset };
  }
  if (size < offset) offset = 0; // replaced or truncated: start over
  if (size === offset) return { text: '', next: offset };
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(size - offset);
    const n = readSync(fd, bytes, 0, bytes.length, offset);
    return { text: bytes.subarray(0, n).toString('utf8'), next: offset + n };
  } finally {
    closeSync(fd);
  }
}
