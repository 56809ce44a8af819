/**
 * The engine's memory (`.swarm/state.json`), written after every transition (temp + rename) and
 * before its effects run: pending effects are the intent records a restart finishes.
 */
import type { Effect, LaneState, TimerName } from '../machine/types.js';
import { savedLane, type SavedLane } from '../machine/laneState.js';
import type { Reading } from '../core/leases.js';
import type { Sessions } from '../core/swarm/sessions.js';
import { renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';

export interface PendingEffect {
  lane: string;
  effect: Effect;
}

export interface TimerEntry {
  lane: string;
  timer: TimerName;
  at: number;
}

export interface EngineState {
  version: 1;
  name: string;
  session: string;
  backend: 'tmux' | 'pty';
  inboxOffset: number;
  /** The lead first, then lanes in start order. */
  lanes: Record<string, LaneState>;
  order: string[];
  leadName: string;
  /** The agent name the current lead goes by (a successor lead may be `lead-b`). */
  leadAgent: string;
  epoch: number;
  limited: Record<string, string | null>;
  /** Accounts a successor showed a blocking screen on (login, consent, payment, offline) → the screen's text. */
  notReady?: Record<string, string>;
  readings: Record<string, Reading>;
  timers: TimerEntry[];
  pending: PendingEffect[];
  allDoneTold: boolean;
  /** The release deadline running since every lane was done (epoch ms; core/swarm/planEnd.ts); absent in older files. */
  releaseAt?: number | null;
  planDone: boolean;
  /** Lanes added at run time by the lead (`swarm lane add`). */
  added: { name: string; task: string; checkout: string; kind: string | null; command: string | null }[];
  /** The agent name a lead successor in flight will go by. */
  leadNext: string | null;
  /** Asks to the lead not yet answered, and how many timed out in a row. */
  asks: { from: string; at: number }[];
  askTimeouts: number;
  /** The lead lane's generation last seen (a change means a successor lead accepted). */
  leadGeneration: number;
  /** The agent session each lane's current generation runs (Claude Code's SessionStart hook). */
  sessions?: Sessions;
  /** When `swarm down` ended this run (runEnd.ts): the next `swarm up` starts afresh. */
  ended?: string;
  /** The tmux server died under this run (runEnd.ts): the next `swarm up` resumes. */
  hostLost?: { at: string; reason: string };
}

/** What a saved state file holds: nothing, a state, or something that is not one (and why). */
export type SavedState = { kind: 'none' } | { kind: 'ok'; state: EngineState } | { kind: 'corrupt'; why: string };

/** Read a state file's text. Pure. */
export function parseState(text: string): Exclude<SavedState, { kind: 'none' }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', why: `not JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'corrupt', why: 'not a JSON object' };
  const state = value as Partial<EngineState>;
  if (state.version !== 1) return { kind: 'corrupt', why: `version ${JSON.stringify(state.version ?? null)}, not 1` };
  for (const key of ['lanes', 'timers', 'pending', 'order'] as const) {
    if (typeof state[key] !== 'object' || state[key] === null) return { kind: 'corrupt', why: `no ${key}` };
  }
  // Lanes as the machine knows them now (an older file's `gatePending` is a gate in flight).
  const lanes = Object.fromEntries(Object.entries(state.lanes as Record<string, SavedLane>).map(([name, lane]) => [name, savedLane(lane)]));
  return { kind: 'ok', state: { ...state, lanes } as EngineState };
}

export function readState(path: string): SavedState {
  const text = readTextIfExists(path);
  return text === null ? { kind: 'none' } : parseState(text);
}

/** The saved state, or null when there is none or it is unreadable (readers: status, logs, lane add). */
export function loadState(path: string): EngineState | null {
  const saved = readState(path);
  return saved.kind === 'ok' ? saved.state : null;
}

/** Move a corrupt state file aside (`state.corrupt-<stamp>.json` beside it) and say where it went. */
export function keepCorrupt(path: string, now: Date): string {
  const kept = join(dirname(path), `state.corrupt-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.json`);
  renameSync(path, kept);
  return kept;
}

export function saveState(path: string, state: EngineState): void {
  writeFileAtomic(path, `${JSON.stringify(state)}\n`);
}
