/** Issue 9 §5: a successor that shows a start screen (login, consent, payment, bypass, offline) → the next account at once. */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent, type StartScreen } from '../../src/machine/lane.js';
import { MIN, T0, ctx, drive, journals, only, picking, spawned, types, working } from './build.js';

const AT = T0 + 6 * MIN + 2000;
const screen = (s: StartScreen, over: Partial<Extract<LaneEvent, { type: 'successor_screen' }>> = {}): LaneEvent => ({
  type: 'successor_screen', generation: 2, account: 'work3', paneId: '%2', screen: s, text: 'Quick safety check: Is this a project you trust?', lines: 'Accessing workspace:\n/repo\n❯ 1. Yes, I trust this folder', ...over,
});

describe('a successor on a start screen', () => {
  it.each<StartScreen>(['login', 'consent', 'payment', 'bypass', 'offline'])('%s → ended, lease freed, account marked, next pick now', (s) => {
    const step = reduceLane(spawned(), screen(s), ctx(AT));
    expect(step.lane.phase).toBe('spawning');
    expect(step.lane.state).toBe('working');
    expect(step.lane.handoff?.successor).toBeNull();
    expect(step.lane.handoff?.tried).toEqual(['work3']);
    expect(step.lane.quickExits).toBe(0);
    expect(types(step.effects)).toEqual(['journal', 'mark_not_ready', 'clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account']);
    expect(journals(step.effects)).toEqual(['account_not_ready', 'lease_released']);
    expect(step.effects[0]).toMatchObject({ data: { account: 'work3', screen: s, text: 'Quick safety check: Is this a project you trust?' } });
    expect(only(step.effects, 'mark_not_ready')[0]).toMatchObject({ account: 'work3', why: `its successor showed a ${s} screen: "Quick safety check: Is this a project you trust?"` });
    expect(only(step.effects, 'kill_pane')[0]?.paneId).toBe('%2');
    expect(only(step.effects, 'pick_account')[0]?.exclude).toEqual(['work2', 'work3']);
  });

  it('is ignored when the pane, account or generation is not the awaited successor, or no successor is awaited', () => {
    for (const [lane, event] of [
      [spawned(), screen('login', { paneId: '%9' })], [spawned(), screen('login', { account: 'work9' })],
      [spawned(), screen('login', { generation: 3 })], [working(), screen('login')], [picking(), screen('login')],
    ] as const) {
      const step = reduceLane(lane, event, ctx(AT));
      expect(step.lane).toBe(lane);
      expect(journals(step.effects)).toEqual(['ignored']);
    }
  });

  it('the ended pane exiting afterwards does not count toward the crash-loop rule', () => {
    const { lane, effects } = drive(spawned(), [
      [screen('login'), AT],
      [{ type: 'exited', paneId: '%2', status: 1 }, AT + 100],
      [{ type: 'lease', account: 'work4', resetsAt: null, why: 'ok' }, AT + 200],
      [{ type: 'spawned', generation: 2, account: 'work4', paneId: '%3' }, AT + 300],
      [{ type: 'exited', paneId: '%3', status: 1 }, AT + 400],
    ]);
    expect(lane.quickExits).toBe(1);
    expect(lane.phase).toBe('spawning');
    expect(only(effects, 'escalate')).toEqual([]);
  });

  it('every account failing → blocked with one escalation listing each account and why, quoting the last lines', () => {
    const { lane, effects } = drive(spawned(), [
      [screen('consent'), AT],
      [{ type: 'lease', account: 'work4', resetsAt: null, why: 'ok' }, AT + 200],
      [{ type: 'spawned', generation: 2, account: 'work4', paneId: '%3' }, AT + 300],
      [screen('login', { account: 'work4', paneId: '%3', text: 'Not logged in · Please run /login', lines: 'Welcome\nNot logged in · Please run /login' }), AT + 400],
      [{ type: 'lease', account: null, resetsAt: null, why: 'no account has headroom (work1 not ready: signed out (no .credentials.json in /p/w1), work2 excluded)' }, AT + 500],
      [{ type: 'lease', account: null, resetsAt: null, why: 'again' }, AT + 600],
    ]);
    expect(lane.state).toBe('blocked');
    expect(lane.phase).toBe('attention');
    const escalations = only(effects, 'escalate');
    expect(escalations).toHaveLength(1);
    const what = escalations[0]!.what;
    expect(what).toContain('- work3: its successor showed a consent screen: "Quick safety check');
    expect(what).toContain('- work4: its successor showed a login screen: "Not logged in · Please run /login"');
    expect(what).toContain('and no other account is free (no account has headroom (work1 not ready: signed out');
    expect(what).toContain("last lines of work4's pane:\nWelcome\nNot logged in · Please run /login");
    expect(lane.blocked?.what).toBe(what);
  });

  it('no account ready at the first pick → blocked at once, not waiting for a reset', () => {
    const step = reduceLane(picking(), { type: 'lease', account: null, resetsAt: null, why: 'a1 not ready: signed out', noneReady: true }, ctx(AT));
    expect(step.lane.state).toBe('blocked');
    expect(step.lane.phase).toBe('attention');
    expect(only(step.effects, 'escalate')[0]?.what).toContain('a1 not ready: signed out');
  });

  it('no account at the first pick for other reasons still waits', () => {
    const step = reduceLane(picking(), { type: 'lease', account: null, resetsAt: null, why: 'a1 critical' }, ctx(AT));
    expect(step.lane.phase).toBe('waiting');
  });
});
