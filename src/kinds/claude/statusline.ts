/**
 * Claude Code's status line (SCREENS.md): the JSON it pipes to `swarm statusline` after each
 * assistant message, read into a capacity reading; and the one short line swarm prints back, which
 * Claude shows in its footer. Pure.
 *
 * Decisions: `rate_limits` is absent for API-key logins and before the first reply, and its
 * `used_percentage` may be null: those windows are no reading, so capacity is `unknown`, never `ok`.
 * `context_window.used_percentage` null (before the first reply) is no context reading, unless
 * `current_usage` gives the tokens. A field of the wrong type is treated as absent.
 */
import type { RawReading, Verdict } from '../../core/capacity/capacity.js';
import { contextPercent, round, usageReading, usedPercent, type UsageWindow } from '../../core/capacity/binding.js';
import { isoTime, num, obj, parseObject, str, type Json, type Parsed } from '../../core/protocol/jsonFields.js';
import { stripAnsi } from '../../core/protocol/protocol.js';

export interface StatusLine {
  /** Binding window of five_hour / seven_day, and the context %. */
  reading: RawReading;
  /** `context_window.context_window_size`: the window for `window: auto`; null when not reported. */
  window: number | null;
  /** Context in use, tokens (from `current_usage`); null when not reported. */
  contextTokens: number | null;
  model: string | null;
  sessionId: string | null;
  transcriptPath: string | null;
  /**
   * What this process has spent (SPEC 10.7): `cost.total_cost_usd` and `context_window.total_input_tokens`
   * / `total_output_tokens`, cumulative for the process. The status line carries no cumulative cache
   * counts (`current_usage` is the last message's), so cache read and write are null: not reported.
   */
  spend: { costUsd: number | null; input: number | null; output: number | null };
}

export function parseStatusLine(text: string): Parsed<StatusLine> {
  const parsed = parseObject(text, 'status line JSON');
  if (!parsed.ok) return parsed;
  const json = parsed.value;
  const limits = obj(json, 'rate_limits');
  const windows = ['five_hour', 'seven_day'].map((name) => usageWindow(obj(limits, name)));
  const context = obj(json, 'context_window');
  const size = num(context, 'context_window_size');
  const window = size !== null && size > 0 ? size : null;
  const contextTokens = usageTokens(obj(context, 'current_usage'));
  const reported = usedPercent(context?.['used_percentage']);
  const contextPct = reported === null ? contextPercent(contextTokens, window) : round(reported);
  return {
    ok: true,
    value: {
      reading: { ...usageReading(windows, contextPct), contextTokens, window },
      window,
      contextTokens,
      model: str(obj(json, 'model'), 'id'),
      sessionId: str(json, 'session_id'),
      transcriptPath: str(json, 'transcript_path'),
      spend: { costUsd: nonNegative(num(obj(json, 'cost'), 'total_cost_usd')), input: nonNegative(num(context, 'total_input_tokens')), output: nonNegative(num(context, 'total_output_tokens')) },
    },
  };
}

const nonNegative = (n: number | null): number | null => (n !== null && Number.isFinite(n) && n >= 0 ? n : null);

function usageWindow(w: Json | null): UsageWindow {
  return { usedPct: num(w, 'used_percentage'), resetsAt: isoTime(w?.['resets_at']) };
}

/** input + cache creation + cache read tokens; null when none is a number. */
export function usageTokens(usage: Json | null): number | null {
  const parts = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].map((k) => num(usage, k));
  if (parts.every((p) => p === null)) return null;
  return parts.reduce<number>((sum, p) => sum + Math.max(0, p ?? 0), 0);
}

export interface StatusLineView {
  lane: string;
  generation: number;
  account: string | null;
  verdict: Pick<Verdict, 'state' | 'remaining_pct' | 'context_pct' | 'decision'>;
}

const DECISIONS: Record<Verdict['decision'], string> = { continue: '', handoff_soon: 'hand off soon', handoff_now: 'hand off now' };

/** `lane-a g2 @work2 · capacity low 22% · context 41% · hand off soon`: one line, parts absent when unknown. */
export function formatStatusLine(view: StatusLineView): string {
  const v = view.verdict;
  const who = [view.lane, `g${view.generation}`, ...(view.account === null ? [] : [`@${view.account.replace(/^@/, '')}`])].join(' ');
  const capacity = `capacity ${v.state}${v.remaining_pct === null || v.state === 'unknown' ? '' : ` ${v.remaining_pct}%`}`;
  const parts = [who, capacity];
  if (v.context_pct !== null) parts.push(`context ${v.context_pct}%`);
  if (DECISIONS[v.decision] !== '') parts.push(DECISIONS[v.decision]);
  return stripAnsi(parts.join(' · ')).replace(/\s+/g, ' ').trim();
}
