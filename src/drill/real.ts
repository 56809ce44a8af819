/**
 * `swarm drill --real`: the published Claude Code and Codex as lanes, offline, against the
 * mock model server on 127.0.0.1, in a temporary repository with temporary profiles (never the
 * developer's ~/.claude or ~/.codex: HOME is a folder of the run). No key is typed; the run ends when
 * every lane is done or blocked (the permission lane stays blocked), or at the deadline.
 * Beside it, at the same time, the resume item's swarm (realResume.ts): a Claude Code lane and a Codex
 * lane whose tmux server is killed mid-run, then `swarm up` again.
 * Evidence under the plan's analysis_results/drill/: summary.md (table, CLI versions, time),
 * packets.md, gates.md, mock.md (every request the mock answered), resume.md (the resume swarm: its
 * sessions, panes' command lines, what each resumed CLI sent), panes/ (each pane's last screen).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { formatEntry, type JournalEntry } from '../core/protocol/journal.js';
import { loadConfig } from '../adapters/configFile.js';
import { writeFileAtomic } from '../adapters/files.js';
import { killServer } from '../adapters/tmux/argv.js';
import { runTmux } from '../adapters/tmux/runner.js';
import type { SwarmConfig } from '../core/config/config.js';
import { startSwarm, type Outcome } from '../runtime/swarm.js';
import { EVIDENCE_DIR, type PaneText } from './checks.js';
import { gatesDoc, packetsDoc, summaryTable } from './docs.js';
import { drillEnv, type DrillOptions, type DrillResult } from './drill.js';
import { configFacts, keepScreens, readFacts } from './facts.js';
import { scriptedBrain } from './mock/brain.js';
import { scriptedRates } from './mock/rates.js';
import { startMockServer } from './mock/server.js';
import { realItems, type MockRequest, type RealFacts } from './realChecks.js';
import { findRealClis } from './realClis.js';
import { endProcessesUnder } from './realProcesses.js';
import { mockDoc, realSummaryDoc, resumeDoc } from './realDocs.js';
import { runResumeDrill } from './realResume.js';
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
  const envFor = (repoRoot: string, sock: string): NodeJS.ProcessEnv => {
    const env = drillEnv(Object.fromEntries(Object.entries(options.env).filter(([k]) => !REAL_ENDPOINT.test(k))), sock);
    env.HOME = join(repoRoot, 'home');
    mkdirSync(env.HOME, { recursive: true });
    env.PATH = [...clis.dirs, env.PATH ?? ''].join(delimiter);
    env.DISABLE_AUTOUPDATER = '1';
    return env;
  };
  const resumeSocket = `${socket}-resume`;
  try {
    const { spec, roles, resume: resumeSpec } = pick(options.only ?? []);
    const repo = writeRealRepo(root, spec, server.url);
    const env = envFor(repo.root, socket);
    const config = loadConfig(repo.file, { cwd: repo.repo, env });
    options.log(`swarm drill --real: ${spec.lanes.length} lanes on ${spec.accounts.length} accounts (claude ${clis.versions.claude}, ${clis.versions.codex}), mock API ${server.url}, in ${repo.repo}`);

    // The resume item's swarm runs beside the main one, on its own tmux server, accounts and repository.
    const resuming = resumeSpec === null
      ? Promise.resolve(null)
      : runResumeDrill({ root: join(root, 'resume'), spec: resumeSpec, url: server.url, envFor, socket: resumeSocket, requests, log: options.log });
    // Its failure to run at all is a failed item, not a crash of the whole drill.
    const resumed = resuming.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    const main = spec.lanes.length === 0 ? null : await runMain(config, env, socket, options).catch(async (error: unknown) => {
      await resumed; // its panes and folder are ended and removed below: never under its feet
      throw error;
    });
    if (main === null) options.log('swarm drill --real: no lane of the main swarm asked for: the resume swarm only');
    const { outcome, laneStates, limited, panes } = main ?? { outcome: { code: 0 as const, why: 'the resume swarm only' }, laneStates: {}, limited: [], panes: [] };
    const resume = await resumed;
    if (resume instanceof Error) options.log(`swarm drill --real: the resume swarm failed to run: ${resume.message}`);

    const seconds = (Date.now() - started) / 1000;
    const base = readFacts(config.plan, { outcome, seconds, panes, lanes: config.lanes.map((l) => l.name), capped: { lane: '', account: '' }, successorLead: '', remote: null, ...configFacts(config) });
    const kinds = Object.fromEntries(spec.accounts.map((a) => [a.id, a.kind]));
    const facts: RealFacts = { ...base, laneStates, kinds, requests, limited, resume: resume instanceof Error ? null : resume };
    const items = realItems(facts, roles);
    const evidence = join(config.plan, EVIDENCE_DIR);
    const docs: Record<string, string> = {
      'summary.md': realSummaryDoc(facts, items, { repo: repo.repo, versions: clis.versions }),
      'packets.md': packetsDoc(facts),
      'gates.md': gatesDoc(facts),
      'mock.md': mockDoc(requests),
      ...(resumeSpec === null ? {} : { 'resume.md': resumeDoc(facts, items, resume instanceof Error ? resume.message : null) }),
    };
    for (const [name, text] of Object.entries(docs)) writeFileAtomic(join(evidence, name), text);
    const table = `${summaryTable(items, { kept: options.keep })}\nclaude ${clis.versions.claude}; ${clis.versions.codex}; ${seconds.toFixed(1)} s\n`;
    return { ok: items.length > 0 && items.every((i) => i.holds), items, table, root, plan: config.plan, kept: options.keep };
  } finally {
    await server.close();
    await runTmux(socket, killServer()).catch(() => undefined);
    await runTmux(resumeSocket, killServer()).catch(() => undefined);
    const ended = await endProcessesUnder(root);
    if (ended.length > 0) options.log(`swarm drill --real: ended ${ended.length} process(es) of the CLIs that outlived their panes by 10 s: ${ended.join(', ')}`);
    if (!options.keep) rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

/** The main swarm, run until every lane is done or blocked (or its deadline); its panes' screens kept, its panes gone after. */
async function runMain(config: SwarmConfig, env: NodeJS.ProcessEnv, socket: string, options: RealDrillOptions): Promise<{ outcome: Outcome; laneStates: Record<string, string>; limited: string[]; panes: PaneText[] }> {
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
  return { outcome, laneStates, limited, panes };
}
