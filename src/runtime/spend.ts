/**
 * An agent's spend and turns, from its records to the ledger (SPEC 10.7; core/ledger/ledger.ts folds
 * them): usage records through runtime/usageLook.ts, numbered turn ends through the inbox router (a
 * reviewer's through runtime/reviewers.ts).
 */
import type { InboxRecord } from '../core/protocol/inbox.js';
import type { UsageSeen } from '../core/swarm/events.js';
import { figuresOf } from '../core/ledger/ledger.js';
import { reviewedLane } from '../machine/review.js';
import type { Engine } from './engine.js';

type UsageRecord = Extract<InboxRecord, { kind: 'usage' }>;

/**
 * A usage record as the ledger takes it, under its agent (a lane — the lead lane for any lead agent —
 * or `<lane>.review`), on the account the engine knows the agent holds, else the one its record names;
 * null for an agent of no lane.
 */
export function usageSeen(engine: Engine, record: UsageRecord): UsageSeen | null {
  return seenUnder(record, (from) => engine.laneOfAgent(from), (agent) => accountOf(engine, agent, record));
}

/**
 * A usage record as the ledger takes it, by the engine (above) or by `swarm status` with no engine
 * (runtime/ledgerNow.ts): a reviewer's under `<lane>.review`, any other agent's under the lane `laneOf`
 * names (null: an agent of no lane, not counted), on the account `accountOf` gives. Figures are data:
 * the fold takes only numbers ≥ 0.
 */
export function seenUnder(record: UsageRecord, laneOf: (from: string) => string | null, accountOf: (agent: string) => string | null): UsageSeen | null {
  const agent = record.role === 'reviewer' ? (reviewedLane(record.from) === null ? null : record.from) : laneOf(record.from);
  if (agent === null || record.generation === null) return null;
  const session = typeof record.session_id === 'string' ? record.session_id : '';
  const turns = typeof record.turns === 'number' ? record.turns : null;
  return { agent, generation: record.generation, account: accountOf(agent), session, figures: figuresOf(record.cost_usd, record.tokens), turns };
}

/** A numbered turn end, for the ledger's turns. */
export function turn(engine: Engine, agent: string, record: Extract<InboxRecord, { kind: 'hook' }>): void {
  if (typeof record.turn !== 'number' || record.generation === null) return;
  engine.dispatch({ type: 'turn', agent, generation: record.generation, account: accountOf(engine, agent, record), turn: record.turn });
}

function accountOf(engine: Engine, agent: string, record: InboxRecord): string | null {
  const reviewed = reviewedLane(agent);
  const reviewer = reviewed === null ? null : (engine.lane(reviewed)?.review?.reviewer ?? null);
  if (reviewer !== null && reviewer.seq === record.generation) return reviewer.account;
  const lane = engine.lane(agent);
  if (lane && lane.generation === record.generation && lane.account !== null) return lane.account;
  const successor = lane?.handoff?.successor;
  if (successor && successor.generation === record.generation) return successor.account;
  return record.account;
}
