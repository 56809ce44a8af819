/**
 * Capacity readings cached per account (`.swarm/capacity/<account>.json`), so that checks at every
 * work boundary cost a file read, not a vendor call (SPEC 5: cached 300 s).
 */
import { join } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import type { CapacityLine, CapacityState } from '../core/protocol/protocol.js';
import { readTextIfExists, writeFileAtomic } from './files.js';

export type CapacitySource = 'ak' | 'probe' | 'report' | 'none';

export interface CachedReading {
  account: string;
  state: CapacityState;
  remaining_pct: number | null;
  context_pct: number | null;
  resets_at: string | null;
  /** Tokens in context and the window the agent reported, where the reading told them (SPEC 10.7); absent in older files. */
  context_tokens?: number | null;
  window?: number | null;
  source: CapacitySource;
  /** ISO time of the reading. */
  at: string;
  raw?: string;
}

function cachePath(plan: string, account: string): string {
  return join(planPaths(plan).capacityDir, `${account.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

export function readCachedReading(plan: string, account: string): CachedReading | null {
  const text = readTextIfExists(cachePath(plan, account));
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as CachedReading;
    return typeof value.state === 'string' && typeof value.at === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function saveReading(plan: string, reading: CachedReading): void {
  writeFileAtomic(cachePath(plan, reading.account), `${JSON.stringify(reading)}\n`, 0o644, { durable: false });
}

/** A lane's capacity line, kept as the account's latest reported reading. */
export function saveReportedCapacity(plan: string, account: string, line: CapacityLine, now: Date): void {
  saveReading(plan, {
    account,
    state: line.state,
    remaining_pct: line.pct,
    context_pct: line.contextPct,
    resets_at: null,
    source: 'report',
    at: now.toISOString(),
    raw: line.raw,
  });
}
