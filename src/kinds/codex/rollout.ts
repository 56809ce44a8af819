/**
 * Codex's rollout, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<stamp>-<uuid>.jsonl` (SCREENS.md), read
 * incrementally: each call takes the text read from the last offset and the state so far, consumes
 * whole lines only (a line still being written waits for the next call) and returns the new state.
 * Pure: `now` is passed in.
 *
 * - `session_meta.id` is the lane's thread (the first one seen is kept).
 * - `token_count`: `rate_limits.primary|secondary` → the binding window (`resets_at` epoch s, or
 *   the older `resets_in_seconds` from the line's timestamp, or the oldest flat `primary_used_percent`
 *   shape); `rate_limits` null or absent → capacity unknown. `info.model_context_window` and
 *   `last_token_usage` → context.
 * - `info.total_token_usage` → the thread's token totals (the ledger).
 * - `task_complete` (a turn ended) or `error` whose `codex_error_info` is `usage_limit_exceeded` →
 *   a hard limit; `context_window_exceeded` or an overflow text → overflow. A later turn that
 *   completes without an error clears it.
 */
import type { RawReading } from '../../core/capacity/capacity.js';
import { contextPercent, usageReading, type UsageWindow } from '../../core/capacity/binding.js';
import { isoTime, num, obj, parseLine, str, type Json } from '../../core/protocol/jsonFields.js';
import { isOverflow } from '../../core/capacity/thresholds.js';

export type CodexLimit = 'usage_limit' | 'overflow';

export interface RolloutState {
  /** Bytes of the file consumed: read on from here. */
  offset: number;
  /** The lane's thread id (`session_meta.id`). */
  sessionId: string | null;
  reading: RawReading;
  /** `model_context_window`: the window for `window: auto`. */
  window: number | null;
  contextTokens: number | null;
  hardLimit: CodexLimit | null;
  /** `task_complete` events seen: a turn ended. */
  turnsCompleted: number;
  /** `info.total_token_usage`, the thread's tokens so far (SPEC 10.7's ledger); null (or absent in older saved states) until one is seen. */
  totals?: CodexTotals | null;
}

/** Codex's own token totals: `input_tokens` (cached ones included), `cached_input_tokens`, `output_tokens`. No cost is reported. */
export interface CodexTotals {
  input: number | null;
  cached: number | null;
  output: number | null;
}

export const ROLLOUT_START: RolloutState = {
  offset: 0, sessionId: null, reading: { state: 'unknown', remainingPct: null, contextPct: null, resetsAt: null },
  window: null, contextTokens: null, hardLimit: null, turnsCompleted: 0, totals: null,
};

const encoder = new TextEncoder();

export function readRollout(chunk: string, fromOffset: number, previous: RolloutState | null, now: number): RolloutState {
  const end = chunk.lastIndexOf('\n') + 1;
  const state: RolloutState = { ...(previous ?? ROLLOUT_START), offset: fromOffset + encoder.encode(chunk.slice(0, end)).length };
  let windows: UsageWindow[] | null = null;
  for (const line of chunk.slice(0, end).split('\n')) {
    const entry = parseLine(line);
    const payload = obj(entry, 'payload');
    if (entry === null || payload === null) continue;
    if (str(entry, 'type') === 'session_meta') {
      state.sessionId ??= str(payload, 'id');
      continue;
    }
    if (str(entry, 'type') !== 'event_msg') continue;
    const type = str(payload, 'type');
    if (type === 'task_started') state.window = positive(num(payload, 'model_context_window')) ?? state.window;
    if (type === 'token_count') {
      const info = obj(payload, 'info');
      state.window = positive(num(info, 'model_context_window')) ?? state.window;
      state.contextTokens = tokensOf(obj(info, 'last_token_usage')) ?? state.contextTokens;
      state.totals = totalsOf(obj(info, 'total_token_usage')) ?? state.totals ?? null;
      windows = rateWindows(obj(payload, 'rate_limits'), lineTime(entry, now));
    }
    if (type === 'task_complete' || type === 'error') {
      const limit = limitOf(type === 'error' ? payload : obj(payload, 'error'));
      if (type === 'task_complete') state.turnsCompleted += 1;
      if (limit !== null || type === 'task_complete') state.hardLimit = limit;
    }
  }
  const contextPct = contextPercent(state.contextTokens, state.window);
  const context = { contextTokens: state.contextTokens, window: state.window };
  state.reading = windows === null ? { ...state.reading, contextPct, ...context } : { ...usageReading(windows, contextPct), ...context };
  return state;
}

/** Primary and secondary windows, in any of the three shapes; [] (unknown) for null. */
function rateWindows(limits: Json | null, at: number): UsageWindow[] {
  if (limits === null) return [];
  return ['primary', 'secondary'].map((name) => {
    const nested = obj(limits, name);
    const source = nested ?? limits;
    const key = (k: string): string => (nested === null ? `${name}_${k}` : k);
    const resetsIn = num(source, key('resets_in_seconds'));
    const resetsAt = isoTime(source[key('resets_at')]) ?? (resetsIn === null ? null : new Date(at + resetsIn * 1000).toISOString());
    return { usedPct: num(source, key('used_percent')), resetsAt };
  });
}

/** Context in use: `total_tokens`, else input + output. */
function tokensOf(usage: Json | null): number | null {
  const total = num(usage, 'total_tokens');
  if (total !== null) return total;
  const input = num(usage, 'input_tokens');
  const output = num(usage, 'output_tokens');
  return input === null && output === null ? null : (input ?? 0) + (output ?? 0);
}

function totalsOf(usage: Json | null): CodexTotals | null {
  const t = { input: count(num(usage, 'input_tokens')), cached: count(num(usage, 'cached_input_tokens')), output: count(num(usage, 'output_tokens')) };
  return t.input === null && t.cached === null && t.output === null ? null : t;
}

const count = (n: number | null): number | null => (n !== null && n >= 0 ? n : null);

function limitOf(error: Json | null): CodexLimit | null {
  if (error === null) return null;
  const info = error['codex_error_info'];
  const code = typeof info === 'string' ? info : Object.keys(obj(error, 'codex_error_info') ?? {})[0] ?? '';
  if (code === 'usage_limit_exceeded') return 'usage_limit';
  if (code === 'context_window_exceeded' || isOverflow(str(error, 'message') ?? '')) return 'overflow';
  return null;
}

/** The line's own time (epoch ms), else now. */
function lineTime(entry: Json, now: number): number {
  const iso = isoTime(entry['timestamp']);
  return iso === null ? now : Date.parse(iso);
}

function positive(n: number | null): number | null {
  return n !== null && n > 0 ? n : null;
}
