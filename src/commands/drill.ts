/**
 * `swarm drill [--real [--only LANE,…]] [--keep]` (SPEC 8): the rehearsal of succession in a
 * temporary repository, on simulated agents or (--real) on the published Claude Code and Codex against
 * a local mock API. Prints the run's events, then the summary table (item, holds, evidence); exits 0
 * only when every item holds. With --keep the repository stays for inspection and its path is printed.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { EVIDENCE_DIR } from '../drill/checks.js';
import { runDrill } from '../drill/drill.js';
import { runRealDrill } from '../drill/real.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = 'usage: swarm drill [--real [--only LANE,…]] [--keep]';

export async function drill(io: CommandIO): Promise<number> {
  let keep = false;
  let real = false;
  let only: string[] = [];
  try {
    const { values, positionals } = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { keep: { type: 'boolean' }, real: { type: 'boolean' }, only: { type: 'string' } } });
    if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]!}"`);
    keep = values.keep === true;
    real = values.real === true;
    only = (values.only ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (only.length > 0 && !real) throw new Error('--only goes with --real');
  } catch (error) {
    throw new UsageError(`swarm drill: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const log = (line: string) => io.stdout(`${line}\n`);
  const result = real ? await runRealDrill({ env: io.env, keep, log, only }) : await runDrill({ env: io.env, keep, log });
  io.stdout(`\n${result.table}\n`);
  if (result.kept) {
    io.stdout(`swarm drill: kept ${result.root}; the evidence is in ${join(result.plan, EVIDENCE_DIR)}\n`);
  } else {
    io.stdout(`swarm drill: removed ${result.root}${result.ok ? '' : '; run `swarm drill --keep` to inspect the evidence'}\n`);
  }
  io.stdout(result.ok ? 'swarm drill: every item holds\n' : `swarm drill: ${result.items.filter((i) => !i.holds).length} item(s) do not hold\n`);
  return result.ok ? 0 : 1;
}
