/**
 * The engine's memory (`.swarm/state.json`), written after every transition (temp + rename) and
 * before its effects run: pending effects are the intent records a restart finishes.
 */
import type { Effect, LaneState, TimerName } from '../core/machineTypes.js';
import type { Reading } from '../core/leases.js';
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
  readings: Record<string, Reading>;
  timers: TimerEntry[];
  pending: PendingEffect[];
  /** Messages written to a mailbox and not yet pointed at. */
  unread: Record<string, number>;
  allDoneTold: boolean;
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
  /** When `swarm down` ended this run (runEnd.ts): the next `swarm up` starts afresh. */
  ended?: string;
  /** The tmux server died under this run (runEnd.ts): the next `swarm up` resumes. */
  hostLost?: { at: string; reason: string };
}

export function loadState(path: string): EngineState | null {
  const text = readTextIfExists(path);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as EngineState;
    return value.version === 1 && typeof value.lanes === 'object' ? value : null;
  } catch {
    return null;
  }
}

export function saveState(path: string, state: EngineState): void {
  writeFileAtomic(path, `${JSON.stringify(state)}\n`);
}
