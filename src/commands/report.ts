/**
 * `swarm report [file] [--run N|all] [--json] [--html [--out FILE]]` (SPEC 7, 10.2): the completion
 * report of one run (the last unless `--run`), from the plan's files (no engine needed). Text by
 * default; `--json` the facts as data; `--html` one self-contained page.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { buildReport } from '../core/report/report.js';
import { buildFacts, spendFacts } from '../core/report/facts.js';
import { pickRun, recordsOfRun, type WhichRun } from '../core/report/runs.js';
import { readJournal } from '../adapters/journal.js';
import { DEFAULT_THRESHOLDS } from '../core/capacity/thresholds.js';
import type { SwarmConfig } from '../core/config/config.js';
import { PlanFilesError, UsageError, planFilesFault } from '../errors.js';
import { writeFileAtomic } from '../adapters/files.js';
import { readReportInput, runExtras } from '../adapters/reportInput.js';
import { loadSwarmConfig, shownFrom } from './planDir.js';
import type { CommandIO } from './io.js';

const USAGE = 'usage: swarm report [file] [--run N|all] [--json] [--html [--out FILE]]';

export async function report(io: CommandIO): Promise<number> {
  const options = parseArgs(io.args);
  const config = await configOf(io, options.file);
  const fromPane = options.file === undefined && io.env.SWARM_PLAN ? resolve(io.cwd, io.env.SWARM_PLAN) : null;
  const plan = fromPane ?? config?.plan ?? io.cwd;
  const relativeTo = shownFrom(io, plan);
  const shown = relative(relativeTo, plan);
  const picked = pickRun(readJournal(plan), options.run);
  if (!picked.ok) throw new UsageError(`swarm report: ${picked.error}`, { hint: USAGE });
  const run = picked.run === 'all' ? null : (picked.runs.find((r) => r.run === picked.run) ?? null);
  const t = config?.thresholds ?? DEFAULT_THRESHOLDS;
  const input = readReportInput(plan, shown, {
    vendors: new Map((config?.accounts ?? []).map((a) => [a.id, a.vendor])),
    thresholds: { low: t.capacityLow, critical: t.capacityCritical, contextPressure: t.contextPressure },
  });
  if (!options.json && !options.html) {
    // The spend (SPEC 10.7) is the agents' usage records of the run, folded as the engine folds them.
    const spend = spendFacts({ ...input, journal: picked.entries, inbox: recordsOfRun(input.inbox, run) });
    io.stdout(buildReport(picked.entries, { plan: shown, relativeTo, run: picked.entries.length === 0 ? null : picked.run, runs: picked.runs, spend }));
    return 0;
  }
  const started = picked.entries.find((e) => e.event === 'run_started');
  const heads = started && typeof started.heads === 'object' && started.heads !== null ? (started.heads as Record<string, unknown>) : {};
  const checkouts = new Map((config?.lanes ?? []).map((l) => [l.name, l.checkout] as const));
  const extras = runExtras(plan, typeof picked.run === 'number' ? picked.run : null, heads, checkouts);
  const facts = buildFacts({ ...input, ...extras, journal: picked.entries, inbox: recordsOfRun(input.inbox, run), run: picked.entries.length === 0 ? null : picked.run, runs: picked.runs });
  if (options.json) {
    io.stdout(`${JSON.stringify(facts, null, 2)}\n`);
    return 0;
  }
  const { renderReportPage } = await import('../report/page.js');
  const out = options.out === null ? join(plan, 'analysis_results', 'report.html') : resolve(io.cwd, options.out);
  // Each generation's saved pane log is copied beside the page (`<page>-logs/`) and linked from it.
  const logsDir = `${out.replace(/\.html?$/i, '')}-logs`;
  const copied = new Map<string, string>();
  for (const r of facts.results) {
    for (const log of r.logs) {
      const name = basename(log.path);
      try {
        mkdirSync(logsDir, { recursive: true });
        copyFileSync(join(plan, log.path), join(logsDir, name));
        copied.set(log.path, `${encodeURIComponent(basename(logsDir))}/${encodeURIComponent(name)}`);
      } catch {
        // not copied: shown unlinked
      }
    }
  }
  const html = renderReportPage(facts, { relativeTo, timeZone: io.env.TZ, logHref: (path) => copied.get(path) ?? null });
  try {
    writeFileAtomic(out, html, 0o644, { durable: false });
  } catch (error) {
    throw planFilesFault(error) ?? new PlanFilesError(`cannot write ${out}: ${(error as Error).message}`, { path: out, cause: error });
  }
  io.stdout(`${relative(io.cwd, out) || out}\n`);
  return 0;
}

interface Options { file: string | undefined; json: boolean; html: boolean; out: string | null; run: WhichRun }

function parseArgs(args: readonly string[]): Options {
  const o: Options = { file: undefined, json: false, html: false, out: null, run: 'last' };
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a === '--json') o.json = true;
    else if (a === '--run' || a.startsWith('--run=')) {
      const value = (a === '--run' ? args[(i += 1)] : a.slice('--run='.length))?.trim() ?? '';
      if (value === 'all') o.run = 'all';
      else if (/^[1-9]\d*$/.test(value)) o.run = Number(value);
      else throw new UsageError(`--run takes a run number or "all", got ${value === '' ? 'nothing' : `"${value}"`}`, { hint: USAGE });
    }
    else if (a === '--html') o.html = true;
    else if (a === '--out' || a.startsWith('--out=')) {
      const value = a === '--out' ? args[(i += 1)] : a.slice('--out='.length);
      if (!value) throw new UsageError('--out needs a file: swarm report --html --out report.html', { hint: USAGE });
      o.out = value;
    } else if (a.startsWith('-') || o.file !== undefined) throw new UsageError(`unexpected argument "${a}"`, { hint: USAGE });
    else o.file = a;
  }
  if (o.json && o.html) throw new UsageError('--json and --html are two outputs: pick one', { hint: USAGE });
  if (o.out !== null && !o.html) throw new UsageError('--out goes with --html', { hint: USAGE });
  return o;
}

/** The swarm file given, else swarm.yaml here; inside a pane ($SWARM_PLAN) the plan's swarm file when $SWARM_CONFIG names one. */
async function configOf(io: CommandIO, file: string | undefined): Promise<SwarmConfig | null> {
  if (file === undefined && io.env.SWARM_PLAN) {
    const named = io.env.SWARM_CONFIG;
    if (!named || !existsSync(named)) return null;
    try {
      return await loadSwarmConfig(io, named);
    } catch {
      return null; // the report still reads from the plan; only vendors and thresholds are then unknown/defaults
    }
  }
  return loadSwarmConfig(io, file);
}
