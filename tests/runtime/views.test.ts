/** The dashboard's lane rows from the engine state: each with its account's forecast (SPEC 10.7). */
import { describe, expect, it } from 'vitest';
import { laneViews } from '../../src/runtime/views.js';
import { initialLane } from '../../src/machine/laneState.js';
import type { EngineState } from '../../src/runtime/engineState.js';

const MIN = 60_000;

function source(samples: EngineState['samples'], state: 'working' | 'done' = 'working') {
  const lane = { ...initialLane({ name: 'lane-a', role: 'lane', account: 'o1', now: 0 }), state };
  const lead = initialLane({ name: 'lead', role: 'lead', account: 'a1', now: 0 });
  return {
    state: { order: ['lead', 'lane-a'], leadName: 'lead', lanes: { lead, 'lane-a': lane }, samples } as unknown as EngineState,
    config: { accounts: [{ id: 'o1', vendor: 'openai' }], thresholds: { capacityCritical: 10 } },
    taskOf: () => 'task',
  };
}

describe('laneViews', () => {
  it('gives each lane its account\'s "~Nm left" once three readings over 30 s show a burn', () => {
    const burning = { o1: [{ at: 0, pct: 70 }, { at: 10 * MIN, pct: 60 }, { at: 20 * MIN, pct: 50 }] };
    expect(laneViews(source(burning))).toMatchObject([{ vendor: 'openai', left: '~40m left' }]);
    expect(laneViews(source({ o1: [{ at: 0, pct: 70 }] }))[0]!.left).toBeNull();
    expect(laneViews(source(undefined))[0]!.left).toBeNull();
    // A done lane's account is no longer its concern.
    expect(laneViews(source(burning, 'done'))[0]!.left).toBeNull();
  });
});
