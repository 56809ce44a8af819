/**
 * A lane added at run time (`swarm lane add`, SPEC 6), decided by the engine as it reads the inbox:
 * the command checks before it queues, but two adds can pass those checks before the engine reads
 * either, and a lead fenced since it queued one is no longer the lead. So the engine decides again:
 * at most `max_lanes`, a name of the rule (core/config/names.ts) and a checkout of their own, from the lead of
 * the current epoch. Pure.
 */
import type { InboxRecord } from '../protocol/inbox.js';
import { nameRefusal } from '../config/names.js';

export interface AddedLane {
  name: string;
  task: string;
  checkout: string;
  kind: string | null;
  command: string | null;
}

export type LaneAddEffect =
  | { type: 'journal'; kind: 'delegation' | 'intervention'; event: 'lane_added' | 'lane_add_refused'; lane: string; data: Record<string, unknown> }
  /** Start the lanes that have no agent yet, and tell plan completion a lane is on its way. */
  | { type: 'start_added' };

export interface LaneAddContext {
  /** The lanes of swarm.yaml. */
  lanes: { name: string; checkout: string }[];
  leadName: string;
  maxLanes: number;
  /** The epoch the engine knows (the lead record's). */
  epoch: number;
}

export function reduceLaneAdd(added: AddedLane[], record: Extract<InboxRecord, { kind: 'lane' }>, ctx: LaneAddContext): { added: AddedLane[]; effects: LaneAddEffect[] } {
  const why = refusal(added, record, ctx);
  if (why !== null) {
    if (why === 'exists') return { added, effects: [] }; // the same add read again after a restart
    return { added, effects: [{ type: 'journal', kind: 'intervention', event: 'lane_add_refused', lane: record.name, data: { by: record.from, why } }] };
  }
  const lane: AddedLane = { name: record.name, task: record.task, checkout: record.checkout, kind: record.lane_kind, command: record.command ?? null };
  return {
    added: [...added, lane],
    effects: [
      { type: 'journal', kind: 'delegation', event: 'lane_added', lane: record.name, data: { by: record.from, task: record.task } },
      { type: 'start_added' },
    ],
  };
}

function refusal(added: AddedLane[], record: Extract<InboxRecord, { kind: 'lane' }>, ctx: LaneAddContext): string | null {
  const lanes = [...ctx.lanes, ...added];
  if (record.name === ctx.leadName || lanes.some((l) => l.name === record.name)) return 'exists';
  const badName = nameRefusal('the lane name', record.name, 'agent');
  if (badName !== null) return badName;
  if (record.epoch !== null && record.epoch < ctx.epoch) return `fenced: queued at epoch ${record.epoch}, the lead is at epoch ${ctx.epoch} now`;
  if (lanes.length >= ctx.maxLanes) return `the swarm has ${lanes.length} lanes, its max_lanes (${ctx.maxLanes}): raise max_lanes in swarm.yaml`;
  if (lanes.some((l) => l.checkout === record.checkout)) return `${record.checkout} is another lane's checkout: give each lane its own git worktree`;
  return null;
}
