/**
 * Capacity thresholds, caps and the continue/handoff decision; context lines and windows.
 * Pure: environment values are passed in.
 */
import type { CapacityState } from './protocol.js';

export interface Thresholds {
  capacityLow: number;
  capacityCritical: number;
  contextPressure: number;
  /** Tokens, or 'auto' (as the agent reports it, else guessed from the model name). */
  window: number | 'auto';
  headroom: number;
  maxGenerations: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  capacityLow: 25,
  capacityCritical: 10,
  contextPressure: 60,
  window: 'auto',
  headroom: 50_000,
  maxGenerations: 8,
};

export type Decision = 'continue' | 'handoff_soon' | 'handoff_now';
