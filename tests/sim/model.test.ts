import { describe, expect, it } from 'vitest';
import { accountState, agentKey, exhaust, parseAccountState, simModel, simReading, spend } from '../../src/sim/model.js';

const NOW = '2026-01-01T00:00:00.000Z';

describe('simModel', () => {
  it('has the defaults of the brief', () => {
    expect(simModel({})).toEqual({ quota: 100, cost: 4, context: 3, stepMs: 200, askMs: 30_000 });
  });

  it.each([
    ['SIM_QUOTA', '30', { quota: 30 }],
    ['SIM_QUOTA', ' 12.5 ', { quota: 12.5 }],
    ['SIM_COST', '0', { cost: 0 }],
    ['SIM_CONTEXT', '25', { context: 25 }],
    ['SIM_STEP_MS', '0', { stepMs: 0 }],
    ['SIM_ASK_MS', '500', { askMs: 500 }],
    ['SIM_QUOTA', '', { quota: 100 }],
    ['SIM_QUOTA', '   ', { quota: 100 }],
  ])('%s=%j', (name, value, expected) => {
    expect(simModel({ [name]: value })).toMatchObject(expected);
  });

  it.each([
    ['SIM_QUOTA', '101', 'SIM_QUOTA=101 is not understood: expected a number from 0 to 100'],
    ['SIM_QUOTA', '-5', 'SIM_QUOTA=-5 is not understood: expected a number from 0 to 100'],
    ['SIM_COST', 'four', 'SIM_COST=four is not understood: expected a number from 0 to 100'],
    ['SIM_CONTEXT', '3%', 'SIM_CONTEXT=3% is not understood: expected a number from 0 to 100'],
    ['SIM_STEP_MS', '1e3', 'SIM_STEP_MS=1e3 is not understood: expected a number from 0 to 3600000'],
    ['SIM_QUOTA', '5\n0', 'SIM_QUOTA=5 0 is not understood: expected a number from 0 to 100'],
  ])('%s=%j is refused', (name, value, message) => {
    expect(() => simModel({ [name]: value })).toThrow(message);
  });
});

describe('account state', () => {
  it('starts fresh at the quota when nothing is saved or the file is bad', () => {
    const fresh = { account: 'a1', remaining_pct: 40, contexts: {}, updated_at: NOW };
    expect(accountState(null, 'a1', 40, NOW)).toEqual(fresh);
    expect(accountState('', 'a1', 40, NOW)).toEqual(fresh);
    expect(accountState('   \n', 'a1', 40, NOW)).toEqual(fresh);
    expect(accountState('{"remaining_pct": 140}', 'a1', 40, NOW)).toEqual(fresh);
    expect(accountState('[1]', 'a1', 40, NOW)).toEqual(fresh);
  });

  it('reads a saved state, dropping context values that are no percentages', () => {
    const text = JSON.stringify({ remaining_pct: 12, contexts: { 'l-g1': 30, 'l-g2': 'x', 'l-g3': 140 }, updated_at: 'then' });
    expect(parseAccountState(text, 'a1')).toEqual({ account: 'a1', remaining_pct: 12, contexts: { 'l-g1': 30 }, updated_at: 'then' });
    expect(parseAccountState(`${text}\r\n`, 'a1')?.remaining_pct).toBe(12);
    expect(parseAccountState('not json', 'a1')).toBeNull();
  });

  it('spends quota and this agent’s context, clamped at 0 and 100', () => {
    const start = accountState(null, 'a1', 10, NOW);
    const once = spend(start, agentKey('lane-a', 1), { quota: 4, context: 60 }, 'later');
    expect(once).toEqual({ account: 'a1', remaining_pct: 6, contexts: { 'lane-a-g1': 60 }, updated_at: 'later' });
    const twice = spend(once, 'lane-a-g1', { quota: 4, context: 60 }, 'later');
    expect(twice.remaining_pct).toBe(2);
    expect(twice.contexts['lane-a-g1']).toBe(100);
    expect(spend(twice, 'lane-a-g1', { quota: 4, context: 0 }, 'x').remaining_pct).toBe(0);
    expect(spend(start, 'k', { quota: 0.1, context: 0.2 }, 'x')).toMatchObject({ remaining_pct: 9.9, contexts: { k: 0.2 } });
    expect(exhaust(once, 'end')).toMatchObject({ remaining_pct: 0, updated_at: 'end', contexts: { 'lane-a-g1': 60 } });
  });
});

describe('simReading (what the sim probe says)', () => {
  const t = { low: 25, critical: 10 };
  it.each([
    [100, 'ok'],
    [26, 'ok'],
    [25, 'low'],
    [11, 'low'],
    [10, 'critical'],
    [0, 'critical'],
  ])('with %s percent left the state is %s', (pct, state) => {
    const reading = simReading({ account: 'a', remaining_pct: pct, contexts: { 'l-g2': 41 }, updated_at: NOW }, 'l-g2', t);
    expect(reading).toEqual({ state, remainingPct: pct, contextPct: 41, resetsAt: null });
  });

  it('knows no context for an agent it has not seen', () => {
    expect(simReading({ account: 'a', remaining_pct: 50, contexts: {}, updated_at: NOW }, 'l-g1', t).contextPct).toBeNull();
  });
});
