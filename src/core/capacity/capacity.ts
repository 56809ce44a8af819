/**
 * From a raw reading to the verdict `swarm capacity` prints (SPEC 5): caps applied, the state
 * recomputed against the thresholds, never `ok` without a reading, and the decision. Pure.
 */
import type { CapacityState } from '../protocol/protocol.js';
import { applyCap, decide, stateOf, type CapacityThresholds, type Decision } from './thresholds.js';

export interface RawReading {
  state: CapacityState;
  remainingPct: number | null;
  contextPct: number | null;
  resetsAt: string | null;
  /**
   * The context in use now, in tokens (Claude Code's status line `current_usage` input + cache
   * creation + cache read; Codex's `last_token_usage`), where the source tells it: the context lines
   * `at` and `warn_at` apply to it (SPEC 10.7). Absent or null: unknown.
   */
  contextTokens?: number | null;
  /** The context window the agent itself reported (for `window: auto`); absent or null: none. */
  window?: number | null;
}

export interface ContextSettings {
  contextPressure: number;
  window: number;
  headroom: number;
}

export interface Verdict {
  state: CapacityState;
  remaining_pct: number | null;
  context_pct: number | null;
  resets_at: string | null;
  decision: Decision;
}

const SEVERITY: Record<CapacityState, number> = { unknown: 0, ok: 1, low: 2, critical: 3 };

/** The more severe of two known states; unknown yields to any known state. */
export function worse(a: CapacityState, b: CapacityState): CapacityState {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

export function assess(
  account: string,
  reading: RawReading | null,
  caps: ReadonlyMap<string, number>,
  thresholds: CapacityThresholds,
  context: ContextSettings,
): Verdict {
  const remaining = applyCap(account, reading?.remainingPct ?? null, caps);
  // A percentage decides the state; a reported state more severe than it still stands.
  const reported = reading?.state ?? 'unknown';
  const state = remaining === null ? reported : worse(stateOf(remaining, thresholds), reported);
  const contextPct = reading?.contextPct ?? null;
  const decision = decide({
    state,
    contextTokens: reading?.contextTokens ?? null,
    contextPct,
    window: context.window,
    headroom: context.headroom,
    contextPressure: context.contextPressure,
  });
  return { state, remaining_pct: remaining, context_pct: contextPct, resets_at: reading?.resetsAt ?? null, decision };
}
