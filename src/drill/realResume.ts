/**
 * The resume item of `swarm drill --real` (SPEC 10.8, docs/resume.md), in a swarm of its own beside the
 * main one, on a tmux server of its own (the drill's private socket, `-resume`): one Claude Code lane and
 * one Codex lane, launched by their kinds' own argv against the same mock API.
 *
 * 1. `swarm up` (in this process) until each lane has told its session (state `sessions`: Claude's
 *    SessionStart hook, Codex's turn end through its notify hook) and ended a turn mid-task (its step
 *    prints the brain's `PAUSE`: the gate and the report are still ahead);
 * 2. `tmux -L <its socket> kill-server`: the run stops short (`host_lost`), its state saved;
 * 3. `swarm up` again: each lane's own session is resumed with the kind's `launch.resume` argv
 *    (`session_resumed`), and the resumed CLI's requests go on to the mock, which records what each
 *    carried (realChecks.ts judges: the earlier conversation, or a fresh session).
 * Each pane's command line is read from /proc as it starts (its first and its resumed start).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { formatEntry, type JournalEntry } from '../core/protocol/journal.js';
import { runOf } from '../core/swarm/runs.js';
import { spoolName } from '../core/authority/agents.js';
import { readTextIfExists } from '../adapters/files.js';
import { loadConfig } from '../adapters/configFile.js';
import { readJournal } from '../adapters/journal.js';
import { spoolFile } from '../adapters/spool.js';
import type { PaneHost } from '../adapters/host.js';
import { killServer } from '../adapters/tmux/argv.js';
import { runTmux } from '../adapters/tmux/runner.js';
import { startSwarm, type RunningSwarm } from '../runtime/swarm.js';
import { EVIDENCE_DIR } from './checks.js';
import { keepScreens } from './facts.js';
import { PAUSED } from './mock/brain.js';
import type { MockRequest, ResumeFacts } from './realChecks.js';
import { writeRealRepo, type RealSpec } from './realRepo.js';

export interface ResumeDrillOptions {
  /** The folder to lay the swarm out in (created). */
  root: string;
  spec: RealSpec;
  /** The mock's URL. */
  url: string;
  /** The environment for a swarm whose repository root is `home`'s parent, on `socket`. */
  envFor: (repoRoot: string, socket: string) => NodeJS.ProcessEnv;
  socket: string;
  /** Every request the mock answered so far (appended to as it runs). */
  requests: readonly MockRequest[];
  log: (line: string) => void;
}

/** How long the first run may take to tell both sessions and pause; the resumed run to finish. */
const PAUSE_WAIT_MS = 60_000;
const RESUMED_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's command line, space-joined, or null. */
function cmdline(pid: number | null): string | null {
  if (pid === null) return null;
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return text === '' ? null : text.replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    return null;
  }
}

async function paneArgv(host: PaneHost, paneId: string): Promise<string | null> {
  const pane = (await host.list().catch(() => [])).find((p) => p.paneId === paneId);
  return cmdline(pane?.pid ?? null);
}

/** Print a run's journal lines as they come (tagged `resume`); returns the unsubscribe. */
function follow(swarm: RunningSwarm, plan: string, log: (line: string) => void, seen: (entry: JournalEntry) => void): () => void {
  const printed = new WeakSet<JournalEntry>();
  const each = (entries: readonly JournalEntry[]) => {
    for (const entry of entries) {
      if (printed.has(entry) || entry.event === 'ignored') continue;
      printed.add(entry);
      log(`resume: ${formatEntry(entry, { relativeTo: dirname(plan) })}`);
      seen(entry);
    }
  };
  each(swarm.engine.store.getState().events);
  return swarm.engine.store.subscribe((s) => each(s.events));
}

async function until(test: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() >= deadline) return false;
    await sleep(200);
  }
  return true;
}

export async function runResumeDrill(o: ResumeDrillOptions): Promise<ResumeFacts> {
  mkdirSync(o.root, { recursive: true });
  const repo = writeRealRepo(o.root, o.spec, o.url);
  const env = o.envFor(repo.root, o.socket);
  const config = loadConfig(repo.file, { cwd: repo.repo, env });
  const kinds = Object.fromEntries(o.spec.accounts.map((a) => [a.id, a.kind]));
  const lanes = o.spec.lanes.map((l) => ({ name: l.name, account: l.account, kind: kinds[l.account]! }));
  const argv: ResumeFacts['argv'] = Object.fromEntries(lanes.map((l) => [l.name, { first: null, resumed: null }]));
  const outcomes: string[] = [];
  const facts = (over: Partial<ResumeFacts>): ResumeFacts => ({
    journal: readJournal(config.plan), lanes, laneStates: {}, told: {}, notKilled: null, killedAt: o.requests.length, argv, outcomes,
    panes: join(config.plan, EVIDENCE_DIR, 'panes'), ...over,
  });
  o.log(`swarm drill --real: the resume swarm: ${lanes.map((l) => `${l.name} (${l.kind}, ${l.account})`).join(', ')} on tmux socket ${o.socket}, in ${repo.repo}`);
  try {
    // 1. The first run, until each lane told its session and ended a turn with its task still ahead.
    const first = await startSwarm(config, { env, untilDone: true, timeoutMs: PAUSE_WAIT_MS + 30_000 });
    const stop = follow(first, config.plan, o.log, (entry) => {
      if (entry.event === 'lane_started' && typeof entry.lane === 'string' && typeof entry.paneId === 'string' && argv[entry.lane]) {
        const lane = entry.lane;
        void paneArgv(first.engine.host, entry.paneId).then((line) => (argv[lane]!.first ??= line));
      }
    });
    const turnEnded = (lane: string) => (readTextIfExists(spoolFile(config.plan, spoolName(runOf(first.engine.state), lane, 1))) ?? '').includes('"meaning":"turn_end"');
    const pausedNow = (l: (typeof lanes)[number]) =>
      first.engine.state.sessions?.[l.name]?.generation === 1 && turnEnded(l.name) &&
      o.requests.some((r) => r.account === l.account && r.action?.kind === 'say' && r.action.text === PAUSED);
    const paused = await until(() => lanes.every(pausedNow), PAUSE_WAIT_MS);
    const told = Object.fromEntries(lanes.map((l) => [l.name, first.engine.state.sessions?.[l.name]?.sessionId ?? null]));
    for (const l of lanes) {
      const pane = first.engine.state.lanes[l.name]?.paneId;
      if (argv[l.name]!.first === null && pane) argv[l.name]!.first = await paneArgv(first.engine.host, pane);
    }
    if (!paused) {
      const missing = lanes.filter((l) => !pausedNow(l)).map((l) => `${l.name} (session ${told[l.name] === null ? 'not told' : 'told'}, turn ${turnEnded(l.name) ? 'ended' : 'not ended'})`);
      stop();
      await keepScreens(config.plan, first.engine.host);
      await first.detach().catch(() => undefined);
      await first.engine.host.destroy().catch(() => undefined);
      return facts({ told, notKilled: `not every lane told its session and paused within ${PAUSE_WAIT_MS / 1000} s: ${missing.join(', ')}` });
    }

    // 2. Its tmux server killed: the run stops short, its state saved with host_lost.
    const killedAt = o.requests.length;
    o.log(`swarm drill --real: the resume swarm: tmux -L ${o.socket} kill-server (sessions ${lanes.map((l) => `${l.name} ${told[l.name]}`).join(', ')})`);
    await runTmux(o.socket, killServer());
    let timer: NodeJS.Timeout | undefined;
    const lost = await Promise.race([first.finished, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 20_000)))]);
    clearTimeout(timer);
    outcomes.push(lost === null ? 'the first run had not stopped 20 s after its server was killed' : `first run: ${lost.why} (exit ${lost.code})`);
    stop();
    await first.detach().catch(() => undefined);

    // 3. `swarm up` again: each lane's own session resumed.
    const again = await startSwarm(config, { env, untilDone: true, timeoutMs: RESUMED_WAIT_MS + 10_000 });
    const unfollow = follow(again, config.plan, o.log, (entry) => {
      if (entry.event === 'session_resumed' && typeof entry.lane === 'string' && typeof entry.paneId === 'string' && argv[entry.lane]) {
        const lane = entry.lane;
        void paneArgv(again.engine.host, entry.paneId).then((line) => (argv[lane]!.resumed = line));
      }
    });
    const settled = () => lanes.every((l) => ['done', 'blocked'].includes(again.engine.state.lanes[l.name]?.state ?? ''));
    let ended: string | null = null;
    void again.finished.then((outcome) => (ended = `second run: ${outcome.why} (exit ${outcome.code})`));
    await until(() => settled() || ended !== null, RESUMED_WAIT_MS);
    outcomes.push(ended ?? (settled() ? 'second run: every lane done or blocked' : `second run: not settled within ${RESUMED_WAIT_MS / 1000} s`));
    const laneStates = Object.fromEntries(lanes.map((l) => [l.name, again.engine.state.lanes[l.name]?.state ?? 'absent']));
    await keepScreens(config.plan, again.engine.host);
    unfollow();
    await again.detach().catch(() => undefined);
    await again.engine.host.destroy().catch(() => undefined);
    return facts({ laneStates, told, killedAt });
  } finally {
    await runTmux(o.socket, killServer()).catch(() => undefined);
  }
}
