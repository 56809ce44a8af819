/**
 * The resolved settings an agent's `swarm capacity` needs (thresholds, context window), written by
 * `swarm up` to `.swarm/settings.json` so the check at every work boundary parses no YAML. Without
 * that file (no swarm running), swarm.yaml is read, and without that, the kit defaults.
 */
import { join } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { DEFAULT_THRESHOLDS, resolveCapacityThresholds, type CapacityThresholds } from '../core/capacity/thresholds.js';
import { readTextIfExists, writeFileAtomic } from './files.js';
import { DEFAULT_MAX_ASKS } from '../core/swarm/askLimits.js';
import { DEFAULT_TIMEOUTS } from '../core/config/timeouts.js';

export interface AgentSettings {
  capacity: CapacityThresholds;
  contextPressure: number;
  window: number | 'auto';
  headroom: number;
  /** `max_asks` and `timeouts.ask` (SPEC 10.6), for `swarm notify`'s limits on asks; absent in files of older swarms. */
  maxAsks?: number;
  askMs?: number;
}

export function settingsPath(plan: string): string {
  return join(planPaths(plan).swarmDir, 'settings.json');
}

export function writeSettings(plan: string, settings: AgentSettings): void {
  writeFileAtomic(settingsPath(plan), `${JSON.stringify(settings, null, 2)}\n`);
}

/** The limits on asks as the running swarm wrote them; the defaults where it wrote none. Reads no YAML. */
export function readAskSettings(plan: string): { maxAsks: number; askMs: number } {
  let saved: Partial<AgentSettings> = {};
  try {
    saved = JSON.parse(readTextIfExists(settingsPath(plan)) ?? '{}') as Partial<AgentSettings>;
  } catch {
    // a torn or foreign file: the defaults
  }
  const whole = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback);
  return { maxAsks: whole(saved.maxAsks, DEFAULT_MAX_ASKS), askMs: whole(saved.askMs, DEFAULT_TIMEOUTS.ask) };
}

export async function readSettings(plan: string, configFile: string | null, env: NodeJS.ProcessEnv): Promise<AgentSettings> {
  const text = readTextIfExists(settingsPath(plan));
  if (text !== null) {
    try {
      const saved = JSON.parse(text) as AgentSettings;
      // The environment still overrides, as it would for `ak`.
      return { ...saved, capacity: resolveCapacityThresholds(saved.capacity, env) };
    } catch {
      // fall through to the config
    }
  }
  const t = DEFAULT_THRESHOLDS;
  if (configFile) {
    // A computed specifier: the hot bundle of `swarm capacity` keeps the YAML loader out (scripts/bundle-hot.mjs).
    const loader = new URL('../adapters/configFile.js', import.meta.url).href;
    const { loadConfig } = (await import(loader)) as typeof import('./configFile.js');
    const config = loadConfig(configFile, { env, checkKinds: false });
    const c = config.thresholds;
    return { capacity: resolveCapacityThresholds({ low: c.capacityLow, critical: c.capacityCritical }, env), contextPressure: c.contextPressure, window: c.window, headroom: c.headroom };
  }
  return {
    capacity: resolveCapacityThresholds({ low: t.capacityLow, critical: t.capacityCritical }, env),
    contextPressure: t.contextPressure,
    window: t.window,
    headroom: t.headroom,
  };
}
