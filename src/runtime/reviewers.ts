/**
 * Reviewers (SPEC 10.6, docs/review.md): the lane machine decided a reviewer is needed (machine/
 * review.ts); this picks and leases its account, starts its pane, closes it, and turns what it says
 * into the lane's events. A reviewer is the agent `<lane>.review` at its own generation, recorded
 * with role `reviewer`: it may only tell the lead its verdict, and its records count for nothing else.
 * A start repeated after a crash adopts the pane that already carries its identity; a pick repeated
 * finds the lease it took.
 */
import { pick, type PickInput } from '../core/accounts/leases.js';
import type { Account, LaneSpec } from '../core/config/config.js';
import type { InboxRecord } from '../core/protocol/inbox.js';
import { reviewVerdict } from '../core/protocol/protocol.js';
import { runOf } from '../core/swarm/runs.js';
import { reviewTask } from '../core/launch/reviewTask.js';
import { reviewedLane, reviewerName } from '../machine/review.js';
import type { Effect, LaneEvent, LaneState } from '../machine/types.js';
import { planFilesFault, SwarmError } from '../errors.js';
import { loadKind } from '../adapters/kinds.js';
import { acquireLease, readLeases } from '../adapters/leaseFiles.js';
import { runBase } from '../adapters/gitHooks.js';
import { agentPane } from './agents.js';
import { recordPane } from './agentStarts.js';
import { isoNow } from './clock.js';
import type { Engine } from './engine.js';
import { journalSkips, notReadyAccounts } from './readyAccounts.js';
import { turn } from './spend.js';

const specOf = (engine: Engine, lane: string): LaneSpec | undefined => engine.config.lanes.find((l) => l.name === lane);

/** The accounts that may review `lane`: of another vendor than its own, of `review.kind` when given, able to start. */
export function reviewerPool(engine: Engine, lane: LaneState): Account[] {
  const review = specOf(engine, lane.name)?.review;
  if (!review) return [];
  const own = engine.config.accounts.find((a) => a.id === lane.account) ?? null;
  return engine.config.accounts.filter((a) =>
    a.id !== lane.account &&
    (own === null || a.vendor !== own.vendor) &&
    (review.kind === null || a.kind === review.kind) &&
    (review.command !== null || loadKind(a.kind, engine.config.dir).launch !== null));
}

/** Pick and lease an account for the lane's next reviewer; a lease already taken for it is reused. */
export function pickReviewer(engine: Engine, lane: LaneState, effect: Extract<Effect, { type: 'pick_reviewer' }>): LaneEvent {
  const store = engine.leases;
  const name = reviewerName(lane.name);
  const seq = (lane.review?.seq ?? 0) + 1;
  const mine = readLeases(store).find((l) => l.plan === store.plan && l.lane === name && l.generation === seq && !effect.exclude.includes(l.account));
  if (mine) return { type: 'reviewer_lease', round: effect.round, account: mine.account, why: 'already leased for this reviewer' };
  const pool = reviewerPool(engine, lane);
  const vendor = engine.config.accounts.find((a) => a.id === lane.account)?.vendor ?? null;
  if (pool.length === 0) return { type: 'reviewer_lease', round: effect.round, account: null, why: `no account of another vendor than ${vendor ?? 'the lane\'s'} is declared` };
  const notReady = notReadyAccounts(engine, pool, engine.checkoutOf(lane.name));
  for (let attempt = 0; attempt < pool.length; attempt += 1) {
    const inUse = engine.accountsInUse();
    const tried = new Map(effect.exclude.map((a) => [a, 'a reviewer on it failed this round'] as const));
    const input: PickInput = {
      pool,
      leases: readLeases(store),
      plan: store.plan,
      readings: new Map(Object.entries(engine.state.readings)),
      spent: new Map(Object.entries(engine.state.limited)),
      notReady,
      leadAccount: engine.leadAccount(),
      exclude: [...effect.exclude, ...inUse.keys()],
      excludedBecause: new Map([...inUse, ...tried]),
      now: isoNow(engine.clock),
    };
    const result = pick(input);
    if (attempt === 0) journalSkips(engine, name, seq, input);
    if (!result.ok) return { type: 'reviewer_lease', round: effect.round, account: null, why: result.why };
    if (acquireLease(store, { account: result.account, lane: name, generation: seq })) return { type: 'reviewer_lease', round: effect.round, account: result.account, why: result.why };
  }
  return { type: 'reviewer_lease', round: effect.round, account: null, why: 'every eligible account was leased by another holder' };
}

/** Start reviewer `seq` of the lane in its checkout (read-only as its kind knows how); adopt its pane when one is there. */
export async function spawnReviewer(engine: Engine, lane: LaneState, effect: Extract<Effect, { type: 'spawn_reviewer' }>): Promise<LaneEvent> {
  const { config } = engine;
  const name = reviewerName(lane.name);
  const { seq } = effect;
  const account = config.accounts.find((a) => a.id === effect.account);
  if (!account) return { type: 'reviewer_spawn_failed', seq, account: effect.account, error: `account ${effect.account} is not in the pool` };
  try {
    const existing = (await engine.host.list()).find((p) => p.lane === name && p.generation === seq && !p.dead);
    if (existing) {
      recordPane(engine, { lane: name, role: 'reviewer', generation: seq, account: existing.account || effect.account }, existing);
      return { type: 'reviewer_spawned', seq, paneId: existing.paneId };
    }
    const checkout = engine.checkoutOf(lane.name);
    const run = runOf(engine.state);
    const spec = agentPane({
      config,
      name,
      role: 'reviewer',
      generation: seq,
      account,
      kind: engine.kinds(account.kind),
      epoch: engine.state.epoch,
      run,
      checkout,
      task: reviewTask({ lane: lane.name, round: effect.round, checkout, base: runBase(config.plan, run, config.base, config.lead.checkout), task: engine.taskOf(lane.name) }),
      command: specOf(engine, lane.name)?.review?.command ?? null,
      packet: null,
      brief: null,
      reviewOf: lane.name,
    }, engine.host.agentEnv?.(name) ?? engine.env);
    const info = await engine.host.spawn(spec);
    recordPane(engine, { lane: name, role: 'reviewer', generation: seq, account: effect.account }, info);
    return { type: 'reviewer_spawned', seq, paneId: info.paneId };
  } catch (error) {
    if (planFilesFault(error)) throw error;
    return { type: 'reviewer_spawn_failed', seq, account: effect.account, error: error instanceof SwarmError || error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A record a reviewer wrote: its verdict to the lead becomes the lane's event; anything else counts
 * for nothing (journaled), and a message that is no verdict is answered with how to say one.
 */
export function reviewerRecord(engine: Engine, record: InboxRecord): void {
  const lane = reviewedLane(record.from);
  const seq = record.generation ?? 0;
  if (lane === null || engine.lane(lane) === undefined || (record.run ?? runOf(engine.state)) !== runOf(engine.state)) {
    engine.journal({ type: 'observation', event: 'stale_record', lane: record.from, generation: record.generation, kind: record.kind, run: record.run ?? null, why: 'a reviewer of no lane of this run' });
    return;
  }
  // Its turn's end (Codex's notify) lets swarm point it at its mailbox (and counts a turn); its readings and other signals are no lane work.
  if (record.kind === 'hook' && record.meaning === 'turn_end') {
    engine.deliveries.turnEnd(record.from);
    turn(engine, record.from, record);
  }
  if (record.kind !== 'message') return;
  const verdict = record.to === 'lead' ? reviewVerdict(record.text) : null;
  if (verdict === null) {
    engine.journal({ type: 'observation', event: 'ignored', lane, generation: engine.lane(lane)!.generation, event_of: 'reviewer_message', reviewer: record.from, reviewer_generation: seq, why: 'not a verdict: say approved or changes <what> to the lead' });
    engine.deliver(record.from, { kind: 'swarm' }, 'swarm: that was no verdict. Say `swarm notify lead "approved"` or `swarm notify lead "changes <what>"`.');
    return;
  }
  engine.dispatch(lane, { type: 'review_verdict', seq, ...verdict });
}

/**
 * After a restart: the lane's reviewer panes as found go to its machine (machine/review.ts decides);
 * the reviewer in flight whose pane still runs is recorded again as that pane's agent.
 */
export function resumeReviewer(engine: Engine, laneName: string, panes: Awaited<ReturnType<Engine['host']['list']>>): void {
  const review = engine.state.lanes[laneName]?.review ?? null;
  if (review === null) return;
  const name = reviewerName(laneName);
  const mine = panes.filter((p) => p.lane === name);
  const r = review.reviewer;
  const running = r === null ? undefined : mine.find((p) => p.paneId === r.paneId && p.generation === r.seq && !p.dead);
  if (r !== null && running !== undefined) recordPane(engine, { lane: name, role: 'reviewer', generation: r.seq, account: r.account }, running);
  engine.dispatch(laneName, { type: 'review_resume', panes: mine.map((p) => ({ generation: p.generation, paneId: p.paneId, dead: p.dead, ...(p.dead ? { status: p.deadStatus } : {}) })) });
}
