/**
 * Codex's capacity probe: the lane's rollout under CODEX_HOME, read on from a saved offset, tells
 * the binding window, the context, and a usage-limit turn's hard limit.
 */
import { limited, type ProbeResult, type ProbeTarget } from '../../core/capacity/probe.js';
import { laneRollout } from './rolloutProbe.js';

export function codexProbe(target: ProbeTarget): ProbeResult | null {
  const state = laneRollout(target.plan, target.lane, target.generation, target.env?.CODEX_HOME, Date.now());
  if (state === null) return null;
  return { reading: limited(state.reading, state.hardLimit), cacheable: false, hardLimit: state.hardLimit };
}
