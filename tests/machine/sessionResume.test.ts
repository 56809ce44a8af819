/**
 * A lane's own session started again after its tmux server went (SPEC 10.8): the restart's resume,
 * readiness (a signal, a report, its session told, or its pane printing and living 15 s), and every
 * fallback to the degraded packet and a successor (its pane not made, an early exit, a start screen,
 * not ready within 60 s), across a second restart too.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent, type LaneState, type MachineContext } from '../../src/machine/lane.js';
import { RESUME_READY_MS, type ResumeChoice } from '../../src/core/swarm/sessionResume.js';
import { MIN, T0, ctx, drive, journals, near, only, report, types, working, writing } from './build.js';

const AT = T0 + 10 * MIN;
const YES: ResumeChoice = { resume: true, sessionId: 'sess-1', account: 'work2' };
type Pane = { generation: number; paneId: string; dead: boolean; status?: number | null; tail?: string };
const restart = (lane: LaneState, panes: Pane[], choice: ResumeChoice | undefined, at = AT, hostGone = true) =>
  reduceLane(lane, { type: 'resume', panes, hostGone } as LaneEvent, ctx(at, choice === undefined ? {} : { resumeSession: choice }));
const at = (lane: LaneState, events: [LaneEvent, number][], over: Partial<MachineContext> = {}) => drive(lane, events, over);
/** Resumed at AT, its pane %7 made at AT + 1 s. */
const resumedLane = (): LaneState =>
  at(restart(working(), [], YES).lane, [[{ type: 'resume_spawned', generation: 1, paneId: '%7' }, AT + 1000]]).lane;

describe('a restart after the host went', () => {
  it('resumes the lane\'s own session on its own account, in its generation: the resume intent and its deadline', () => {
    const step = restart(working(), [], YES);
    expect(step.lane).toMatchObject({ generation: 1, account: 'work2', paneId: null, state: 'working', resuming: { sessionId: 'sess-1', account: 'work2', paneId: null, readyBy: AT + RESUME_READY_MS } });
    expect(step.lane.resumes).toEqual({ generation: 1, count: 1 });
    expect(types(step.effects)).toEqual(['resume_session', 'set_timer', 'journal']);
    expect(step.effects[0]).toEqual({ type: 'resume_session', id: 'lane-a/g1/resume/1', generation: 1, account: 'work2', sessionId: 'sess-1' });
    expect(only(step.effects, 'journal')[0]).toMatchObject({ event: 'agent_exited', data: { paneId: '%1', vanished: true, resumed: true } });
    expect(step.lane.handoff).toBeNull();
  });

  it('a lane told to hand off soon (near) resumes too', () => {
    expect(restart(near(), [], YES).lane.resuming).not.toBeNull();
  });

  it('the swarm says no (why journaled): the degraded packet and a successor, as before', () => {
    const step = restart(working(), [], { resume: false, why: 'its account work2 is limited until 05:00' });
    expect(step.lane).toMatchObject({ state: 'lost', phase: 'degraded', handoff: { reason: 'lane_lost' } });
    expect(step.lane.resuming ?? null).toBeNull();
    expect(only(step.effects, 'journal').find((e) => e.event === 'not_resumed')?.data).toEqual({ paneId: '%1', why: 'its account work2 is limited until 05:00' });
    expect(types(step.effects)).toContain('write_degraded');
  });

  it('a handoff in flight (its packet being written) is not resumed: degraded as before, and why', () => {
    const step = restart(writing(), [], YES);
    expect(step.lane.resuming ?? null).toBeNull();
    expect(journals(step.effects)).toContain('not_resumed');
    expect(step.lane.phase).toBe('degraded');
  });

  it('a pane gone while the host stayed (closed from tmux): no resume is even asked', () => {
    const step = restart(working(), [], YES, AT, false);
    expect(step.lane.resuming ?? null).toBeNull();
    expect(journals(step.effects)).not.toContain('not_resumed');
    expect(step.lane.phase).toBe('degraded');
  });

  it('a pane found alive is adopted as ever: nothing resumed', () => {
    const step = restart(working(), [{ generation: 1, paneId: '%1', dead: false }], YES);
    expect(step.lane.resuming ?? null).toBeNull();
    expect(types(step.effects)).not.toContain('resume_session');
  });
});

describe('the resumed agent', () => {
  it('its pane made: session_resumed journaled, the pane is the lane\'s, its 15 s check armed', () => {
    const step = at(restart(working(), [], YES).lane, [[{ type: 'resume_spawned', generation: 1, paneId: '%7' }, AT + 1000]]);
    expect(step.lane).toMatchObject({ paneId: '%7', resuming: { paneId: '%7', spawnedAt: AT + 1000 } });
    const told = only(step.effects, 'journal').find((e) => e.event === 'session_resumed');
    expect(told?.data).toEqual({ session_id: 'sess-1', account: 'work2', paneId: '%7', generation: 1, time: 1 });
    expect(only(step.effects, 'set_timer').map((t) => [t.timer, t.at])).toContainEqual(['resume', AT + 1000 + 15_000]);
  });

  it.each<[string, LaneEvent]>([
    ['its SessionStart hook told its session', { type: 'session_told', generation: 1, sessionId: 'sess-1' }],
    ['it reported', report('working: checked the checkout')],
    ['a turn end', { type: 'signal', generation: 1, signal: 'turn_end', what: 'turn', resetsAt: null }],
  ])('is ready when %s (the event goes on as ever)', (_name, event) => {
    const step = at(resumedLane(), [[event, AT + 3000]]);
    expect(step.lane.resuming).toBeNull();
    expect(types(step.effects)).toContain('clear_timer');
    if (event.type === 'report') expect(step.lane.last).toBe('working: checked the checkout');
  });

  it('is ready when its pane printed and it lived 15 s (a kind that tells nothing at its start)', () => {
    const step = at(resumedLane(), [[{ type: 'output' }, AT + 4000], [{ type: 'timer', timer: 'resume' }, AT + 16_000]]);
    expect(step.lane.resuming).toBeNull();
    expect(journals(step.effects)).not.toContain('resume_failed');
  });

  it('silent at 15 s: waits for the 60 s deadline, then falls back (pane closed, degraded packet, successor)', () => {
    const quiet = at(resumedLane(), [[{ type: 'timer', timer: 'resume' }, AT + 16_000]]);
    expect(quiet.lane.resuming).not.toBeNull();
    expect(only(quiet.effects, 'set_timer').map((t) => t.at)).toEqual([AT + RESUME_READY_MS]);
    const step = at(quiet.lane, [[{ type: 'timer', timer: 'resume' }, AT + RESUME_READY_MS]]);
    expect(step.lane).toMatchObject({ resuming: null, state: 'lost', phase: 'degraded', handoff: { reason: 'lane_lost', degraded: true } });
    const failed = only(step.effects, 'journal').find((e) => e.event === 'resume_failed');
    expect(failed?.data).toMatchObject({ session_id: 'sess-1', account: 'work2' });
    expect(String(failed?.data.why)).toContain('not ready within 60 s');
    expect(only(step.effects, 'close_pane')).toEqual([{ type: 'close_pane', id: 'lane-a/g1/resume/close/1', paneId: '%7', generation: 1 }]);
    expect(types(step.effects)).toContain('write_degraded');
  });

  it('exits within 15 s of its start: falls back with its last lines (no pane to close)', () => {
    const step = at(resumedLane(), [[{ type: 'exited', paneId: '%7', status: 1, tail: 'No conversation found with session ID: sess-1' }, AT + 3000]]);
    expect(step.lane).toMatchObject({ resuming: null, state: 'lost', phase: 'degraded' });
    expect(String(only(step.effects, 'journal').find((e) => e.event === 'resume_failed')?.data.why)).toContain('within 15 s');
    expect(step.lane.handoff?.exit).toEqual({ status: 1, lines: ['No conversation found with session ID: sess-1'] });
    expect(types(step.effects)).not.toContain('close_pane');
  });

  it('shows a login screen: falls back and its account is marked not ready', () => {
    const step = at(resumedLane(), [[{ type: 'screen', screen: 'login', text: 'Please run /login' }, AT + 3000]]);
    expect(step.lane).toMatchObject({ resuming: null, phase: 'degraded' });
    expect(only(step.effects, 'mark_not_ready')).toEqual([{ type: 'mark_not_ready', id: 'lane-a/g1/resume/not-ready/work2', account: 'work2', why: 'a login screen when its session was resumed' }]);
    expect(only(step.effects, 'close_pane')).toHaveLength(1);
  });

  it('a permission screen is no start screen: the lane blocks on it as ever, still resuming', () => {
    const step = at(resumedLane(), [[{ type: 'screen', screen: 'permission', text: 'Allow?' }, AT + 3000]]);
    expect(step.lane.state).toBe('blocked');
    expect(step.lane.resuming).not.toBeNull();
  });

  it('its pane could not be made: falls back at once', () => {
    const step = at(restart(working(), [], YES).lane, [[{ type: 'resume_failed', generation: 1, error: 'no space for new pane' }, AT + 1000]]);
    expect(step.lane).toMatchObject({ resuming: null, phase: 'degraded' });
    expect(String(only(step.effects, 'journal').find((e) => e.event === 'resume_failed')?.data.why)).toContain('no space for new pane');
  });

  it('after it is ready, its exit is an exit as ever (degraded, no resume_failed)', () => {
    const ready = at(resumedLane(), [[{ type: 'session_told', generation: 1, sessionId: 'sess-1' }, AT + 2000]]).lane;
    const step = at(ready, [[{ type: 'exited', paneId: '%7', status: 0 }, AT + 5 * MIN]]);
    expect(step.lane.phase).toBe('degraded');
    expect(journals(step.effects)).not.toContain('resume_failed');
  });

  it('a resume\'s pane made after the resume was given up is closed', () => {
    const gaveUp = at(restart(working(), [], YES).lane, [[{ type: 'resume_failed', generation: 1, error: 'x' }, AT + 1000]]).lane;
    const step = at(gaveUp, [[{ type: 'resume_spawned', generation: 1, paneId: '%9' }, AT + 2000]]);
    expect(only(step.effects, 'close_pane')).toEqual([{ type: 'close_pane', id: 'lane-a/g1/resume/orphan/%9', paneId: '%9', generation: 1 }]);
  });
});

describe('a restart while a resume is in flight', () => {
  it('its pane alive: adopted, the 15 s check again', () => {
    const step = restart(resumedLane(), [{ generation: 1, paneId: '%7', dead: false }], undefined, AT + 5000, false);
    expect(step.lane).toMatchObject({ paneId: '%7', resuming: { paneId: '%7', spawnedAt: AT + 1000 } });
    expect(only(step.effects, 'set_timer').map((t) => [t.timer, t.at])).toEqual([['resume', AT + 16_000]]);
  });

  it('its pane alive after swarm was down longer than its window: a whole window from the restart, not a fallback at once', () => {
    const later = AT + 10 * MIN;
    const step = restart(resumedLane(), [{ generation: 1, paneId: '%7', dead: false }], undefined, later, false);
    expect(step.lane.resuming).toMatchObject({ paneId: '%7', readyBy: later + RESUME_READY_MS });
    expect(journals(step.effects)).not.toContain('resume_failed');
    // Its pane prints after the restart: ready at the check.
    const ready = at(step.lane, [[{ type: 'output' }, later + 1000], [{ type: 'timer', timer: 'resume' }, later + 1000]]);
    expect(ready.lane.resuming).toBeNull();
    // Silent for the whole new window: replaced then.
    const silent = at(step.lane, [[{ type: 'timer', timer: 'resume' }, later], [{ type: 'timer', timer: 'resume' }, later + RESUME_READY_MS]]);
    expect(journals(silent.effects)).toContain('resume_failed');
  });

  it('its pane made but not recorded (the intent carried out before the crash): adopted', () => {
    const step = restart(restart(working(), [], YES).lane, [{ generation: 1, paneId: '%8', dead: false }], undefined, AT + 5000, false);
    expect(step.lane).toMatchObject({ paneId: '%8', resuming: { paneId: '%8', spawnedAt: AT + 5000 } });
  });

  it('its pane dead: falls back with its exit', () => {
    const step = restart(resumedLane(), [{ generation: 1, paneId: '%7', dead: true, status: 1, tail: 'error' }], undefined, AT + 5000, false);
    expect(step.lane).toMatchObject({ resuming: null, phase: 'degraded' });
    expect(step.lane.handoff?.exit).toEqual({ status: 1, lines: ['error'] });
  });

  it('gone with its host again: resumed again (count 2), or given up when the swarm says no', () => {
    const again = restart(resumedLane(), [], YES, AT + 5000);
    expect(again.lane.resumes).toEqual({ generation: 1, count: 2 });
    expect(only(again.effects, 'resume_session')[0]?.id).toBe('lane-a/g1/resume/2');
    const no = restart(resumedLane(), [], { resume: false, why: 'it was resumed 3 times already' }, AT + 5000);
    expect(no.lane).toMatchObject({ resuming: null, phase: 'degraded' });
    expect(String(only(no.effects, 'journal').find((e) => e.event === 'resume_failed')?.data.why)).toContain('resumed 3 times already');
  });

  it('not made yet and not found: the 60 s deadline decides', () => {
    const step = restart(restart(working(), [], YES).lane, [], undefined, AT + 5000, false);
    expect(step.lane.resuming).toMatchObject({ paneId: null });
    expect(only(step.effects, 'set_timer').map((t) => t.at)).toEqual([AT + RESUME_READY_MS]);
  });
});

describe('the lead', () => {
  it('resumes like any lane, in its generation and epoch', () => {
    const lead = working('lead');
    const step = restart(lead, [], YES);
    expect(step.lane).toMatchObject({ role: 'lead', generation: 1, resuming: { sessionId: 'sess-1' } });
    expect(journals(step.effects)).not.toContain('lead_takeover');
  });
});
