/**
 * The swarm's state (`.swarm/state.json`): every lane's machine state and what the swarm itself
 * decides (succession, asks, plan end, lanes added, accounts), with its deadlines and its pending
 * effects — the intent records a restart finishes. Only core/swarm/reduce.ts makes a new one; the
 * runtime's engine holds it and saves it after every step, before the step's effects run.
 */
import type { Effect, LaneState, TimerName } from '../../machine/types.js';
import type { Reading } from '../accounts/leases.js';
import type { Sample } from '../capacity/forecast.js';
import type { Sessions } from './sessions.js';
import type { HostLost } from './hostLost.js';
import type { AddedLane } from './laneAdd.js';
import type { SwarmEffect } from './events.js';
import type { InboxTail } from '../protocol/inbox.js';
import type { Ledger } from '../ledger/ledger.js';

/**
 * An intent not yet carried out: a lane machine's effect (tagged with its lane), or the swarm's own
 * (lane null). `id` (`<run>.<n>`, given by the engine as it saves the intent; absent in older files)
 * marks what the intent wrote: a journal line carries it as `intent`, so a restart that finds the
 * line already written does not write it again.
 */
export type PendingEffect = ({ lane: string; effect: Effect } | { lane: null; effect: SwarmEffect }) & { id?: string };

export interface TimerEntry {
  lane: string;
  timer: TimerName;
  at: number;
}

/** One spool as read so far. */
export interface SpoolRead {
  offset: number;
  tail?: InboxTail | null;
}

export interface SwarmState {
  version: 1;
  name: string;
  session: string;
  backend: 'tmux' | 'pty';
  /** The run this state is of (core/swarm/runs.ts); absent in files saved before runs were numbered. */
  run?: number;
  /** The epoch the lead was first claimed at in this run: a record with no run and an older epoch is another run's. */
  runEpoch?: number;
  /**
   * How far each agent's spool of this run has been read (SPEC 10.3; `r<run>/<name>-g<N>`), and a last
   * line without its newline, read again until its deadline tears it. Absent in older files: read from the start.
   */
  spools?: Record<string, SpoolRead>;
  /** The lead first, then lanes in start order. */
  lanes: Record<string, LaneState>;
  order: string[];
  leadName: string;
  /** The agent name the current lead goes by (a successor lead may be `lead-b`). */
  leadAgent: string;
  /** The epoch the engine has acted on (lead.json is the truth: see docs/engine.md, "State kept once"). */
  epoch: number;
  limited: Record<string, string | null>;
  /** Accounts a successor showed a blocking screen on (login, consent, payment, offline) → the screen's text. */
  notReady?: Record<string, string>;
  readings: Record<string, Reading>;
  /** Each account's readings over this run, for the forecast (SPEC 10.7); absent in older files. */
  samples?: Record<string, Sample[]>;
  timers: TimerEntry[];
  pending: PendingEffect[];
  /** How many intents were given an id (PendingEffect.id); absent in older files. */
  intents?: number;
  allDoneTold: boolean;
  /** The release deadline running since every lane was done (epoch ms; core/swarm/planEnd.ts); absent in older files. */
  releaseAt?: number | null;
  planDone: boolean;
  /** Lanes added at run time by the lead (`swarm lane add`). */
  added: AddedLane[];
  /** The agent name a lead successor in flight will go by. */
  leadNext: string | null;
  /** Asks to the lead not yet answered, and how many timed out in a row. */
  asks: { from: string; at: number }[];
  askTimeouts: number;
  /** What each agent generation spent, and when and how it ended (SPEC 10.7, core/ledger/); absent in older files. */
  ledger?: Ledger;
  /** How far each agent's usage file of this run has been read (spool → bytes); absent: from the start. */
  usageRead?: Record<string, number>;
  /** The agent session each lane's current generation runs (Claude Code's SessionStart hook). */
  sessions?: Sessions;
  /** When `swarm down` ended this run (runEnd.ts): the next `swarm up` starts afresh. */
  ended?: string;
  /** The tmux server died under this run (runEnd.ts): the next `swarm up` resumes. */
  hostLost?: HostLost;
}
