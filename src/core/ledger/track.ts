/**
 * The ledger's starts and ends, read off the lanes' states before and after a step (SPEC 10.7): a
 * generation starts when its pane is seen (a successor's while it is still reading its packet) and ends
 * when its successor accepted (`handed_off`, or `lost` for a degraded handoff: its agent was gone), its
 * lane is `done` or `stopped`. A reviewer (`<lane>.review`) starts with its pane and ends when its
 * round has its verdict (`done`) or it is replaced (`lost`). Pure.
 */
import type { LaneState } from '../../machine/types.js';
import type { Reading } from '../accounts/leases.js';
import { endGeneration, startGeneration, type GenerationEnd, type Ledger } from './ledger.js';

export interface TrackContext {
  now: number;
  readings: Readonly<Record<string, Reading>>;
  /** Account id → its vendor (null: not declared). */
  vendorOf: (account: string | null) => string | null;
}

export interface Ended {
  agent: string;
  generation: number;
}

export interface Tracked {
  ledger: Ledger;
  /** Generations this step ended: each is journaled (`generation_spent`). */
  ended: Ended[];
}

export const reviewerAgent = (lane: string): string => `${lane}.review`;

export function trackLanes(ledger: Ledger, before: Readonly<Record<string, LaneState>>, after: Readonly<Record<string, LaneState>>, ctx: TrackContext): Tracked {
  const t: Tracked = { ledger, ended: [] };
  for (const [name, a] of Object.entries(after)) {
    const b = before[name];
    if (b === a) continue;
    if (b !== undefined) ends(t, name, b, a, ctx);
    starts(t, name, a, ctx);
    reviewer(t, name, b, a, ctx);
  }
  return t;
}

function capacityOf(ctx: TrackContext, account: string | null): number | null {
  return account === null ? null : (ctx.readings[account]?.remainingPct ?? null);
}

function starts(t: Tracked, name: string, a: LaneState, ctx: TrackContext): void {
  if (a.paneId !== null && a.account !== null && a.state !== 'waiting' && a.state !== 'done' && a.state !== 'stopped') {
    t.ledger = startGeneration(t.ledger, name, a.generation, { now: ctx.now, account: a.account, vendor: ctx.vendorOf(a.account), capacity: capacityOf(ctx, a.account) });
  }
  const s = a.handoff?.successor;
  if (s && s.paneId !== null) {
    t.ledger = startGeneration(t.ledger, name, s.generation, { now: s.spawnedAt ?? ctx.now, account: s.account, vendor: ctx.vendorOf(s.account), capacity: capacityOf(ctx, s.account) });
  }
}

function ends(t: Tracked, name: string, b: LaneState, a: LaneState, ctx: TrackContext): void {
  let end: GenerationEnd | null = null;
  if (a.generation > b.generation) end = b.handoff?.degraded === true ? 'lost' : 'handed_off';
  else if (a.state === 'done' && b.state !== 'done') end = 'done';
  else if (a.state === 'stopped' && b.state !== 'stopped') end = 'stopped';
  if (end === null) return;
  const account = b.account;
  end1(t, name, b.generation, { now: ctx.now, end, account, vendor: ctx.vendorOf(account), context: b.contextPct, capacity: capacityOf(ctx, account) });
}

function end1(t: Tracked, agent: string, generation: number, at: Parameters<typeof endGeneration>[3]): void {
  const next = endGeneration(t.ledger, agent, generation, at);
  if (next === t.ledger) return;
  t.ledger = next;
  t.ended.push({ agent, generation });
}

function reviewer(t: Tracked, name: string, b: LaneState | undefined, a: LaneState, ctx: TrackContext): void {
  const was = b?.review?.reviewer ?? null;
  const now = a.review?.reviewer ?? null;
  const agent = reviewerAgent(name);
  if (now !== null && now.paneId !== null) {
    t.ledger = startGeneration(t.ledger, agent, now.seq, { now: now.since, account: now.account, vendor: ctx.vendorOf(now.account), capacity: capacityOf(ctx, now.account) });
  }
  if (was === null || (now !== null && now.seq === was.seq)) return;
  // Its account tried and failed this round: replaced; else its round ended with a verdict (or the lane moved on).
  const replaced = (a.review?.tried ?? []).includes(was.account) && !(b?.review?.tried ?? []).includes(was.account);
  end1(t, agent, was.seq, { now: ctx.now, end: replaced ? 'lost' : 'done', account: was.account, vendor: ctx.vendorOf(was.account), context: null, capacity: capacityOf(ctx, was.account) });
}
