/**
 * Is the plan done, still moving, or stuck (SPEC 7)? Pure: judged from the lanes' states.
 */
import { handoffInFlight } from '../../machine/laneState.js';
import type { LaneState } from '../../machine/types.js';

export type Progress =
  | { kind: 'running' }
  | { kind: 'all_done' }
  | { kind: 'stuck'; why: string };

/**
 * `all_done` when every lane is done; `stuck` when no lane can move any more and at least one is
 * stopped or blocked (or held for attention); else `running`. A swarm with no lanes is all done.
 */
export function progress(lanes: readonly LaneState[]): Progress {
  if (lanes.every((l) => l.state === 'done')) return { kind: 'all_done' };
  const movable = lanes.filter((l) => l.state !== 'done' && !held(l));
  if (movable.length > 0) return { kind: 'running' };
  const why = lanes
    .filter((l) => l.state !== 'done')
    .map((l) => `${l.name} ${describe(l)}`)
    .join('; ');
  return { kind: 'stuck', why };
}

/**
 * A lane that cannot move without a human. A lost lane whose successor is on its way still moves,
 * and so does one whose gate runs: the gate's result decides (passed: done; failed: a successor).
 */
function held(lane: LaneState): boolean {
  // A waiting lane (SPEC 10.6 `after:`) moves only once the lanes it waits for are done: it moves nothing itself.
  if (lane.phase === 'attention' || lane.state === 'stopped' || lane.state === 'blocked' || lane.state === 'waiting') return true;
  return lane.state === 'lost' && !handoffInFlight(lane) && lane.gate === null;
}

function describe(lane: LaneState): string {
  if (lane.state === 'blocked' && lane.blocked) return `blocked ${lane.blocked.class}: ${lane.blocked.what}`;
  if (lane.phase === 'attention') return 'held: no successor accepted in time on any account';
  if (lane.state === 'stopped') return `stopped at g${lane.generation} (max generations)`;
  if (lane.state === 'waiting') return `waiting for ${(lane.waitingFor ?? []).join(', ') || 'other lanes'}`;
  return lane.state;
}
