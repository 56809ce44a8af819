/**
 * A spent lead's pane after its successor accepted (SPEC 10.5). A lane's spent pane is closed at
 * once; a lead's stays open for `timeouts.release`, with the account it still holds, so the stale
 * lead — told once that it is no longer lead (core/swarm/leadSuccession.ts), its lead commands and
 * pushes fenced meanwhile — can end its turn in its own words. Then it is closed and its account
 * released; its agent ending first closes it at once. Pure.
 */
import { clearTimer, effectId, journal, setTimer } from './effects.js';
import type { Effect, LaneState, MachineContext, Retiring, Step } from './types.js';

/** Whether a spent pane is kept open: a lead's, when `timeouts.release` is more than nothing. */
export function keepsSpentPane(lane: LaneState, paneId: string | null, ctx: MachineContext): boolean {
  return lane.role === 'lead' && paneId !== null && (ctx.timeouts.release ?? 0) > 0;
}

/** At acceptance: the spent lead's pane and account stay until `at`, on a timer (state, like every deadline). */
export function retireLater(next: LaneState, retiring: Omit<Retiring, 'at'>, ctx: MachineContext): Step {
  const at = ctx.now + (ctx.timeouts.release ?? 0);
  const lane: LaneState = { ...next, retiring: { ...retiring, at } };
  return {
    lane,
    effects: [
      setTimer(lane, 'retire', at),
      journal(lane, 'lead_pane_kept', 'observation', { paneId: retiring.paneId, spent_generation: retiring.generation, until: new Date(at).toISOString() }, ctx.now),
    ],
  };
}

/** Close the spent lead's pane now and release what it held; `why` is journaled. Nothing when none is kept. */
export function retireNow(lane: LaneState, why: string, ctx: MachineContext, closed = false): Step {
  const r = lane.retiring ?? null;
  if (r === null) return { lane, effects: [] };
  const next: LaneState = { ...lane, retiring: null };
  const effects: Effect[] = [clearTimer(lane, 'retire', ctx.now)];
  // Same id as a close at acceptance would have had: a restart never closes it twice.
  if (!closed) effects.push({ type: 'close_pane', id: effectId(lane, r.generation, 'close'), paneId: r.paneId, generation: r.generation });
  if (r.releases && r.account !== null) effects.push({ type: 'release_lease', id: effectId(lane, r.generation, 'release', r.account), account: r.account });
  effects.push(journal(next, 'pane_closed', 'observation', { paneId: r.paneId, spent_generation: r.generation, why }, `retire@${ctx.now}`));
  if (r.releases && r.account !== null) effects.push(journal(next, 'lease_released', 'observation', { account: r.account, spent_generation: r.generation }, `retire@${ctx.now}`));
  return { lane: next, effects };
}

/** The retire timer came due: early (re-armed after a restart) waits on; else close. */
export function onRetireTimer(lane: LaneState, ctx: MachineContext): Step {
  const r = lane.retiring ?? null;
  if (r === null) return { lane, effects: [] };
  if (ctx.now < r.at) return { lane, effects: [setTimer(lane, 'retire', r.at)] };
  return retireNow(lane, 'timeouts.release passed', ctx);
}
