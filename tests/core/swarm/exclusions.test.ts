/** Why a pick leaves an account out: who uses it, and what this lane's handoff excludes. */
import { describe, expect, it } from 'vitest';
import { accountsInUse, handoffExclusions } from '../../../src/core/swarm/exclusions.js';
import type { Lease } from '../../../src/core/accounts/leases.js';
import { T0, MIN, drive, leased, spawned, working } from '../../machine/build.js';

const lease = (account: string, lane: string, generation: number): Lease => ({ account, lane, generation, pid: 1, host: 'h', acquired_at: '2025-01-01T00:00:00Z' });

describe('accountsInUse', () => {
  it('a live agent, a successor in flight and a lease each say who holds the account; the first found wins', () => {
    const lanes = { 'lane-a': spawned(), 'lane-b': { ...working(), name: 'lane-b', account: 'work5', generation: 3 }, done: { ...working(), name: 'done', account: 'work9', state: 'done' as const } };
    expect([...accountsInUse(lanes, [lease('work3', 'lane-a', 2), lease('work7', 'lane-c', 1)])]).toEqual([
      ['work2', 'in use by lane-a g1'],
      ['work3', "held by lane-a's successor g2"],
      ['work5', 'in use by lane-b g3'],
      ['work7', 'leased to lane-c g1'],
    ]);
  });

  it('none: empty', () => {
    expect(accountsInUse({}, []).size).toBe(0);
  });
});

describe('handoffExclusions', () => {
  it('no handoff: nothing', () => {
    expect(handoffExclusions(working()).size).toBe(0);
  });

  it('the account the spent agent leaves, and each account tried with why it failed (cut short)', () => {
    const tried = drive(leased(), [[{ type: 'spawn_failed', generation: 2, account: 'work3', error: `boom ${'x'.repeat(200)}` }, T0 + 6 * MIN]]).lane;
    const out = handoffExclusions(tried);
    expect(out.get('work2')).toBe('the account lane-a g1 leaves');
    expect(out.get('work3')).toMatch(/^tried for this handoff: spawn failed: boom x+…$/);
    expect(out.get('work3')!.length).toBe('tried for this handoff: '.length + 120);
  });

  it('an account tried in a state saved without failures: just tried', () => {
    const lane = leased();
    const h = { ...lane.handoff!, tried: ['work4'] };
    delete h.failures;
    expect(handoffExclusions({ ...lane, handoff: h }).get('work4')).toBe('tried for this handoff');
  });
});
