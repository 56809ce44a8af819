import { describe, expect, it } from 'vitest';
import { HOST_LOST_WHAT, reduceHostLost } from '../../../src/core/swarm/hostLost.js';

const NOW = '2026-01-01T00:00:00.000Z';

describe('reduceHostLost', () => {
  it.each([
    ['a reason', 'server exited unexpectedly', 'server exited unexpectedly'],
    ['trailing spaces', 'server exited  \n', 'server exited'],
    ['CRLF, multi-line', 'lost server\r\nexit 1\r\n', 'lost server\r\nexit 1'],
    ['empty', '   ', 'no reason given'],
  ])('the first loss (%s): recorded at the clock\'s time, saved, journaled with what to do, the run stopped short', (_what, reason, said) => {
    const step = reduceHostLost(undefined, { reason }, { now: NOW });
    expect(step.hostLost).toEqual({ at: NOW, reason: said });
    expect(step.effects).toEqual([
      { type: 'save' },
      { type: 'journal', kind: 'observation', event: 'host_lost', data: { reason: said, what: HOST_LOST_WHAT } },
      { type: 'finish', code: 1, why: `the tmux server is gone (${said}): ${HOST_LOST_WHAT}` },
    ]);
  });

  it('a loss heard again changes nothing: the first stays, nothing journaled twice', () => {
    const first = { at: NOW, reason: 'server exited' };
    expect(reduceHostLost(first, { reason: 'control mode closed' }, { now: '2026-01-01T00:00:05.000Z' })).toEqual({ hostLost: first, effects: [] });
  });
});
