/**
 * coding-agents-kit's `ak capacity --self --json`, when `ak` is on PATH (SPEC 5: first source).
 * Optional: without it, or when it fails, the caller moves on to the next source.
 */
import { childProcess } from './childProcess.js';
import type { RawReading } from '../core/capacity/capacity.js';
import { findOnPath } from './which.js';

/** Run ak and read its answer; null when ak is absent, fails, or says nothing we understand. */
export function akReading(env: NodeJS.ProcessEnv, timeoutMs = 5000): RawReading | null {
  const ak = findOnPath('ak', env);
  if (!ak) return null;
  try {
    const out = childProcess().execFileSync(ak, ['capacity', '--self', '--json'], { env, encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'ignore'] });
    return parseAkOutput(out);
  } catch {
    return null;
  }
}

export function parseAkOutput(text: string): RawReading | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const state = value.state;
  if (state !== 'ok' && state !== 'low' && state !== 'critical' && state !== 'unknown') return null;
  const pct = numberOrNull(value.remaining_pct ?? value.remainingPct);
  return {
    state,
    remainingPct: pct !== null && pct >= 0 && pct <= 100 ? pct : null,
    contextPct: null,
    resetsAt: typeof value.resets_at === 'string' ? value.resets_at : null,
  };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
