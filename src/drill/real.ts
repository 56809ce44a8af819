/**
 * `swarm drill --real`: the published Claude Code and Codex as lanes, offline, against the
 * mock model server on 127.0.0.1, in a temporary repository with temporary profiles (never the
 * developer's ~/.claude or ~/.codex: HOME is a folder of the run). No key is typed; the run ends when
 * every lane is done or blocked (the permission lane stays blocked), or at the deadline.
 * Evidence under the plan's analysis_results/drill/: summary.md (table, CLI versions, time),
 * packets.md, gates.md, mock.md (every request the mock answered), panes/ (each pane's last screen).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { formatEntry, type JournalEntry } from '../core/protocol/journal.js';
import { loadConfig } from '../adapters/configFile.js';
import { writeFileAtomic } from '../adapters/files.js';
import { killServer } from '../adapters/tmux/argv.js';
import { runTmux } from '../adapters/tmux/runner.js';
import { startSwarm } from '../runtime/swarm.js';
import { EVIDENCE_DIR } from './checks.js';
import { gatesDoc, packetsDoc, summaryTable } from './docs.js';
import { drillEnv, type DrillOptions, type DrillResult } from './drill.js';
import { configFacts, keepScreens, readFacts } from './facts.js';
import { scriptedBrain } from './mock/brain.js';
import { scriptedRates } from './mock/rates.js';
import { startMockServer } from './mock/server.js';
import { realItems, type MockRequest, type RealFacts } from './realChecks.js';
import { findRealClis } from './realClis.js';
import { endProcessesUnder } from './realProcesses.js';
import { mockDoc, realSummaryDoc } from './realDocs.js';
import { writeRealRepo } from './realRepo.js';
import { pick, REAL_RATES } from './realSpec.js';

export interface RealDrillOptions extends DrillOptions {
  /** Lanes to run (all when empty): for a partial run. */
  only?: readonly string[];
}

/** Variables of the caller's that would point a CLI at a real account or endpoint. */
const REAL_ENDPOINT = /^(ANTHROPIC_|CLAUDE_|CODEX_|OPENAI_)/;

export async function runRealDrill(options: RealDrillOptions): Promise<DrillResult> {
  const started = Date.now();
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'swarm-drill-real-')));
  let clis: ReturnType<typeof findRealClis>;
  try {
    mkdirSync(join(root, 'version-home'));
    clis = findRealClis(options.env, join(root, 'version-home'));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const socket = `swarm-drill-real-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const requests: MockRequest[] = [];
  const server = await startMockServer({ brain: scriptedBrain, rates: scriptedRates(REAL_RATES), record: (r) => requests.push(r) });
  try {
    const { spec, roles } = pick(options.only ?? []);
    const repo = writeRealRepo(root, spec, server.url);
    const env = drillEnv(Object.fromEntries(Object.entries(options.env).filter(([k]) => !REAL_ENDPOINT.test(k))), socket);
    env.HOME = join(repo.root, 'home');
    mkdirSync(env.HOME, { recursive: true });
    env.PATH = [...clis.dirs, env.PATH ?? ''].join(delimiter);
    env.DISABLE_AUTOUPDATER = '1';
    const config = loadConfig(repo.file, { cwd: repo.repo, env });
    options.log(`swarm drill --real: ${spec.lanes.length} lanes on ${spec.accounts.length} accounts (claude ${clis.versions.claude}, ${clis.versions.codex}), mock API ${server.url}, in ${repo.repo}`);

    const swarm = await startSwarm(config, { env, untilDone: true, timeoutMs: options.deadlineMs ?? 240_000 });
    const { engine } = swarm;
    options.log(`swarm drill --real: tmux socket ${socket} (watch: tmux -L ${socket} attach)`);
    const printed = new WeakSet<JournalEntry>();
    const settled = () => config.lanes.every((l) => ['done', 'blocked'].includes(engine.state.lanes[l.name]?.state ?? ''));
    let settle: () => void = () => undefined;
    const allSettled = new Promise<void>((resolve) => (settle = resolve));
    const unsubscribe = engine.store.subscribe((s) => {
      for (const entry of s.events) {
        if (printed.has(entry) || entry.event === 'ignored') continue;
        printed.add(entry);
        options.log(formatEntry(entry, { relativeTo: dirname(config.plan) }));
      }
      if (settled()) settle();
    });
    const outcome = await Promise.race([swarm.finished, allSettled.then(() => ({ code: 0 as const, why: 'every lane done or blocked' }))]);
    const laneStates = Object.fromEntries(config.lanes.map((l) => [l.name, engine.state.lanes[l.name]?.state ?? 'absent']));
    const limited = Object.keys(engine.state.limited);
    const panes = await keepScreens(config.plan, engine.host);
    unsubscribe();
    await swarm.detach().catch(() => undefined);
    await engine.host.destroy().catch(() => undefined);

    const seconds = (Date.now() - started) / 1000;
    const base = readFacts(config.plan, { outcome, seconds, panes, lanes: config.lanes.map((l) => l.name), capped: { lane: '', account: '' }, successorLead: '', remote: null, ...configFacts(config) });
    const kinds = Object.fromEntries(spec.accounts.map((a) => [a.id, a.kind]));
    const facts: RealFacts = { ...base, laneStates, kinds, requests, limited };
    const items = realItems(facts, roles);
    const evidence = join(config.plan, EVIDENCE_DIR);
    const docs: Record<string, string> = {
      'summary.md': realSummaryDoc(facts, items, { repo: repo.repo, versions: clis.versions }),
      'packets.md': packetsDoc(facts),
      'gates.md': gatesDoc(facts),
      'mock.md': mockDoc(requests),
    };
    for (const [name, text] of Object.entries(docs)) writeFileAtomic(join(evidence, name), text);
    const table = `${summaryTable(items, { kept: options.keep })}\nclaude ${clis.versions.claude}; ${clis.versions.codex}; ${seconds.toFixed(1)} s\n`;
    return { ok: items.length > 0 && items.every((i) => i.holds), items, table, root, plan: config.plan, kept: options.keep };
  } finally {
    await server.close();
    await runTmux(socket, killServer()).catch(() => undefined);
    const ended = await endProcessesUnder(root);
    if (ended.length > 0) options.log(`swarm drill --real: ended ${ended.length} process(es) of the CLIs that outlived their panes by 10 s: ${ended.join(', ')}`);
    if (!options.keep) rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}
