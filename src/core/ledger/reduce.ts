/**
 * The ledger's part of a swarm step (SPEC 10.7), as the swarm's reducer (core/swarm/reduce.ts) asks it:
 * a usage look's records folded, a numbered turn, and the `generation_spent` lines they call for. Each
 * generation's end is journaled once, at the first look after it (so its line carries the last figures
 * its agent told); a generation already journaled whose figures still move is journaled again (its last
 * line counts). Pure: the ledger in, the ledger and the lines to journal out, in order.
 */
import type { UsageSeen } from '../swarm/events.js';
import { foldTurn, foldUsage, generationView, markJournaled, unjournaled, type GenerationView, type Ledger } from './ledger.js';

export interface LedgerStep {
  /** The same object when nothing changed. */
  ledger: Ledger | undefined;
  /** `generation_spent` lines, agent and its generation's view. */
  spent: { agent: string; view: GenerationView }[];
}

/** Account id → its vendor (null: none known). */
export type VendorOf = (account: string | null) => string | null;

const NONE: Ledger = {};

/** A usage look: its records folded in one change, moved generations already journaled told again, then every end not yet told. */
export function reduceUsage(ledger: Ledger | undefined, seen: readonly UsageSeen[], vendorOf: VendorOf): LedgerStep {
  let next = ledger ?? NONE;
  const moved = new Map<string, { agent: string; generation: number }>();
  for (const one of seen) {
    const folded = foldUsage(next, { ...one, vendor: vendorOf(one.account) });
    if (folded !== next) moved.set(`${one.agent}\u0000${one.generation}`, one);
    next = folded;
  }
  const step: LedgerStep = { ledger: next === (ledger ?? NONE) ? ledger : next, spent: [] };
  for (const { agent, generation } of moved.values()) toldAgain(step, agent, generation);
  return endsTold(step);
}

/** A numbered turn end (the generation's turns are the highest number heard). */
export function reduceTurn(ledger: Ledger | undefined, turn: { agent: string; generation: number; account: string | null; turn: number }, vendorOf: VendorOf): LedgerStep {
  const next = foldTurn(ledger ?? NONE, turn.agent, turn.generation, turn.turn, turn.account, vendorOf(turn.account));
  if (next === (ledger ?? NONE)) return { ledger, spent: [] };
  const step: LedgerStep = { ledger: next, spent: [] };
  toldAgain(step, turn.agent, turn.generation);
  return step;
}

/** Every generation that ended and was not journaled yet, journaled now (at a look, and before `plan_done`). */
export function endsTold(step: LedgerStep): LedgerStep {
  for (const e of unjournaled(step.ledger)) {
    step.ledger = markJournaled(step.ledger!, e.agent, e.generation);
    spend(step, e.agent, e.generation);
  }
  return step;
}

/** A generation already journaled whose figures moved: its line again. */
function toldAgain(step: LedgerStep, agent: string, generation: number): void {
  if (step.ledger?.[agent]?.find((x) => x.generation === generation)?.journaled === true) spend(step, agent, generation);
}

function spend(step: LedgerStep, agent: string, generation: number): void {
  const g = step.ledger?.[agent]?.find((x) => x.generation === generation);
  if (g !== undefined) step.spent.push({ agent, view: generationView(g) });
}
