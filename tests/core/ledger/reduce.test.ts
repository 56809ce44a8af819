/** The ledger's part of a swarm step (core/ledger/reduce.ts): folds, and the generation_spent lines each calls for, once. */
import { describe, expect, it } from 'vitest';
import { endGeneration, figuresOf, type Ledger } from '../../../src/core/ledger/ledger.js';
import { endsTold, reduceTurn, reduceUsage } from '../../../src/core/ledger/reduce.js';
import type { UsageSeen } from '../../../src/core/swarm/events.js';

const vendorOf = (a: string | null) => (a === null ? null : 'anthropic');
const seen = (cost: number, generation = 1, session = 'S1'): UsageSeen => ({ agent: 'lane-a', generation, account: 'a1', session, figures: figuresOf(cost, null), turns: null });
const ended = (ledger: Ledger | undefined, generation = 1): Ledger =>
  endGeneration(ledger ?? {}, 'lane-a', generation, { now: 1000, end: 'handed_off', account: 'a1', vendor: 'anthropic', context: 40, capacity: 10 });

describe('reduceUsage', () => {
  it('folds a look\'s records in one change (per process the last counts); no line while the generation runs', () => {
    const step = reduceUsage(undefined, [seen(0.1), seen(0.25), seen(0.4)], vendorOf);
    expect(step.ledger?.['lane-a']?.[0]?.processes[0]?.last.cost_usd).toBe(0.4);
    expect(step.spent).toEqual([]);
  });

  it('an ended generation is told once, at the first look after its end, with its last figures', () => {
    const running = reduceUsage(undefined, [seen(0.4)], vendorOf).ledger;
    const first = reduceUsage(ended(running), [], vendorOf);
    expect(first.spent.map((s) => [s.agent, s.view.generation, s.view.cost_usd, s.view.end])).toEqual([['lane-a', 1, 0.4, 'handed_off']]);
    expect(reduceUsage(first.ledger, [], vendorOf).spent).toEqual([]);
  });

  it('a told generation whose figures still move is told again, once per look however many records; the same figures tell nothing', () => {
    const told = reduceUsage(ended(reduceUsage(undefined, [seen(0.4)], vendorOf).ledger), [], vendorOf).ledger;
    const moved = reduceUsage(told, [seen(0.5), seen(0.55)], vendorOf);
    expect(moved.spent.map((s) => s.view.cost_usd)).toEqual([0.55]);
    const same = reduceUsage(moved.ledger, [seen(0.55)], vendorOf);
    expect(same.spent).toEqual([]);
    expect(same.ledger).toBe(moved.ledger);
  });

  it('nothing seen, nothing ended: the very same ledger (no state change, no save)', () => {
    const ledger = reduceUsage(undefined, [seen(0.4)], vendorOf).ledger;
    expect(reduceUsage(ledger, [], vendorOf).ledger).toBe(ledger);
    expect(reduceUsage(undefined, [], vendorOf).ledger).toBeUndefined();
  });
});

describe('reduceTurn and endsTold', () => {
  it('a higher turn moves the ledger (and a told generation is told again); the same turn does nothing', () => {
    const told = reduceUsage(ended(reduceUsage(undefined, [seen(0.4)], vendorOf).ledger), [], vendorOf).ledger;
    const turn = reduceTurn(told, { agent: 'lane-a', generation: 1, account: 'a1', turn: 3 }, vendorOf);
    expect(turn.ledger?.['lane-a']?.[0]?.turns).toBe(3);
    expect(turn.spent.map((s) => s.view.turns)).toEqual([3]);
    const again = reduceTurn(turn.ledger, { agent: 'lane-a', generation: 1, account: 'a1', turn: 3 }, vendorOf);
    expect(again).toEqual({ ledger: turn.ledger, spent: [] });
  });

  it('endsTold (before plan_done) tells every untold end and marks it', () => {
    const two = ended(ended(reduceUsage(undefined, [seen(0.4), seen(0.2, 2, 'S2')], vendorOf).ledger), 2);
    const step = endsTold({ ledger: two, spent: [] });
    expect(step.spent.map((s) => s.view.generation)).toEqual([1, 2]);
    expect(endsTold({ ledger: step.ledger, spent: [] }).spent).toEqual([]);
  });
});
