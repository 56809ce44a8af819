/**
 * `swarm drill` (SPEC 8), the rehearsal: in a temporary git repository, a lead and four lanes on
 * simulated accounts of two vendors run a small plan with the engine in this process, on a private
 * tmux socket (or embedded pseudo-terminals). One lane's account is capped, so it hands off and its
 * successor passes the gates; the lead's account runs low, so it hands over and the new lead
 * finishes the plan; lane-d waits for lane-b, and lane-c is done only once a reviewer of another
 * vendor approves (SPEC 10.6). The evidence lands in the plan's `analysis_results/drill/`.
 *
 * Decisions where SPEC 8 is silent:
 * - The engine gets a clean environment: no SWARM_*, AGENTKIT_* or SIM_* of the caller's, and no
 *   `ak` on PATH (it would answer for a real account, not a simulated one).
 * - Without --keep the repository is removed even when an item fails; the table says which, and
 *   `--keep` keeps the evidence for a look.
 * - A run that has not finished after `deadlineMs` (default 120 s) stops short and fails the drill.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { SwarmConfig } from '../core/config/config.js';
import { formatEntry, type JournalEntry } from '../core/protocol/journal.js';
import { findOnPath } from '../adapters/which.js';
import { loadConfig } from '../adapters/configFile.js';
import { writeFileAtomic } from '../adapters/files.js';
import { killServer } from '../adapters/tmux/argv.js';
import { runTmux } from '../adapters/tmux/runner.js';
import { drillItems, EVIDENCE_DIR, type DrillItem, type PaneText } from './checks.js';
import { asksDoc, epochsDoc, gatesDoc, keysDoc, orderAndReviewDoc, packetsDoc, spendDoc, summaryDoc, summaryTable } from './docs.js';
import { configFacts, keepScreens, readFacts } from './facts.js';
import { DRILL_CAPPED, drillSpec, writeSimRepo } from './repo.js';
import { startSwarm, type Outcome } from '../runtime/swarm.js';

export interface DrillOptions {
  env: NodeJS.ProcessEnv;
  keep: boolean;
  /** Lines for the terminal: where the drill runs, then one line per event. */
  log: (line: string) => void;
  deadlineMs?: number;
}

export interface DrillResult {
  ok: boolean;
  items: DrillItem[];
  /** The summary table as printed. */
  table: string;
  /** The temporary folder (removed unless kept) and the plan inside it. */
  root: string;
  plan: string;
  kept: boolean;
}

/** The engine's environment: the caller's, less anything that would steer the simulated run. */
export function drillEnv(env: NodeJS.ProcessEnv, socket: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && !/^(SWARM_|AGENTKIT_|SIM_)/.test(key) && key !== 'TMUX' && key !== 'TMUX_PANE') out[key] = value;
  }
  const path = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && findOnPath('ak', { PATH: dir }) === null);
  out.PATH = path.join(delimiter);
  out.SWARM_TMUX_SOCKET = socket;
  return out;
}

/** Run the swarm to its end, print its events, keep every pane's screen; the panes are gone after. */
async function rehearse(config: SwarmConfig, env: NodeJS.ProcessEnv, socket: string, options: DrillOptions): Promise<{ outcome: Outcome; panes: PaneText[] }> {
  const swarm = await startSwarm(config, { env, untilDone: true, timeoutMs: options.deadlineMs ?? 120_000 });
  const { engine } = swarm;
  options.log(`swarm drill: ${engine.host.kind === 'tmux' ? `tmux socket ${socket} (watch: tmux -L ${socket} attach)` : 'embedded pseudo-terminals'}`);
  const printed = new WeakSet<JournalEntry>();
  const print = (entries: JournalEntry[]) => {
    for (const entry of entries) {
      if (printed.has(entry) || entry.event === 'ignored') continue;
      printed.add(entry);
      options.log(formatEntry(entry, { relativeTo: dirname(config.plan) }));
    }
  };
  print(engine.store.getState().events);
  const unsubscribe = engine.store.subscribe((s) => print(s.events));
  try {
    const outcome = await swarm.finished;
    return { outcome, panes: await keepScreens(config.plan, engine.host) };
  } finally {
    unsubscribe();
    await swarm.detach().catch(() => undefined);
    await engine.host.destroy().catch(() => undefined);
  }
}

/** The commit subjects of `branch` in a (bare) repository, newest first; none when it cannot be read. */
function subjects(repository: string, branch: string): string[] {
  try {
    return execFileSync('git', ['log', '--format=%s', branch], { cwd: repository, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Run the rehearsal and write its evidence; `ok` only when every item holds. */
export async function runDrill(options: DrillOptions): Promise<DrillResult> {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'swarm-drill-'));
  const socket = `swarm-drill-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    const spec = drillSpec();
    const repo = writeSimRepo(root, spec);
    const env = drillEnv(options.env, socket);
    const config = loadConfig(repo.file, { cwd: repo.repo, env });
    options.log(`swarm drill: ${spec.lanes.length} lanes and a lead on ${spec.accounts.length} simulated accounts in ${repo.repo}`);

    const { outcome, panes } = await rehearse(config, env, socket, options);
    const seconds = (Date.now() - started) / 1000;

    const facts = readFacts(config.plan, {
      outcome,
      seconds,
      panes,
      lanes: config.lanes.map((l) => l.name),
      capped: { lane: DRILL_CAPPED.lane, account: DRILL_CAPPED.account },
      successorLead: DRILL_CAPPED.successorLead,
      remote: repo.remote === null || spec.base === undefined ? null : { base: spec.base, subjects: subjects(repo.remote, spec.base) },
      ...configFacts(config),
    });
    const items = drillItems(facts);
    const evidence = join(config.plan, EVIDENCE_DIR);
    const docs: Record<string, string> = {
      'summary.md': summaryDoc(facts, items, repo.repo),
      'keys.md': keysDoc(facts),
      'packets.md': packetsDoc(facts),
      'epochs.md': epochsDoc(facts),
      'asks.md': asksDoc(facts),
      'order-and-review.md': orderAndReviewDoc(facts),
      'gates.md': gatesDoc(facts),
      'spend.md': spendDoc(facts),
    };
    for (const [name, text] of Object.entries(docs)) writeFileAtomic(join(evidence, name), text);
    return { ok: items.every((i) => i.holds), items, table: summaryTable(items, { kept: options.keep }), root, plan: config.plan, kept: options.keep };
  } finally {
    await runTmux(socket, killServer()).catch(() => undefined);
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
}
