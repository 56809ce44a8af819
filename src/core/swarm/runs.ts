/**
 * Runs (SPEC 10.1): a run begins when `swarm up` finds no open run; every other `up` continues it.
 * Every record an agent writes carries its run (SWARM_RUN): a record of another run changes nothing,
 * and a record with no run counts only when it names a live agent of this run (lane, generation, and
 * an epoch no older than the run's first). Pure.
 */
import type { InboxRecord } from '../protocol/inbox.js';
import type { LaneState } from '../../machine/types.js';
import { isLive } from '../../machine/laneState.js';
import type { SwarmState } from './state.js';

/** The number of the run that begins after `previous` (none saved: 0); runs count from 1. */
export function nextRun(previous: number | null | undefined): number {
  return (previous ?? 0) + 1;
}

/** The run a saved state belongs to (a state saved before runs were numbered: the first). */
export function runOf(state: Pick<SwarmState, 'run'>): number {
  return state.run ?? 1;
}

export type RecordVerdict = { counts: true } | { counts: false; why: string };

/**
 * Whether an inbox record counts for the open run. `lane`: the lane (or lead) its sender's agent
 * belongs to in this run, if any. The developer's own records (`swarm answer`) name no agent: only
 * their run is checked.
 */
export function recordVerdict(state: Pick<SwarmState, 'run' | 'runEpoch'>, lane: LaneState | undefined, record: InboxRecord): RecordVerdict {
  const run = runOf(state);
  if (record.run !== undefined && record.run !== null) {
    return record.run === run ? { counts: true } : { counts: false, why: `a record of run ${record.run}; this is run ${run}` };
  }
  if (record.role === 'developer') return { counts: true };
  if (!lane || !isLive(lane)) return { counts: false, why: `no run, and ${record.from} has no live agent in run ${run}` };
  const generations = [lane.paneId === null ? null : lane.generation, lane.handoff?.successor?.generation ?? null];
  if (record.generation === null || !generations.includes(record.generation)) {
    return { counts: false, why: `no run, and ${record.from} g${record.generation ?? '?'} is not a live agent of run ${run}` };
  }
  // Epochs only rise within a run, and a run claims the lead anew: an epoch older than this run's first is another run's.
  const first = state.runEpoch ?? 0;
  if (record.epoch === null || record.epoch < first) {
    return { counts: false, why: `no run, and epoch ${record.epoch ?? '?'} is older than run ${run}'s first (${first})` };
  }
  return { counts: true };
}
