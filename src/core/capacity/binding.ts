/**
 * The binding window: an account's capacity is set by whichever of its usage windows
 * (Claude's five_hour / seven_day, Codex's primary / secondary) is most used —
 * `remaining = 100 − max(used %)`, with that window's reset. Pure.
 *
 * Decisions: a used % above 100 counts as 100 (the window is spent); below 0, or not a number, is no
 * reading of that window. A window without a reading is left out; with no window read at all the
 * capacity is unknown (remainingPct null), never ok. On a tie the later reset is kept: the account
 * is free only when both windows are.
 */
import type { RawReading } from './capacity.js';

export interface UsageWindow {
  /** % of the window used, as the agent reports it (any value; checked here). */
  usedPct: number | null;
  /** When the window resets, ISO; null when not said. */
  resetsAt: string | null;
}

export interface Binding {
  remainingPct: number;
  resetsAt: string | null;
}

/** A used % the agent reported, or null when it is no reading. */
export function usedPercent(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  return Math.min(value, 100);
}

/** The most used window, as remaining % and its reset; null when no window has a reading. */
export function bindingWindow(windows: readonly UsageWindow[]): Binding | null {
  let best: { used: number; resetsAt: string | null } | null = null;
  for (const w of windows) {
    const used = usedPercent(w.usedPct);
    if (used === null) continue;
    if (best === null || used > best.used || (used === best.used && later(w.resetsAt, best.resetsAt))) {
      best = { used, resetsAt: w.resetsAt };
    }
  }
  return best === null ? null : { remainingPct: round(100 - best.used), resetsAt: best.resetsAt };
}

/**
 * The reading the structured sources yield: state `unknown`, so that `assess` decides it from the %
 * against the thresholds (a hard limit travels separately, as `hardLimit`).
 */
export function usageReading(windows: readonly UsageWindow[], contextPct: number | null): RawReading {
  const binding = bindingWindow(windows);
  return { state: 'unknown', remainingPct: binding?.remainingPct ?? null, contextPct, resetsAt: binding?.resetsAt ?? null };
}

/** Context in use as % of the window, one decimal; null without tokens or a positive window. */
export function contextPercent(tokens: number | null, window: number | null): number | null {
  if (tokens === null || window === null || !(window > 0) || !(tokens >= 0)) return null;
  return Math.min(100, round((tokens / window) * 100));
}

function later(a: string | null, b: string | null): boolean {
  if (a === null) return false;
  return b === null || Date.parse(a) > Date.parse(b);
}

/** One decimal: 57.49999 → 57.5. */
export function round(n: number): number {
  return Math.round(n * 10) / 10;
}
