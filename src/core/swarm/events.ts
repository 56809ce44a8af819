/**
 * What goes into the swarm's reducer (core/swarm/reduce.ts) and what comes out of it besides the
 * lane machines' own effects. Events come from the runtime's input adapters (inbox, panes, hooks,
 * deadlines, `swarm answer`) and from the results of effects; effects are plain data, carried out
 * by runtime/swarmEffects.ts. Types only.
 */
import type { LaneEvent, TimerName } from '../../machine/types.js';
import type { Reading } from '../accounts/leases.js';
import type { InboxRecord } from '../protocol/inbox.js';
import type { AccountEvent } from './accounts.js';
import type { AskEvent } from './asks.js';
import type { Figures } from '../ledger/ledger.js';

export type SwarmEvent =
  /** One lane's (or the lead's) own event, for its machine. */
  | { type: 'lane'; lane: string; event: LaneEvent }
  /** Lanes' states are made, all in one step (first start, or a lane added): no agent yet; those known stay. */
  | { type: 'lanes_created'; lanes: { name: string; role: 'lead' | 'lane'; account: string | null }[] }
  /** A lane's deadline passed (ignored unless that very deadline is still set). */
  | { type: 'timer'; lane: string; timer: TimerName; at: number }
  | { type: 'ask'; event: AskEvent }
  /** Lead record changes read from the inbox, or made by swarm (`claimed`, `epoch_raised`), and a lead successor starting. */
  | { type: 'lead_handover'; to: string; packet: string; newEpoch: number }
  | { type: 'lead_takeover'; from: string; newEpoch: number }
  | { type: 'lead_claimed'; epoch: number; lead: string; account: string }
  | { type: 'lead_epoch_raised'; epoch: number }
  /** Another claim to the lead met swarm's takeover and won (runtime/leadSuccession.ts): the successor goes by its name. */
  | { type: 'lead_successor_named'; name: string; epoch: number }
  | { type: 'lead_successor_starting' }
  /** The plan's end: the lead released it, the release deadline passed, the record is released, or a restart re-arms. */
  | { type: 'plan'; event: 'lead_released' | 'release_due' | 'record_released' | 'resume' }
  | { type: 'lane_add'; record: Extract<InboxRecord, { kind: 'lane' }> }
  | { type: 'account'; event: AccountEvent }
  /**
   * An agent's capacity reading (core/swarm/readings.ts): a `swarm capacity` record, or a report's
   * capacity line. `lane`: the sender's lane (null: none of this swarm), `from` its agent's name;
   * `named`: the account the reading names (null: none). `verdict`: the check's lane event, carried
   * out only when the reading is the sender's own.
   */
  | {
      type: 'reading'; lane: string | null; from: string; generation: number | null; named: string | null;
      reading: Reading; source: 'report' | 'capacity'; verdict: Extract<LaneEvent, { type: 'verdict' }> | null;
    }
  /** A lease was released: every lane hears of it (one waiting for an account picks again). */
  | { type: 'account_freed'; account: string }
  | { type: 'session'; lane: string; generation: number; sessionId: string | null; transcriptPath: string | null }
  /**
   * The ledger (SPEC 10.7, core/ledger/ledger.ts): the agents' usage records of a look at their usage
   * files (runtime/usageLook.ts), with how far each file was read; or an agent's numbered turn end.
   */
  | { type: 'usage'; seen: readonly UsageSeen[]; reads: readonly { spool: string; offset: number }[] }
  | { type: 'turn'; agent: string; generation: number; account: string | null; turn: number }
  | { type: 'host_lost'; reason: string }
  /**
   * The inbox was read (and its records handled) up to `offset`; `tail`: where a last line without its
   * newline starts (null: none); `torn`: bytes of writes cut short that were skipped.
   */
  | { type: 'inbox_read'; reads: readonly { spool: string; offset: number; tail: number | null; torn: readonly { offset: number; bytes: number }[] }[] }
  /** The deadline of a last inbox line without its newline passed: read the inbox again. */
  | { type: 'inbox_due' }
  /** Look at the plan's end now (the run's start). */
  | { type: 'settle' };

/**
 * One usage record as the ledger takes it: one process's cumulative spend as its agent told it.
 * `agent`: the lane (the lead lane for any lead agent) or `<lane>.review`; `account`: the one the
 * engine knows the agent holds.
 */
export interface UsageSeen {
  agent: string;
  generation: number;
  account: string | null;
  session: string;
  figures: Figures;
  turns: number | null;
}

export type SwarmEffect =
  | { type: 'journal'; kind: 'observation' | 'delegation' | 'intervention'; event: string; lane: string | null; data: Record<string, unknown> }
  /** A message to the lead's mailbox (its successor's once a handover is under way). */
  | { type: 'tell_lead'; text: string }
  /** One lead notice to every lane, journaled once as lead_notice. */
  | { type: 'tell_lanes'; text: string; agent: string; epoch: number }
  /** Point the new lead at its mailbox. */
  | { type: 'poke'; agent: string }
  /** Tell the lead that was that it no longer leads (its mailbox), journaled as lead_stand_down. */
  | { type: 'tell_stale_lead'; agent: string; text: string; lead: string; epoch: number }
  /**
   * A lane's agent is promoted to lead in place (core/swarm/promotion.ts): claim lead.json for `as` (at
   * the epoch a handover to the lane raised, else one above), then tell the lane (`promote`).
   */
  | { type: 'promote_lane'; lane: string; generation: number; as: string }
  /** Kill a pane (a lead taken over after unanswered asks). */
  | { type: 'kill'; paneId: string }
  /** Release the lead record if it is still held (journal lead_released), then feed `record_released`. */
  | { type: 'release_plan'; why: string }
  /** Start the lanes that have no agent yet (a lane added). */
  | { type: 'start_added' }
  /** Read the inbox now (a last line's deadline passed: it is torn unless it was finished). */
  | { type: 'read_inbox' }
  /** The run is over: `notify_command` hears of plan_done (code 0), then the run settles. */
  | { type: 'finish'; code: 0 | 1; why: string };
