/** `swarm report [file]` (SPEC 7): the completion report, from the journal (no engine needed). */
import { relative } from 'node:path';
import { buildReport } from '../core/report.js';
import { UsageError } from '../errors.js';
import { readJournal } from '../adapters/journal.js';
import { resolvePlanDir, shownFrom } from './planDir.js';
import type { CommandIO } from './io.js';

export async function report(io: CommandIO): Promise<number> {
  const flags = io.args.filter((a) => a.startsWith('-'));
  if (flags.length > 0 || io.args.length > 1) throw new UsageError('usage: swarm report [file]');
  const plan = await resolvePlanDir(io, io.args[0]);
  const relativeTo = shownFrom(io, plan);
  io.stdout(buildReport(readJournal(plan), { plan: relative(relativeTo, plan), relativeTo }));
  return 0;
}
