/**
 * An agent's last words are kept: every exit journals `agent_exited` with its status and its pane's
 * last lines, and every escalation that follows from that exit quotes them. Driven by hand through
 * reduceLane, with times.
 */
import { describe, expect, it } from 'vitest';
import { reduceLane, type LaneEvent } from '../../src/machine/lane.js';
import { exitOf, quoteExit } from '../../src/machine/lastWords.js';
import { DEGRADED, MIN, T0, ctx, drive, gating, leased, only, working } from './build.js';

const OFFLINE = 'Unable to connect to Anthropic services\nFailed to connect to api.anthropic.com: ENOTFOUND';
const exited = (paneId: string, status: number | null, tail?: string): LaneEvent => ({ type: 'exited', paneId, status, ...(tail === undefined ? {} : { tail }) });
const escalations = (effects: ReturnType<typeof reduceLane>['effects']) => only(effects, 'escalate').map((e) => e.what);
const agentExited = (effects: ReturnType<typeof reduceLane>['effects']) => only(effects, 'journal').filter((j) => j.event === 'agent_exited').map((j) => j.data);

describe('exitOf: the lines an exit carries', () => {
  it.each([
    ['none told', undefined, []],
    ['empty', '', []],
    ['blank lines and trailing spaces', '\n  one  \n\n   \ntwo\t\n', ['  one', 'two']],
    ['the offline screen', OFFLINE, ['Unable to connect to Anthropic services', 'Failed to connect to api.anthropic.com: ENOTFOUND']],
  ])('%s', (_what, tail, lines) => {
    expect(exitOf({ type: 'exited', paneId: '%1', status: 1, ...(tail === undefined ? {} : { tail }) })).toEqual({ status: 1, lines });
  });

  it('quoteExit: the status, then the lines; an empty pane said so', () => {
    expect(quoteExit('the agent', { status: 1, lines: ['a', 'b'] })).toBe('the agent exited (status 1); last lines of its pane:\na\nb');
    expect(quoteExit('the agent', { status: null, lines: [] })).toBe('the agent exited (status unknown); its pane showed nothing');
  });
});

describe('agent_exited', () => {
  it('a working lane\'s agent exits: status and last lines journaled, then the degraded handoff keeps them', () => {
    const step = reduceLane(working(), exited('%1', 1, OFFLINE), ctx(T0 + MIN));
    expect(agentExited(step.effects)).toEqual([{ paneId: '%1', status: 1, last_lines: OFFLINE.split('\n') }]);
    expect(step.lane.phase).toBe('degraded');
    expect(step.lane.handoff?.exit).toEqual({ status: 1, lines: OFFLINE.split('\n') });
  });

  it('an agent that exits while its gate runs, and a spent agent after its packet: journaled too', () => {
    expect(agentExited(reduceLane(gating(), exited('%1', 0, 'bye'), ctx(T0 + 2 * MIN, { doneWhen: 'npm test' })).effects))
      .toEqual([{ paneId: '%1', status: 0, last_lines: ['bye'] }]);
    expect(agentExited(reduceLane(leased(), exited('%1', 0), ctx(T0 + 6 * MIN)).effects))
      .toEqual([{ paneId: '%1', status: 0, last_lines: [], expected: true }]);
  });

  it('a successor that dies before accepting: journaled with its generation and account', () => {
    const step = drive(leased(), [[{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 6 * MIN], [exited('%2', 1, OFFLINE), T0 + 8 * MIN]]);
    expect(agentExited(step.steps[1]!.effects)).toEqual([{ paneId: '%2', status: 1, last_lines: OFFLINE.split('\n'), successor: true, for_generation: 2, account: 'work3' }]);
    expect(step.lane.handoff?.failures).toEqual([{ account: 'work3', why: 'the successor exited before accepting (status 1)', lines: OFFLINE }]);
  });
});

describe('the escalations that follow quote them', () => {
  it('no account is ready for the successor: the spent agent\'s exit and its last lines', () => {
    const story = drive(working(), [
      [exited('%1', 1, OFFLINE), T0 + MIN],
      [{ type: 'degraded_written', packet: DEGRADED }, T0 + MIN + 10],
      [{ type: 'lease', account: null, resetsAt: null, why: 'no account has headroom (work1 the lead\'s, work2 excluded (the account lane-a g1 leaves))', noneReady: true }, T0 + MIN + 20],
    ]);
    expect(story.lane).toMatchObject({ phase: 'attention', state: 'blocked' });
    expect(escalations(story.effects)).toEqual([
      `no account is ready for the successor of ${DEGRADED} (no account has headroom (work1 the lead's, work2 excluded (the account lane-a g1 leaves))): ` +
        'fix an account, then run swarm up again\n' +
        `the agent of g1 on work2 exited (status 1); last lines of its pane:\n${OFFLINE}`,
    ]);
  });

  it('a crash loop: the last exit\'s lines', () => {
    const story = drive(working(), [
      [exited('%1', 1, 'first'), T0 + 5_000],
      [{ type: 'degraded_written', packet: DEGRADED }, T0 + 6_000],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 7_000],
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 8_000],
      [exited('%2', 1, OFFLINE), T0 + 10_000],
    ]);
    expect(escalations(story.effects)).toEqual([expect.stringContaining(`(exit status 1): fix the command or the account's setup, then run swarm up again\nlast lines of the pane:\n${OFFLINE}`)]);
  });

  it('max_generations after an exit: the exit\'s lines with the hint', () => {
    const step = reduceLane(working('lane', { maxGenerations: 1 }), exited('%1', 2, OFFLINE), ctx(T0 + MIN, { maxGenerations: 1 }));
    expect(step.lane.state).toBe('stopped');
    expect(escalations(step.effects)[0]).toContain(`\nits agent (g1) exited (status 2); last lines of its pane:\n${OFFLINE}`);
  });
});
