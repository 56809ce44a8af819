/**
 * `swarm journal [file] [--follow] [--json]` (SPEC 7): the plan's record, one grep-able line an
 * event; `--follow` keeps printing as events arrive (fs.watch, no polling).
 */
import { parseArgs } from 'node:util';
import { formatEntry, type JournalEntry } from '../core/protocol/journal.js';
import { UsageError } from '../errors.js';
import { followJournal, readJournal } from '../adapters/journal.js';
import { resolvePlanDir, shownFrom } from './planDir.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

export async function journal(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { follow: { type: 'boolean', short: 'f' }, json: { type: 'boolean' } } });
  } catch (error) {
    throw new UsageError(`swarm journal: ${argsProblem(error, 'usage: swarm journal [file] [--follow] [--json]')}`, { hint: 'usage: swarm journal [file] [--follow] [--json]' });
  }
  const { values, positionals } = parsed;
  const plan = await resolvePlanDir(io, positionals[0]);
  const relativeTo = shownFrom(io, plan);
  const print = (entry: JournalEntry) => io.stdout(values.json ? `${JSON.stringify(entry)}\n` : `${formatEntry(entry, { relativeTo })}\n`);

  if (!values.follow) {
    for (const entry of readJournal(plan)) print(entry);
    return 0;
  }
  // From the start of the file: whole lines only (a torn last line is printed once it is complete).
  const follower = followJournal(plan, 0, print);
  await new Promise<void>((done) => {
    const stop = () => {
      follower.close();
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
