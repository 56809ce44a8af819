/**
 * Capacity probes per kind (SPEC 5: the second source, after `ak`): what the agent's own files say
 * about its account and context. All read local files, so their readings are not cached:
 * - `sim`: the simulated account's state in `$SWARM_PLAN/.swarm/sim/run-<N>/<account>.json`;
 * - `claude`: the transcript of the lane's session (its SessionStart hook's path, else found by the
 *   session id): context, and an API error's hard limit (the status line, when set, is fresher and
 *   is cached by `swarm statusline`);
 * - `codex`: the lane's rollout under CODEX_HOME, read on from a saved offset: the binding window,
 *   context, and a usage-limit turn's hard limit.
 * A hard limit reads as critical with 0% left: the decision is hand off now.
 */
import { join } from 'node:path';
import type { RawReading } from '../core/capacity/capacity.js';
import type { CapacityThresholds } from '../core/capacity/thresholds.js';
import { planPaths, runFolder } from '../core/plan/paths.js';
import { readTranscriptTail } from '../kinds/claude/transcript.js';
import { agentKey, parseAccountState, simReading } from '../sim/model.js';
import { claudeConfigDir, findTranscript, readTail } from '../kinds/claude/files.js';
import { readTextIfExists } from './files.js';
import { readLaneSession } from './laneSession.js';
import { laneRollout } from '../kinds/codex/rolloutProbe.js';

export interface ProbeTarget {
  plan: string;
  account: string;
  lane: string;
  generation: number;
  /** The run the agent belongs to (SWARM_RUN): a simulated account's quota is the run's. */
  run?: number | null;
  /** The agent's environment (CLAUDE_CONFIG_DIR, CODEX_HOME, SWARM_SESSION_ID); default none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The context window in tokens, for a transcript's %; default unknown. */
  window?: number | null;
}

export interface ProbeResult {
  reading: RawReading;
  /** Whether the reading may be cached for the usual 300 s (false for cheap local files). */
  cacheable: boolean;
  /** A hard limit the agent's files show (usage_limit, overflow, login), or null. */
  hardLimit?: string | null;
}

/** `.swarm/sim/`: simulated accounts, mailbox offsets, the sim lead's table, keys logs. */
export function simStateDir(plan: string): string {
  return join(planPaths(plan).swarmDir, 'sim');
}

/**
 * A simulated account's state. Its quota belongs to a run (`run-<N>/`): a new run starts every account
 * afresh, so a demo runs again and again. Without a run (a pane started by hand), the plan's own.
 */
export function simAccountFile(plan: string, account: string, run: number | null = null): string {
  const file = `${account.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
  return run === null ? join(simStateDir(plan), file) : join(runFolder(simStateDir(plan), run), file);
}

/** The kind's probe reading; null when the kind has no probe or the probe has nothing to say. */
export function probeReading(kind: string | null, target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null {
  if (kind === 'sim') return simProbe(target, thresholds);
  if (kind === 'claude') return claudeProbe(target);
  if (kind === 'codex') return codexProbe(target);
  return null;
}

function limited(reading: RawReading, hardLimit: string | null): RawReading {
  if (hardLimit === 'usage_limit') return { ...reading, state: 'critical', remainingPct: 0 };
  if (hardLimit === 'overflow') return { ...reading, contextPct: 100 };
  return reading;
}

function claudeProbe(target: ProbeTarget): ProbeResult | null {
  const env = target.env ?? {};
  const session = readLaneSession(target.plan, target.lane, target.generation);
  const sessionId = session?.session_id ?? (env.SWARM_SESSION_ID?.trim() || null);
  const path = session?.transcript_path ?? (sessionId === null ? null : findTranscript(claudeConfigDir(env.CLAUDE_CONFIG_DIR), sessionId));
  const text = path === null ? null : readTail(path);
  if (text === null) return null;
  const tail = readTranscriptTail(text, target.window ?? null);
  const reading: RawReading = { state: 'unknown', remainingPct: null, contextPct: tail.contextPct, resetsAt: null };
  return { reading: limited(reading, tail.hardLimit), cacheable: false, hardLimit: tail.hardLimit };
}

function codexProbe(target: ProbeTarget): ProbeResult | null {
  const state = laneRollout(target.plan, target.lane, target.generation, target.env?.CODEX_HOME, Date.now());
  if (state === null) return null;
  return { reading: limited(state.reading, state.hardLimit), cacheable: false, hardLimit: state.hardLimit };
}

function simProbe(target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null {
  const text = readTextIfExists(simAccountFile(target.plan, target.account, target.run ?? null));
  const state = text === null ? null : parseAccountState(text, target.account);
  if (state === null) return null;
  return { reading: simReading(state, agentKey(target.lane, target.generation), thresholds), cacheable: false };
}
