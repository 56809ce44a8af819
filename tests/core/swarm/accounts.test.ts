import { describe, expect, it } from 'vitest';
import { reduceAccounts, type AccountEvent, type AccountFacts } from '../../../src/core/swarm/accounts.js';

const empty: AccountFacts = { limited: {}, notReady: {}, readings: {}, samples: {} };
const RESET = '2026-12-01T15:00:00.000Z';
const ok = { state: 'ok' as const, remainingPct: 80, resetsAt: null };
const low = { state: 'low' as const, remainingPct: 12, resetsAt: RESET };

describe('reduceAccounts', () => {
  it.each<[string, AccountFacts, AccountEvent, AccountFacts]>([
    ['limited with a known reset', empty, { type: 'limited', account: 'a1', resetsAt: RESET }, { ...empty, limited: { a1: RESET } }],
    ['limited, reset unknown', empty, { type: 'limited', account: 'a1', resetsAt: null }, { ...empty, limited: { a1: null } }],
    ['limited again: the last screen says when', { ...empty, limited: { a1: null } }, { type: 'limited', account: 'a1', resetsAt: RESET }, { ...empty, limited: { a1: RESET } }],
    ['another account limited: both kept', { ...empty, limited: { a1: RESET } }, { type: 'limited', account: 'o1', resetsAt: null }, { ...empty, limited: { a1: RESET, o1: null } }],
    ['not ready, with the screen', empty, { type: 'not_ready', account: 'a2', why: 'a login screen' }, { ...empty, notReady: { a2: 'a login screen' } }],
    ['not ready again: the newest screen', { ...empty, notReady: { a2: 'login' } }, { type: 'not_ready', account: 'a2', why: 'payment' }, { ...empty, notReady: { a2: 'payment' } }],
    ['a first reading, a point of the burn (SPEC 10.7)', empty, { type: 'reading', account: 'a1', reading: ok, at: 1000 }, { ...empty, readings: { a1: ok }, samples: { a1: [{ at: 1000, pct: 80 }] } }],
    ['a newer reading replaces the last; its point is added', { ...empty, readings: { a1: ok }, samples: { a1: [{ at: 1000, pct: 80 }] } }, { type: 'reading', account: 'a1', reading: low, at: 2000 }, { ...empty, readings: { a1: low }, samples: { a1: [{ at: 1000, pct: 80 }, { at: 2000, pct: 12 }] } }],
    ['an unknown reading leaves the last (core/swarm/readings.ts), and is no point', { ...empty, readings: { a1: low } }, { type: 'reading', account: 'a1', reading: { state: 'unknown', remainingPct: null, resetsAt: null }, at: 3000 }, { ...empty, readings: { a1: low } }],
    ['a state without a % is no point of the burn', { ...empty, readings: { a1: ok } }, { type: 'reading', account: 'a1', reading: { state: 'ok', remainingPct: null, resetsAt: null }, at: 3000 }, { ...empty, readings: { a1: ok } }],
  ])('%s', (_name, facts, event, next) => {
    expect(reduceAccounts(facts, event)).toEqual(next);
    expect(facts).not.toBe(next);
  });
});

describe('reduceAccounts: two ids on one profile folder are one account (SPEC 10.4)', () => {
  it.each<[string, AccountEvent, AccountFacts]>([
    ['a limit holds for both ids', { type: 'limited', account: 'a1', resetsAt: RESET }, { ...empty, limited: { a1: RESET, a3: RESET } }],
    ['a reading holds for both ids', { type: 'reading', account: 'a3', reading: low, at: 5 }, { ...empty, readings: { a3: low, a1: low }, samples: { a3: [{ at: 5, pct: 12 }], a1: [{ at: 5, pct: 12 }] } }],
    ['a screen that says not ready holds for both ids', { type: 'not_ready', account: 'a1', why: 'login' }, { ...empty, notReady: { a1: 'login', a3: 'login' } }],
  ])('%s', (_name, event, next) => {
    const same = event.account === 'a1' ? ['a3'] : ['a1'];
    expect(reduceAccounts(empty, event, same)).toEqual(next);
    // Without the other id: that id alone.
    expect(Object.keys(reduceAccounts(empty, event)[event.type === 'limited' ? 'limited' : event.type === 'reading' ? 'readings' : 'notReady'])).toEqual([event.account]);
  });
});
