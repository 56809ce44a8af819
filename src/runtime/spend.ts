/**
 * An agent's spend and turns, from its records to the ledger (SPEC 10.7; core/ledger/ledger.ts folds
 * them): the lanes' records through the inbox router, a reviewer's through runtime/reviewers.ts.
 */
import type { InboxRecord } from '../core/protocol/inbox.js';
import { figuresOf } from '../core/ledger/ledger.js';
import { reviewedLane } from '../machine/review.js';
import type { Engine } from './engine.js';

/**
 * An agent's spend (SPEC 10.7), for the ledger under `agent` (its lane, or `<lane>.review`): the
 * account is the one the engine knows the agent holds, else the one its record names. Figures are
 * data: the fold (core/ledger/ledger.ts) takes only numbers ≥ 0.
 */
export function usage(engine: Engine, agent: string | null, record: Extract<InboxRecord, { kind: 'usage' }>): void {
  if (agent === null || record.generation === null) return;
  const session = typeof record.session_id === 'string' ? record.session_id : '';
  const turns = typeof record.turns === 'number' ? record.turns : null;
  engine.dispatch({ type: 'usage', agent, generation: record.generation, account: accountOf(engine, agent, record), session, figures: figuresOf(record.cost_usd, record.tokens), turns });
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
