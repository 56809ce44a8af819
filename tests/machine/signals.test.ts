/** The lane machine's `signal` events: what an agent's own hooks, status line and rollout mean to its lane. */
import { describe, expect, it } from 'vitest';
import type { LaneEvent, SignalClass } from '../../src/machine/lane.js';
import { drive, journals, only, reported, T0, types, working } from './build.js';

const signal = (s: SignalClass, what = 'detail', resetsAt: string | null = null, generation = 1): LaneEvent =>
  ({ type: 'signal', generation, signal: s, what, resetsAt });

describe('signal: hard limits', () => {
  it('usage_limit → degraded handoff, the account limited until the reading\'s reset', () => {
    const { lane, effects } = drive(working(), [[signal('usage_limit', 'rate_limit', '2030-01-01T10:00:00.000Z'), T0 + 60_000]]);
    expect(lane.phase).toBe('degraded');
    expect(types(effects)).toEqual(['clear_timer', 'journal', 'write_degraded', 'mark_limited']);
    expect(only(effects, 'mark_limited')[0]).toMatchObject({ account: 'work2', resetsAt: '2030-01-01T10:00:00.000Z' });
  });
  it('usage_limit while a packet is reported: only the account is marked', () => {
    const { lane, effects } = drive(reported(), [[signal('usage_limit'), T0 + 3 * 60_000]]);
    expect(lane.phase).toBe('reported');
    expect(types(effects)).toEqual(['mark_limited']);
  });
  it('overflow → degraded handoff, no account marked', () => {
    const { effects } = drive(working(), [[signal('overflow'), T0 + 60_000]]);
    expect(types(effects)).toEqual(['clear_timer', 'journal', 'write_degraded']);
  });
  it('a signal from a retired generation is ignored', () => {
    const { lane, effects } = drive(working(), [[signal('usage_limit', 'x', null, 0), T0 + 60_000]]);
    expect(lane.phase).toBeNull();
    expect(journals(effects)).toEqual(['ignored']);
  });
});

describe('signal: screens swarm never answers', () => {
  it.each(['permission', 'payment', 'login'] as const)('%s → blocked, one escalation however many signals and screens follow', (s) => {
    const { lane, effects } = drive(working(), [
      [signal(s, 'Bash: npm ci'), T0 + 60_000],
      [{ type: 'screen', screen: s, text: 'Do you want to proceed?' }, T0 + 61_000],
      [signal(s, 'Claude needs your permission to use Bash'), T0 + 66_000],
      [{ type: 'screen', screen: null }, T0 + 67_000],
    ]);
    expect(lane.state).toBe('blocked');
    expect(lane.blocked).toMatchObject({ class: s, source: 'signal' });
    expect(only(effects, 'escalate')).toHaveLength(1);
    expect(only(effects, 'escalate')[0]!.what).toContain('Bash: npm ci');
  });
  it('a screen first, then the signal: still one escalation, and the block outlasts the screen', () => {
    const { lane, effects } = drive(working(), [
      [{ type: 'screen', screen: 'permission', text: 'Do you want to proceed?' }, T0 + 60_000],
      [signal('permission'), T0 + 61_000],
      [{ type: 'screen', screen: null }, T0 + 62_000],
    ]);
    expect(only(effects, 'escalate')).toHaveLength(1);
    expect(lane.state).toBe('blocked');
  });
  it('the turn going on (Stop) unblocks it', () => {
    const { lane, effects } = drive(working(), [[signal('permission'), T0 + 60_000], [signal('turn_end'), T0 + 90_000]]);
    expect(lane.state).toBe('working');
    expect(journals(effects)).toContain('unblocked');
  });
});

describe('signal: handoff_now and turn_end', () => {
  it('handoff_now (auto-compaction) → told to write the packet now', () => {
    const { lane, effects } = drive(working(), [[signal('handoff_now'), T0 + 60_000]]);
    expect(lane.phase).toBe('writing');
    expect(only(effects, 'notify')[0]!.text).toContain('hand off now');
  });
  it('turn_end is activity: the stall clock is re-armed', () => {
    const { lane, effects } = drive(working(), [[signal('turn_end'), T0 + 60_000]]);
    expect(lane.lastActivity).toBe(T0 + 60_000);
    expect(types(effects)).toEqual(['set_timer']);
  });
});
