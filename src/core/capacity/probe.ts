/**
 * A capacity probe (SPEC 5: the second source, after `ak`): what an agent's own files say about its
 * account and context, read by its kind (kinds/<kind>/probe.ts). The probes read local files, so
 * their readings are not cached. A hard limit reads as critical with 0% left: hand off now.
 */
import type { RawReading } from './capacity.js';

export interface ProbeTarget {
  plan: string;
  account: string;
  lane: string;
  generation: number;
  /** The run the agent belongs to (SWARM_RUN): a simulated account's quota is the run's. */
  run?: number | null;
  /** The agent's environment (CLAUDE_CONFIG_DIR, CODEX_HOME, SWARM_SESSION_ID); default none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The context window in tokens, for a transcript's %; default unknown. */
  window?: number | null;
}

export interface ProbeResult {
  reading: RawReading;
  /** Whether the reading may be cached for the usual 300 s (false for cheap local files). */
  cacheable: boolean;
  /** A hard limit the agent's files show (usage_limit, overflow, login), or null. */
  hardLimit?: string | null;
}

/** A reading with the hard limit the agent's files show: a usage limit is critical at 0%, an overflow a full context. */
export function limited(reading: RawReading, hardLimit: string | null): RawReading {
  if (hardLimit === 'usage_limit') return { ...reading, state: 'critical', remainingPct: 0 };
  if (hardLimit === 'overflow') return { ...reading, contextPct: 100 };
  return reading;
}
