/**
 * The engine's memory (`.swarm/state.json`, its type core/swarm/state.ts), written after every step
 * (temp + rename) and before its effects run: pending effects are the intent records a restart finishes.
 */
import type { SwarmState } from '../core/swarm/state.js';
import { savedLane, type SavedLane } from '../machine/laneState.js';
import type { GenerationSpend, Ledger } from '../core/ledger/ledger.js';
import { renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';

export type { PendingEffect, TimerEntry } from '../core/swarm/state.js';
/** The swarm's state (core/swarm/state.ts), as the runtime holds and saves it. */
export type EngineState = SwarmState;

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
  // A ledger whose shape is not the fold's (an edited file) is left out, agent by agent, rather than break every step.
  const ledger = state.ledger === undefined ? {} : { ledger: keptLedger(state.ledger) };
  return { kind: 'ok', state: { ...state, lanes, ...ledger } as EngineState };
}

function keptLedger(ledger: unknown): Ledger {
  if (typeof ledger !== 'object' || ledger === null || Array.isArray(ledger)) return {};
  const ok = (g: unknown): boolean => typeof g === 'object' && g !== null && typeof (g as GenerationSpend).generation === 'number' && Array.isArray((g as GenerationSpend).processes);
  return Object.fromEntries(Object.entries(ledger).filter(([, list]) => Array.isArray(list) && (list as unknown[]).every(ok))) as Ledger;
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
