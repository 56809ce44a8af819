/**
 * The mock's per-account quota scripts (`swarm drill --real`): each account's used % rises with each model
 * request it makes, from a start by a step, up to 100; a script may answer one request (by its
 * number, from 1) with the usage-limit 429 and every request after it too. The 7-day window stays low.
 * Stateful by design (a counter per account); the readings themselves are a pure function of the count.
 */
import type { MockRateReading, MockRates } from './types.js';

export interface RateScript {
  /** Used % of the 5-hour window at the first request, and the rise per request after. */
  start: number;
  step: number;
  /** From this request on (1-based) the account is rejected: the vendor's 429. */
  rejectAt?: number;
}

/** An account with no script: a flat 10 % used. */
const DEFAULT: RateScript = { start: 10, step: 0 };

/** The reading of request `n` (1-based) under `script`; resets an hour (5 h window) and a week away from `now`. */
export function readingAt(script: RateScript, n: number, nowSeconds: number): MockRateReading {
  const rejected = script.rejectAt !== undefined && n >= script.rejectAt;
  const used = (k: number) => (script.rejectAt !== undefined && k >= script.rejectAt ? 100 : Math.min(100, script.start + script.step * (k - 1)));
  return {
    fiveHourUsed: used(n), weekUsed: Math.min(100, 5 + n), fiveHourResetsAt: nowSeconds + 3600, weekResetsAt: nowSeconds + 7 * 86400, rejected,
    previousFiveHourUsed: n > 1 ? used(n - 1) : null,
  };
}

export function scriptedRates(scripts: Readonly<Record<string, RateScript>>, now: () => number = () => Date.now()): MockRates {
  const counts = new Map<string, number>();
  return (account) => {
    const n = (counts.get(account) ?? 0) + 1;
    counts.set(account, n);
    return readingAt(scripts[account] ?? DEFAULT, n, Math.floor(now() / 1000));
  };
}
