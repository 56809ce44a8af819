import { describe, expect, it } from 'vitest';
import { agentContext, agentPlan, wholeNumber, type AgentContext } from '../../../src/core/protocol/agentContext.js';
import type { AgentRecord } from '../../../src/core/authority/agents.js';
import { UsageError } from '../../../src/errors.js';

type Env = Record<string, string | undefined>;

const agent: AgentRecord = {
  lane: 'lane-a', generation: 2, role: 'lane', account: 'work2', run: 3, spool: 'r3/lane-a-g2', pane: { pid: 4242, startTicks: 99 }, host: 'h',
};

const base: AgentContext = {
  plan: '/repo/plans/demo', lane: 'lane-a', role: 'lane', account: 'work2', generation: 2,
  epoch: null, run: 3, spool: 'r3/lane-a-g2', config: null, kind: null, mailbox: null, packet: null,
};

/** The thrown error, for exact assertions on class, message, hint and exit code. */
function thrown(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('expected a throw');
}

describe('agentContext: who from the record of the pane, what it knows from the environment', () => {
  it.each<[string, Env, Partial<AgentContext>]>([
    ['nothing but the record', {}, {}],
    ['every optional variable', {
      SWARM_EPOCH: '3', SWARM_CONFIG: '/repo/swarm.yaml', SWARM_KIND: 'claude',
      SWARM_MAILBOX: '/repo/plans/demo/.swarm/mailbox/lane-a.md', SWARM_PACKET: '/repo/p.yaml',
    }, { epoch: 3, config: '/repo/swarm.yaml', kind: 'claude', mailbox: '/repo/plans/demo/.swarm/mailbox/lane-a.md', packet: '/repo/p.yaml' }],
    ['epoch 0', { SWARM_EPOCH: '0' }, { epoch: 0 }],
    ['epoch empty counts as unset', { SWARM_EPOCH: '' }, { epoch: null }],
    ['epoch whitespace and CRLF', { SWARM_EPOCH: ' 4\r\n' }, { epoch: 4 }],
    ['empty optional strings are null', { SWARM_CONFIG: '', SWARM_KIND: ' ', SWARM_MAILBOX: '\n', SWARM_PACKET: '' }, { config: null, kind: null, mailbox: null, packet: null }],
  ])('reads %s', (_name, env, changes) => {
    expect(agentContext(env, '/repo/plans/demo', agent)).toEqual({ ...base, ...changes });
  });

  it('no variable names anyone: SWARM_LANE, SWARM_ROLE, SWARM_ACCOUNT, SWARM_GENERATION and SWARM_RUN change nothing', () => {
    const env = { SWARM_LANE: 'lead', SWARM_ROLE: 'lead', SWARM_ACCOUNT: 'a9', SWARM_GENERATION: '7', SWARM_RUN: '1' };
    expect(agentContext(env, '/repo/plans/demo', agent)).toEqual(base);
  });

  it.each(['x', '-1', '1.5', '1e3', '\u001b[31m2'])('a malformed epoch "%s" is a usage error naming it', (value) => {
    expect(thrown(() => agentContext({ SWARM_EPOCH: value }, '/p', agent)).message).toContain('SWARM_EPOCH must be a whole number');
  });
});

describe('agentPlan', () => {
  it('the plan to look in, trimmed', () => {
    expect(agentPlan({ SWARM_PLAN: ' /repo/plans/demo\r\n' }, 'notify')).toBe('/repo/plans/demo');
  });

  it('none: told it runs in a pane, with no variables to set by hand', () => {
    const error = thrown(() => agentPlan({}, 'notify'));
    expect(error.message).toBe('swarm notify runs inside a swarm pane: SWARM_PLAN not set');
    expect(error.hint).not.toContain('export');
  });

  it("a lead's command: told as the lead's", () => {
    expect(thrown(() => agentPlan({ SWARM_PLAN: '  ' }, 'lane add', { does: 'adds lanes', ask: 'add the lane' })).message).toContain("swarm lane add is the lead's");
  });
});

describe('wholeNumber', () => {
  it('whole numbers at or above the floor', () => {
    expect(wholeNumber(' 007 ', 'N', 1)).toBe(7);
    expect(() => wholeNumber('0', 'N', 1)).toThrow('N must be a whole number ≥ 1, got "0"');
  });
});
