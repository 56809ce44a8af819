/**
 * The simulated account and context model. Pure: the environment, the saved state and `now` in;
 * the new state, and the reading the `sim` probe gives, out.
 *
 * An account's remaining % lives in `$SWARM_PLAN/.swarm/sim/run-<N>/<account>.json` so that every
 * generation on one account spends the same quota; each agent's context % (`<lane>-g<gen>`) is kept
 * beside it, so the probe can say how full this agent's window is.
 */
import { UsageError, excerpt } from '../errors.js';
import type { RawReading } from '../core/capacity/capacity.js';
import { stateOf, type CapacityThresholds } from '../core/capacity/thresholds.js';

export interface SimModel {
  /** Start % of a fresh account (SIM_QUOTA, default 100). */
  quota: number;
  /** % of the account spent per step or message (SIM_COST, default 4). */
  cost: number;
  /** % of the context window used per step (SIM_CONTEXT, default 3). */
  context: number;
  /** Delay per step in ms (SIM_STEP_MS, default 200). */
  stepMs: number;
  /** How long an ask waits for its answer, in ms (SIM_ASK_MS, default 30 000). */
  askMs: number;
}

export interface AccountState {
  account: string;
  remaining_pct: number;
  /** Context % used, per agent (`<lane>-g<generation>`). */
  contexts: Record<string, number>;
  updated_at: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function number(env: Env, name: string, fallback: number, max: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || n > max) {
    throw new UsageError(`${name}=${excerpt(text)} is not understood: expected a number from 0 to ${max}`, { hint: `unset ${name} for the default (${fallback})` });
  }
  return n;
}

/** The model from the account's environment; a bad value is a UsageError naming the variable. */
export function simModel(env: Env): SimModel {
  return {
    quota: number(env, 'SIM_QUOTA', 100, 100),
    cost: number(env, 'SIM_COST', 4, 100),
    context: number(env, 'SIM_CONTEXT', 3, 100),
    stepMs: number(env, 'SIM_STEP_MS', 200, 3_600_000),
    askMs: number(env, 'SIM_ASK_MS', 30_000, 3_600_000),
  };
}

export function agentKey(lane: string, generation: number): string {
  return `${lane}-g${generation}`;
}

/** A saved account state, or null when the text is not one. */
export function parseAccountState(text: string, account: string): AccountState | null {
  try {
    const value = JSON.parse(text) as Partial<AccountState>;
    const pct = value.remaining_pct;
    if (typeof pct !== 'number' || !(pct >= 0 && pct <= 100)) return null;
    const contexts: Record<string, number> = {};
    for (const [key, v] of Object.entries(value.contexts ?? {})) if (typeof v === 'number' && v >= 0 && v <= 100) contexts[key] = v;
    return { account, remaining_pct: pct, contexts, updated_at: typeof value.updated_at === 'string' ? value.updated_at : '' };
  } catch {
    return null;
  }
}

/** The saved state, or a fresh account at `quota` % when there is none (or it is unreadable). */
export function accountState(text: string | null, account: string, quota: number, now: string): AccountState {
  return (text === null ? null : parseAccountState(text, account)) ?? { account, remaining_pct: quota, contexts: {}, updated_at: now };
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** Spend `quota` % of the account and add `context` % to this agent's window (both clamped). */
export function spend(state: AccountState, key: string, amount: { quota: number; context: number }, now: string): AccountState {
  return {
    ...state,
    remaining_pct: round(Math.max(0, state.remaining_pct - amount.quota)),
    contexts: { ...state.contexts, [key]: round(Math.min(100, (state.contexts[key] ?? 0) + amount.context)) },
    updated_at: now,
  };
}

/** Tokens a simulated step reads, writes and finds cached; and the made-up prices ($ per million) its spend is figured at. */
export const SIM_STEP_TOKENS = { input: 20_000, output: 1_500, cache_read: 60_000 } as const;
export const SIM_PRICES = { input: 3, output: 15, cache_read: 0.3 } as const;

/**
 * What a simulated agent has spent after `steps` steps (SPEC 10.7's ledger, as the sim's model says):
 * tokens at SIM_STEP_TOKENS a step and a cost at SIM_PRICES, so the demo's spend can be read and
 * checked to the cent. Simulated figures, never a vendor's.
 */
export function simUsage(steps: number): { costUsd: number; tokens: { input: number; output: number; cache_read: number; cache_write: number } } {
  const t = { input: steps * SIM_STEP_TOKENS.input, output: steps * SIM_STEP_TOKENS.output, cache_read: steps * SIM_STEP_TOKENS.cache_read, cache_write: 0 };
  const cost = (t.input * SIM_PRICES.input + t.output * SIM_PRICES.output + t.cache_read * SIM_PRICES.cache_read) / 1e6;
  return { costUsd: Math.round(cost * 1e6) / 1e6, tokens: t };
}

/** A hit usage limit: nothing left on the account. */
export function exhaust(state: AccountState, now: string): AccountState {
  return { ...state, remaining_pct: 0, updated_at: now };
}

/** What the `sim` probe reads: the account's remaining %, its state by the thresholds, this agent's context %. */
export function simReading(state: AccountState, key: string, thresholds: CapacityThresholds): RawReading {
  return {
    state: stateOf(state.remaining_pct, thresholds),
    remainingPct: state.remaining_pct,
    contextPct: state.contexts[key] ?? null,
    resetsAt: null,
  };
}
