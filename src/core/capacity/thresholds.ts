/**
 * Capacity thresholds, caps and the continue/handoff decision; context lines and windows.
 * Pure: environment values are passed in.
 *
 * Decisions where SPEC 5 is silent: an empty env value counts as unset; a cap may end in `%`;
 * an account capped twice keeps the lower cap; an empty ANTHROPIC_MODEL falls through to
 * ANTHROPIC_DEFAULT_OPUS_MODEL; a reported window that is not a positive number is ignored.
 */
import { UsageError, excerpt } from '../../errors.js';
import { stripAnsi, type CapacityState } from '../protocol/protocol.js';

export interface Thresholds {
  capacityLow: number;
  capacityCritical: number;
  contextPressure: number;
  /** Tokens, or 'auto' (as the agent reports it, else guessed from the model name). */
  window: number | 'auto';
  headroom: number;
  maxGenerations: number;
  /** Claude Code's auto-compact: off (DISABLE_AUTO_COMPACT=1, every drop in context explained) or auto. */
  compact: CompactMode;
}

export const COMPACT_MODES = ['off', 'auto'] as const;
export type CompactMode = (typeof COMPACT_MODES)[number];

export const DEFAULT_THRESHOLDS: Thresholds = {
  capacityLow: 25,
  capacityCritical: 10,
  contextPressure: 60,
  window: 'auto',
  headroom: 50_000,
  maxGenerations: 8,
  compact: 'off',
};

export type Decision = 'continue' | 'handoff_soon' | 'handoff_now';

export interface CapacityThresholds { low: number; critical: number }

export const KIT_DEFAULTS: CapacityThresholds = { low: 25, critical: 10 };

const PCT = /^\d*\.?\d+$/;

function fromEnv(name: string, value: string | undefined): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!PCT.test(text) || n > 100) {
    throw new UsageError(`${name}=${excerpt(text)} is not a percentage: expected a number from 0 to 100`, {
      hint: `unset ${name} or set it to a number such as ${name === 'AGENTKIT_CAPACITY_LOW' ? 25 : 10}`,
    });
  }
  return n;
}

/**
 * Config values (or kit defaults), overridden by AGENTKIT_CAPACITY_LOW / _CRITICAL in env. Invalid
 * env value (not a number 0–100, or critical >= low) → throws UsageError naming the variable and the value.
 */
export function resolveCapacityThresholds(
  config: Partial<CapacityThresholds>,
  env: Readonly<Record<string, string | undefined>>,
): CapacityThresholds {
  const envLow = fromEnv('AGENTKIT_CAPACITY_LOW', env.AGENTKIT_CAPACITY_LOW);
  const envCritical = fromEnv('AGENTKIT_CAPACITY_CRITICAL', env.AGENTKIT_CAPACITY_CRITICAL);
  const low = envLow ?? config.low ?? KIT_DEFAULTS.low;
  const critical = envCritical ?? config.critical ?? KIT_DEFAULTS.critical;
  if (critical >= low) {
    const lowName = envLow === undefined ? 'thresholds.capacity_low' : 'AGENTKIT_CAPACITY_LOW';
    const criticalName = envCritical === undefined ? 'thresholds.capacity_critical' : 'AGENTKIT_CAPACITY_CRITICAL';
    throw new UsageError(
      `${criticalName}=${critical} is not below ${lowName}=${low}: the critical threshold must be lower than the low one`,
    );
  }
  return { low, critical };
}

/**
 * AGENTKIT_CAPACITY_CAP=@acct=N[,@acct2=M] → Map(acct → N). Empty/undefined → empty map.
 * Malformed → throws UsageError naming AGENTKIT_CAPACITY_CAP and the bad part.
 */
export function parseCaps(value: string | undefined): Map<string, number> {
  const caps = new Map<string, number>();
  for (const part of (value ?? '').split(',')) {
    const text = part.trim();
    if (text === '') continue;
    const m = /^@([^\s=,@]+)\s*=\s*(\d*\.?\d+)\s*%?$/.exec(text);
    const n = Number(m?.[2]);
    if (!m?.[1] || !(n <= 100)) {
      throw new UsageError(`AGENTKIT_CAPACITY_CAP has a bad part "${excerpt(text)}": expected @<account>=<pct> with pct 0 to 100`, {
        hint: 'e.g. AGENTKIT_CAPACITY_CAP=@work2=20,@work3=50',
      });
    }
    caps.set(m[1], Math.min(n, caps.get(m[1]) ?? n));
  }
  return caps;
}

/** Lower a remaining % by the account's cap; never raises; null (unknown) stays null. */
export function applyCap(account: string, remainingPct: number | null, caps: ReadonlyMap<string, number>): number | null {
  if (remainingPct === null) return null;
  const cap = caps.get(account.replace(/^@/, ''));
  return cap === undefined ? remainingPct : Math.min(remainingPct, cap);
}

/** Remaining % → state: ≤ critical → critical, ≤ low → low, else ok; null → unknown. */
export function stateOf(remainingPct: number | null, t: CapacityThresholds): CapacityState {
  if (remainingPct === null || Number.isNaN(remainingPct)) return 'unknown';
  if (remainingPct <= t.critical) return 'critical';
  if (remainingPct <= t.low) return 'low';
  return 'ok';
}

/** Context lines in tokens: at = max(10000, window - headroom), warnAt = max(1000, at - 20000). */
export function contextLines(window: number, headroom: number): { at: number; warnAt: number } {
  const at = Math.max(10_000, window - headroom);
  return { at, warnAt: Math.max(1_000, at - 20_000) };
}

export interface DecisionInput {
  state: CapacityState;
  /** Context in use, tokens. */
  contextTokens: number | null;
  /** % of the window used. */
  contextPct: number | null;
  /** Tokens. */
  window: number;
  headroom: number;
  /** %. */
  contextPressure: number;
  /** Claude PreCompact trigger auto: the line was missed → handoff_now. */
  autoCompacted?: boolean;
}

/**
 * critical → handoff_now; low → handoff_soon; tokens ≥ at or pct ≥ contextPressure or autoCompacted
 * → handoff_now; tokens ≥ warnAt or pct ≥ contextPressure-10 → handoff_soon; unknown alone →
 * continue (never ok, but no reading is no reason to move). The stronger decision wins.
 */
export function decide(input: DecisionInput): Decision {
  const { at, warnAt } = contextLines(input.window, input.headroom);
  const tokens = input.contextTokens;
  const pct = input.contextPct;
  if (
    input.state === 'critical' ||
    input.autoCompacted === true ||
    (tokens !== null && tokens >= at) ||
    (pct !== null && pct >= input.contextPressure)
  ) {
    return 'handoff_now';
  }
  if (
    input.state === 'low' ||
    (tokens !== null && tokens >= warnAt) ||
    (pct !== null && pct >= input.contextPressure - 10)
  ) {
    return 'handoff_soon';
  }
  return 'continue';
}

/**
 * SPEC 5: a separate `1m` token (e.g. claude-opus-4[1m], "sonnet 1m") → 1,000,000; else `haiku` →
 * 200,000; else 1,000,000. Undefined/empty → 1,000,000.
 */
export function defaultWindow(model: string | undefined): number {
  if (model === undefined || /(?:^|[^a-z0-9])1m(?:$|[^a-z0-9])/i.test(model)) return 1_000_000;
  return /haiku/i.test(model) ? 200_000 : 1_000_000;
}

/**
 * The window: config number wins; 'auto' → reported window if any, else
 * defaultWindow(ANTHROPIC_MODEL ?? ANTHROPIC_DEFAULT_OPUS_MODEL) from the env passed in.
 */
export function resolveWindow(
  configured: number | 'auto',
  reported: number | null,
  env: Readonly<Record<string, string | undefined>>,
): number {
  if (configured !== 'auto') return configured;
  if (reported !== null && reported > 0) return reported;
  const model = [env.ANTHROPIC_MODEL, env.ANTHROPIC_DEFAULT_OPUS_MODEL].find((m) => m !== undefined && m.trim() !== '');
  return defaultWindow(model);
}

/** The overflow texts of SPEC 5: a hard limit like a usage screen. */
export const OVERFLOW_TEXTS: readonly string[] = [
  'prompt is too long',
  'context length exceeded',
  'maximum context length',
  'too many total text bytes',
  'input length and max_tokens exceed',
];

/** The SPEC's overflow texts, case-insensitive, anywhere in any of the texts (escapes and line wraps ignored). */
export function isOverflow(...texts: string[]): boolean {
  return texts.some((text) => {
    const flat = stripAnsi(text.replace(/\r/g, '\n')).replace(/\s+/g, ' ').toLowerCase();
    return OVERFLOW_TEXTS.some((phrase) => flat.includes(phrase));
  });
}
