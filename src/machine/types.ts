/**
 * The lane machine's vocabulary (docs/engine.md): lane state, events in, effects out, and the
 * constants its rules name. Types and values only; the helpers live where their names say
 * (laneState, step, effects, notices, successor, degrade). Pure.
 */
import type { CapacityState, EscalationClass, Report } from '../core/protocol/protocol.js';
import type { PacketReason } from '../core/packet/packet.js';
import type { Decision } from '../core/capacity/thresholds.js';
import type { ProcessId } from '../core/process/procStat.js';
import type { ResumeChoice } from '../core/swarm/sessionResume.js';

export type LaneStatus = 'starting' | 'working' | 'blocked' | 'done' | 'lost' | 'stopped' | 'waiting';
export type Phase =
  | 'near' | 'writing' | 'reported' | 'spawning' | 'accepted' | 'rejected' | 'waiting' | 'degraded' | 'attention' | 'stopped';
export type ScreenClass = 'usage_limit' | 'overflow' | 'permission' | 'bypass' | 'login' | 'consent' | 'payment';
export type TimerName = 'accept' | 'packet' | 'stall' | 'reset' | 'retire' | 'review' | 'resume';
export type BlockClass = EscalationClass | 'bypass';
/** The screens that stop a successor at its start: its account is not ready. */
export type StartScreen = 'login' | 'consent' | 'payment' | 'bypass' | 'offline';
export const START_SCREENS: readonly StartScreen[] = ['login', 'consent', 'payment', 'bypass', 'offline'];

/**
 * Why a lane is blocked. `source` says what can unblock it: a screen going away, a new report, the
 * agent's own signal that its turn went on (a Claude Code hook), or a human.
 */
export interface Blocked { class: BlockClass; what: string; source: 'report' | 'screen' | 'signal' | 'engine' }

/** What an agent's structured signal (hook, status line, rollout) means to its lane. */
export type SignalClass = 'usage_limit' | 'overflow' | 'payment' | 'login' | 'permission' | 'handoff_now' | 'turn_end';

export interface Successor {
  generation: number; account: string; paneId: string | null;
  /** Epoch ms by which it must accept. */
  deadline: number;
  /** When its pane was seen (spawned or adopted); null until then. For the crash-loop rule. */
  spawnedAt: number | null;
  /**
   * How often it was started again after its pane vanished while swarm was down (resume.ts); an older
   * state file says `respawned: true` for one.
   */
  respawns?: number;
  respawned?: true;
}

export interface Handoff {
  /** Absolute path; the identity of the handoff (null until reported/degraded). */
  packet: string | null;
  reason: PacketReason;
  degraded: boolean;
  from: { generation: number; account: string | null; paneId: string | null };
  successor: Successor | null;
  /** Accounts tried for this handoff (successors that failed to accept). */
  tried: string[];
  /** Reasons of the last rejection. */
  rejected: string[];
  /** pick_account effects emitted so far: the pick's effect id, stable across a restart. */
  picks: number;
  /** While `waiting`: when to pick again (epoch ms). */
  retryAt: number | null;
  /** mark_limited already emitted for the spent account. */
  accountLimited: boolean;
  /** Why each tried successor failed, and its pane's last lines when known; absent in older states. */
  failures?: Failure[];
  /** When the lane first reported a packet for this handoff (epoch ms): a rejected packet's deadline counts from it. */
  firstReportAt?: number;
  /** The rejected packet a degraded packet stands in for (its reasons are `rejected`). */
  rejectedPacket?: string;
  /** The spent agent's exit that began this handoff: quoted by every escalation that follows from it. */
  exit?: AgentExit;
  /** The spent agent exited while its handoff was in flight (as expected): nothing of it is kept at acceptance. */
  spentExited?: true;
  /**
   * A lane's handoff because its agent is promoted to lead in place (SPEC 10.5, machine/promotion.ts):
   * at acceptance its pane and account go to the lead lane, which the agent leads in as `as` at `epoch`.
   */
  promoted?: { as: string; epoch: number };
  /** The lead lane's successor is a lane's agent promoted in place: awaited until `deadline` (epoch ms). */
  promotion?: Promotion | null;
  /** Lanes whose promotion to this lead failed during this handoff (not tried again). */
  promotionsTried?: string[];
}

/** A promotion in place the lead lane awaits: lane `lane`'s agent of `generation` hands off its lane work, then leads as `as`. */
export interface Promotion { lane: string; generation: number; as: string; deadline: number }

/** An agent's exit: its status and its pane's last non-empty lines (escapes stripped). */
export interface AgentExit { status: number | null; lines: string[] }

export interface Failure { account: string; why: string; lines: string | null }

export interface LaneState {
  name: string; role: 'lane' | 'lead';
  generation: number; account: string | null; paneId: string | null;
  state: LaneStatus; phase: Phase | null; phaseSince: number | null;
  blocked: Blocked | null;
  /** Last capacity line verbatim. */
  capacity: string | null;
  capacityState: CapacityState; remainingPct: number | null; contextPct: number | null;
  /** Last report text (first line). */
  last: string | null;
  startedAt: number; lastActivity: number;
  /** When the lane became done or stopped (epoch ms): its ages stop there. Absent while it is live, and in older state files. */
  endedAt?: number;
  /** Consecutive exits within quickExitMs of start. */
  quickExits: number;
  /** The generation that already got the near notice. */
  nearGeneration: number | null;
  /** When the current agent last reported (the newest few, epoch ms): its work boundaries, for the forecast (SPEC 10.7). Absent: none. */
  reportTimes?: number[];
  stallNudged: boolean;
  /** The `done_when` gate running: the intent record, saved before it starts; null when none runs. */
  gate: GateRun | null;
  /** Gates the accepted packet left unverified that the lane's `done` runs with `done_when` (core/gate/travel.ts); absent: none. */
  travelling?: string[];
  handoff: Handoff | null;
  /**
   * The account this lane waits for, held by another swarm on the machine (SPEC 10.4
   * `waiting_for_account`): its first start or its successor is tried again every few seconds and
   * takes it when it is freed. Absent when not waiting so, and in older state files.
   */
  waitingForAccount?: { why: string; since: number } | null;
  /**
   * A spent lead's pane kept open after its successor accepted (SPEC 10.5: the stale lead is told it is
   * no longer lead, and its pane is closed after `timeouts.release`), with the account it still holds
   * (null: the successor's own). Absent when none, and in older state files.
   */
  retiring?: Retiring | null;
  /** While `waiting` (SPEC 10.6 `after:`): the lanes not yet done that it waits for. Absent otherwise. */
  waitingFor?: string[];
  /** The lead lane's agent is a lane's agent promoted in place (SPEC 10.5): which, and the epoch it leads at. Absent otherwise. */
  promotedFrom?: { lane: string; generation: number; epoch: number } | null;
  /** A review round in flight (SPEC 10.6 `review:`); absent or null when none. */
  review?: Review | null;
  /** Review rounds finished (each said changes, or the last approved); absent: none. */
  reviewRounds?: number;
  /** Reviewers started for this lane so far (the next one's generation is one more); absent: none. */
  reviewSeq?: number;
  /** Its agent's own session being started again after its tmux server went (SPEC 10.8, machine/sessionResume.ts); absent or null: none. */
  resuming?: Resuming | null;
  /** How often the current generation's session was resumed; absent: never (or another generation's count). */
  resumes?: { generation: number; count: number };
}

/** A session resume in flight: started on `account` (the generation's own), ready by `readyBy` or replaced. */
export interface Resuming {
  sessionId: string;
  account: string;
  /** When the resume was decided (epoch ms). */
  since: number;
  /** The resumed agent's pane once made; null until then. */
  paneId: string | null;
  /** When its pane was made (epoch ms): an exit within quickExitMs of it is a failed resume. */
  spawnedAt: number | null;
  /** Epoch ms: not ready by then, it is replaced (RESUME_READY_MS after `since`). */
  readyBy: number;
}

/** A review round in flight (machine/review.ts): its reviewer, once an account is leased for it. */
export interface Review {
  round: number;
  /** The lane's reviewers so far (a reviewer's generation as the agent `<lane>.review`). */
  seq: number;
  /** This round's reviewer in flight; null while an account is picked. */
  reviewer: { seq: number; account: string; paneId: string | null; since: number } | null;
  /** Accounts whose reviewers failed this round. */
  tried: string[];
  /** pick_reviewer effects so far this round (the pick's effect id). */
  picks: number;
  /** When the reviewer in flight must have said its verdict (epoch ms). */
  deadline: number | null;
}

export interface Retiring {
  generation: number; paneId: string;
  /** The account it runs on, and whether that lease goes when it closes (false: the successor's own). */
  account: string | null; releases: boolean;
  /** When it closes (epoch ms). */
  at: number;
  /** The agent name it goes by (the lead that was), once the swarm's reducer has told it to stand down. */
  agent?: string;
}

/** A run of a lane's `done_when` gate (machine/gate.ts). */
export interface GateRun {
  /** Its run_gate effect's id: a result carrying another id (a stale run) is ignored. */
  id: string;
  command: string;
  /** When it started (epoch ms). */
  since: number;
  /** Its process (the leader of a process group of its own) once started: a restart ends that very process. */
  process?: GateProcess;
}

/** A process as /proc knows it: a reused pid has another start time (clock ticks since boot). */
export type GateProcess = ProcessId;

export interface MachineContext {
  now: number;
  maxGenerations: number;
  /** `release`: how long a spent lead's pane stays open after its successor accepted (absent or 0: closed at once). */
  timeouts: { accept: number; packet: number; stall: number; release?: number };
  /** The lane's gate. */
  doneWhen: string | null;
  /** The lane's `review:` (SPEC 10.6): its gate's pass starts a review round; absent or null: none. */
  review?: { maxReviews: number } | null;
  /** Default 15000. */
  quickExitMs?: number;
  /** Default 15 min, when no reset time is known. */
  waitRetryMs?: number;
  /** How often a lane waiting for an account another swarm holds asks again; default ACCOUNT_RETRY_MS. */
  accountRetryMs?: number;
  /** On a `resume` event with `hostGone`: whether this lane's session is resumed (core/swarm/sessionResume.ts decides). */
  resumeSession?: ResumeChoice;
}

export type LaneEvent =
  | { type: 'started'; generation: number; account: string; paneId: string }
  | { type: 'report'; generation: number; report: Report }
  | { type: 'verdict'; generation: number; decision: Decision; state: CapacityState; remainingPct: number | null; contextPct: number | null }
  | { type: 'output' }
  | { type: 'screen'; screen: ScreenClass | null; text?: string }
  /** An agent's own signal (hooks, status line, rollout); `resetsAt`: when a usage-limited account is free again. */
  | { type: 'signal'; generation: number; signal: SignalClass; what: string; resetsAt: string | null }
  /** `tail`: the pane's last lines, quoted in a crash-loop escalation; `vanished`: the pane was found gone on a restart (its tmux server died, or it was closed), so the agent made no exit of its own: no quick exit. */
  /** `signal`: what ended the agent when the host could tell; `vanished`: its pane was found gone. */
  | { type: 'exited'; paneId: string; status: number | null; tail?: string; vanished?: boolean; signal?: number }
  | { type: 'packet_checked'; packet: string; reasons: string[] }
  /** `noneReady`: no account is free and every one the pick refused, besides the lead's and those tried, is not ready. */
  | { type: 'lease'; account: string | null; resetsAt: string | null; why: string; noneReady?: boolean; heldElsewhere?: boolean }
  /** A first start found its account (or every eligible one) held by another swarm: it waits and asks again. */
  | { type: 'account_held'; generation: number; why: string }
  /** A successor's pane shows a screen that stops it before it accepts (login, consent, payment, bypass, offline). */
  /** `text`: the matched screen lines; `lines`: the pane's last lines (quoted when no account is left). */
  | { type: 'successor_screen'; generation: number; account: string; paneId: string; screen: StartScreen; text: string; lines?: string }
  | { type: 'spawned'; generation: number; account: string; paneId: string }
  | { type: 'spawn_failed'; generation: number; account: string; error: string }
  | { type: 'accepted'; generation: number; packet: string; /** The packet's unverified gates that travel (core/gate/travel.ts). */ gates?: string[] }
  | { type: 'degraded_written'; packet: string }
  /** A gate's result; `id`: the run it is of. */
  | { type: 'gate'; id: string; passed: boolean; output: string }
  /** A gate run's process started (recorded, so a restart can end it). */
  | { type: 'gate_process'; id: string; pid: number; startTicks: number }
  | { type: 'timer'; timer: TimerName }
  /** A lease was released somewhere in the swarm: a `waiting` lane picks again now, not at its retry time. */
  | { type: 'account_freed'; account: string }
  /**
   * After a restart: the panes found. `hostGone`: the agents went with their tmux server (it died, or
   * the swarm's session was gone at the restart), so a lane's own session may be resumed (SPEC 10.8):
   * `ctx.resumeSession` then says whether this one is.
   */
  | { type: 'resume'; panes: ResumedPane[]; hostGone?: boolean }
  /** The resumed session's pane was made (`paneId`), or could not be (`error`). */
  | { type: 'resume_spawned'; generation: number; paneId: string }
  | { type: 'resume_failed'; generation: number; error: string }
  /** The agent of `generation` told its session (its SessionStart hook): a resumed agent is ready. */
  | { type: 'session_told'; generation: number; sessionId: string }
  /** The plan is done: a lane whose agent is gone and whose successor never came needs none now (machine/doneExit.ts). */
  | { type: 'work_over' }
  /** Promotion in place (machine/promotion.ts). To the lead lane: lane X's agent is chosen as its successor. */
  | { type: 'promoting'; lane: string; generation: number; as: string }
  /** To the lead lane: the promotion of `lane` will not happen (why); another successor is picked. */
  | { type: 'promotion_failed'; lane: string; why: string }
  /** To the lead lane: the promoted agent's pane and account, handed over at its lane successor's acceptance. */
  | { type: 'adopt'; lane: string; generation: number; paneId: string; account: string | null; epoch: number }
  /** The developer answered the lane (`swarm answer`): a block it reported itself is over. */
  | { type: 'answered' }
  /** Its account will cross critical before the lane's next likely work boundary (SPEC 10.7): the near notice now. */
  | { type: 'forecast_near'; criticalInMin: number; medianMs: number }
  /** To lane X: lead lane.json names it at `epoch` as `as`; hand off the lane work, then lead. */
  | { type: 'promote'; as: string; epoch: number }
  /** Review (machine/review.ts): the pick for round `round`'s reviewer, an account leased or none (why). */
  | { type: 'reviewer_lease'; round: number; account: string | null; why: string }
  | { type: 'reviewer_spawned'; seq: number; paneId: string }
  | { type: 'reviewer_spawn_failed'; seq: number; account: string; error: string }
  /** The reviewer of generation `seq` said `approved` or `changes <what>`. */
  | { type: 'review_verdict'; seq: number; verdict: 'approved' | 'changes'; what: string }
  | { type: 'reviewer_exited'; seq: number; status: number | null; tail?: string }
  /** After a restart: the panes of the lane's reviewers as found (machine/review.ts resumeReview). */
  | { type: 'review_resume'; panes: ResumedPane[] }
  /** A screen in the reviewer's pane that swarm never answers (or a limit): it is replaced. */
  | { type: 'reviewer_screen'; seq: number; screen: string; text: string };

/** A pane a restart found: a dead one with its exit status and last lines when they could be read. */
export interface ResumedPane { generation: number; paneId: string; dead: boolean; status?: number | null; signal?: number; tail?: string }

export type JournalKind = 'delegation' | 'observation' | 'intervention';

/** Every effect has a stable `id` (`lane-a/g2/spawn/work3`) so the executor runs it exactly once. */
export type Effect =
  | { type: 'journal'; id: string; event: string; kind: JournalKind; data: Record<string, unknown> }
  | { type: 'notify'; id: string; text: string }
  | { type: 'tell_lead'; id: string; text: string }
  | { type: 'validate_packet'; id: string; packet: string }
  | { type: 'pick_account'; id: string; exclude: string[]; preferOtherThan: string | null }
  | { type: 'spawn'; id: string; generation: number; account: string; packet: string }
  | { type: 'kill_pane'; id: string; paneId: string }
  /** `generation`: whose pane it is (absent: the handoff's spent one). */
  | { type: 'close_pane'; id: string; paneId: string; generation?: number }
  | { type: 'release_lease'; id: string; account: string }
  /** Try the lane's first start again (it waited for an account another swarm held). */
  | { type: 'start_again'; id: string }
  /**
   * The packet's acceptance record (`<packet>.accepted.json`), written by swarm when none is there: a
   * sandboxed successor cannot write beside the packet (SPEC 10.3); `swarm accept` wrote it otherwise.
   */
  | { type: 'record_acceptance'; id: string; packet: string; by: { lane: string; account: string; generation: number }; from: { lane: string; account: string | null; generation: number }; degraded: boolean }
  | { type: 'mark_limited'; id: string; account: string; resetsAt: string | null }
  | { type: 'mark_not_ready'; id: string; account: string; why: string }
  /** `rejected`: the lane's last packet, rejected, that the degraded one stands in for (named in its scene). */
  | { type: 'write_degraded'; id: string; reason: PacketReason; generation: number; rejected?: { packet: string; reasons: string[] } }
  | { type: 'escalate'; id: string; class: BlockClass; what: string }
  /**
   * Run the gate. `ends`: an earlier run cut off by a restart: first end its process group, if it is
   * still that very process (found by its recorded process, else by its run id in the environment).
   */
  | { type: 'run_gate'; id: string; command: string; ends?: { id: string; process?: GateProcess } }
  /** Lane X's spent pane and account go to the lead lane (its agent promoted in place), not closed. */
  | { type: 'hand_over_pane'; id: string; paneId: string; account: string | null; generation: number; epoch: number }
  /** Lane X's promotion will not happen (its agent ended first, or it could not hand off). */
  | { type: 'promotion_declined'; id: string; why: string }
  /**
   * The lead lane takes over a promoted agent's pane: relabel it, record the agent as the lead's
   * (`agent` at `generation`), and move its account's lease from lane `from` to the lead.
   */
  | { type: 'adopt_pane'; id: string; paneId: string; account: string | null; agent: string; generation: number; from: { lane: string; generation: number } }
  /** Pick and lease an account of another vendor for the lane's reviewer (never the lane's, the lead's, or those in `exclude`). */
  | { type: 'pick_reviewer'; id: string; round: number; exclude: string[] }
  /** Start reviewer `seq` (`<lane>.review`, that generation) on `account` in the lane's checkout. */
  | { type: 'spawn_reviewer'; id: string; round: number; seq: number; account: string }
  /**
   * Close a reviewer's pane, its scrollback kept as `<lane>.review` of that generation; `paneId` null:
   * its start was not yet recorded (a restart), so the pane is found by its identity, if it is there.
   */
  | { type: 'close_reviewer'; id: string; paneId: string | null; seq: number }
  /** Start the lane's generation again by resuming its own session `sessionId` on `account` (SPEC 10.8). */
  | { type: 'resume_session'; id: string; generation: number; account: string; sessionId: string }
  | { type: 'set_timer'; id: string; timer: TimerName; at: number }
  | { type: 'clear_timer'; id: string; timer: TimerName };

export interface Step { lane: LaneState; effects: Effect[] }

export const QUICK_EXIT_MS = 15_000;
export const WAIT_RETRY_MS = 15 * 60_000;
/** A lane waiting for an account another swarm holds asks again this often (SPEC 10.4: it starts within seconds of the other's `down`). */
export const ACCOUNT_RETRY_MS = 2000;
export const MAX_GENERATIONS_HINT = 'the window or thresholds are probably set too low';
