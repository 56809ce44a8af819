import { describe, expect, it } from 'vitest';
import { agentContext, wholeNumber, type AgentContext } from '../../../src/core/protocol/agentContext.js';
import { UsageError } from '../../../src/errors.js';

type Env = Record<string, string | undefined>;

const full: Env = {
  SWARM_PLAN: '/repo/plans/demo',
  SWARM_LANE: 'lane-a',
  SWARM_ROLE: 'lane',
  SWARM_ACCOUNT: 'work2',
  SWARM_GENERATION: '1',
};

const base: AgentContext = {
  plan: '/repo/plans/demo', lane: 'lane-a', role: 'lane', account: 'work2', generation: 1,
  epoch: null, run: null, config: null, kind: null, mailbox: null, packet: null,
};

const HINT = 'agents get these from `swarm up`; to try it by hand, export SWARM_PLAN=<plan dir> SWARM_LANE=<name> SWARM_ROLE=lane SWARM_ACCOUNT=<id> SWARM_GENERATION=1';

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

describe('agentContext', () => {
  it.each<[string, Env, Partial<AgentContext>]>([
    ['the required five', full, {}],
    ['a lead', { ...full, SWARM_ROLE: 'lead', SWARM_LANE: 'lead' }, { role: 'lead', lane: 'lead' }],
    ['every optional variable', {
      ...full, SWARM_EPOCH: '3', SWARM_CONFIG: '/repo/swarm.yaml', SWARM_KIND: 'claude',
      SWARM_MAILBOX: '/repo/plans/demo/.swarm/mailbox/lane-a.md', SWARM_PACKET: '/repo/p.yaml',
    }, { epoch: 3, config: '/repo/swarm.yaml', kind: 'claude', mailbox: '/repo/plans/demo/.swarm/mailbox/lane-a.md', packet: '/repo/p.yaml' }],
    ['epoch 0', { ...full, SWARM_EPOCH: '0' }, { epoch: 0 }],
    ['epoch empty counts as unset', { ...full, SWARM_EPOCH: '' }, { epoch: null }],
    ['epoch whitespace counts as unset', { ...full, SWARM_EPOCH: '  \t' }, { epoch: null }],
    ['the run', { ...full, SWARM_RUN: '4' }, { run: 4 }],
    ['the run with spaces and CRLF', { ...full, SWARM_RUN: ' 2\r\n' }, { run: 2 }],
    ['a run empty counts as unset', { ...full, SWARM_RUN: '' }, { run: null }],
    ['empty optional strings are null', { ...full, SWARM_CONFIG: '', SWARM_KIND: ' ', SWARM_MAILBOX: '\n', SWARM_PACKET: '' },
      { config: null, kind: null, mailbox: null, packet: null }],
    ['a high generation', { ...full, SWARM_GENERATION: '12' }, { generation: 12 }],
    ['leading zeros', { ...full, SWARM_GENERATION: '007' }, { generation: 7 }],
    ['whitespace trimmed everywhere', {
      SWARM_PLAN: '  /repo/plans/demo \n', SWARM_LANE: '\tlane-a ', SWARM_ROLE: ' lane\r\n', SWARM_ACCOUNT: ' work2 ',
      SWARM_GENERATION: ' 2 \n', SWARM_EPOCH: ' 4 ', SWARM_CONFIG: ' /repo/swarm.yaml ', SWARM_KIND: ' sim ',
      SWARM_MAILBOX: ' /m ', SWARM_PACKET: ' /p.yaml\r\n',
    }, { generation: 2, epoch: 4, config: '/repo/swarm.yaml', kind: 'sim', mailbox: '/m', packet: '/p.yaml' }],
    ['unrelated variables ignored', { ...full, HOME: '/home/x', SWARM_OTHER: 'x' }, {}],
  ])('reads %s', (_name, env, changes) => {
    expect(agentContext(env, 'notify')).toEqual({ ...base, ...changes });
  });

  it.each<[string, Env, string]>([
    ['nothing set', {}, 'SWARM_PLAN, SWARM_LANE, SWARM_ROLE, SWARM_ACCOUNT, SWARM_GENERATION'],
    ['one missing', { ...full, SWARM_ACCOUNT: undefined }, 'SWARM_ACCOUNT'],
    ['two missing', { ...full, SWARM_PLAN: undefined, SWARM_GENERATION: undefined }, 'SWARM_PLAN, SWARM_GENERATION'],
    ['empty counts as missing', { ...full, SWARM_LANE: '' }, 'SWARM_LANE'],
    ['whitespace counts as missing', { ...full, SWARM_ROLE: '  \r\n', SWARM_LANE: '\t' }, 'SWARM_LANE, SWARM_ROLE'],
    ['optional ones set, required ones not', { SWARM_EPOCH: '1', SWARM_CONFIG: '/c', SWARM_LANE: 'lane-a' },
      'SWARM_PLAN, SWARM_ROLE, SWARM_ACCOUNT, SWARM_GENERATION'],
  ])('names every missing variable in one message: %s', (_name, env, names) => {
    const error = thrown(() => agentContext(env, 'packet write'));
    expect(error.message).toBe(`swarm packet write runs inside a swarm pane: ${names} not set`);
    expect(error.hint).toBe(HINT);
    expect(error.exitCode).toBe(2);
  });

  it('reports the missing variables before a bad role or generation', () => {
    const error = thrown(() => agentContext({ ...full, SWARM_PLAN: '', SWARM_ROLE: 'boss', SWARM_GENERATION: 'x' }, 'capacity'));
    expect(error.message).toBe('swarm capacity runs inside a swarm pane: SWARM_PLAN not set');
  });

  it.each<[string, string, string]>([
    ['another word', 'boss', 'SWARM_ROLE must be "lead" or "lane", got "boss"'],
    ['upper case', 'LANE', 'SWARM_ROLE must be "lead" or "lane", got "LANE"'],
    ['capitalised', 'Lead', 'SWARM_ROLE must be "lead" or "lane", got "Lead"'],
    ['trimmed in the message', '  developer \n', 'SWARM_ROLE must be "lead" or "lane", got "developer"'],
    ['ANSI around the word', '\u001b[1mlane\u001b[0m', 'SWARM_ROLE must be "lead" or "lane", got "\u001b[1mlane\u001b[0m"'],
  ])('refuses a bad role: %s', (_name, role, message) => {
    const error = thrown(() => agentContext({ ...full, SWARM_ROLE: role }, 'notify'));
    expect(error.message).toBe(message);
    expect(error.exitCode).toBe(2);
  });

  it.each<[string, string, string]>([
    ['zero', '0', 'SWARM_GENERATION must be a whole number ≥ 1, got "0"'],
    ['zeros', '000', 'SWARM_GENERATION must be a whole number ≥ 1, got "000"'],
    ['a word', 'x', 'SWARM_GENERATION must be a whole number ≥ 1, got "x"'],
    ['a fraction', '1.5', 'SWARM_GENERATION must be a whole number ≥ 1, got "1.5"'],
    ['negative', '-1', 'SWARM_GENERATION must be a whole number ≥ 1, got "-1"'],
    ['with a plus sign', '+2', 'SWARM_GENERATION must be a whole number ≥ 1, got "+2"'],
    ['with a g prefix', 'g2', 'SWARM_GENERATION must be a whole number ≥ 1, got "g2"'],
    ['exponent', '1e2', 'SWARM_GENERATION must be a whole number ≥ 1, got "1e2"'],
    ['two numbers', '1 2', 'SWARM_GENERATION must be a whole number ≥ 1, got "1 2"'],
    ['trimmed in the message', ' 1.5 \r\n', 'SWARM_GENERATION must be a whole number ≥ 1, got "1.5"'],
  ])('refuses a bad generation: %s', (_name, generation, message) => {
    const error = thrown(() => agentContext({ ...full, SWARM_GENERATION: generation }, 'notify'));
    expect(error.message).toBe(message);
    expect(error.exitCode).toBe(2);
  });

  it.each<[string, string, string]>([
    ['a word', 'x', 'SWARM_EPOCH must be a whole number ≥ 0, got "x"'],
    ['a fraction', '1.5', 'SWARM_EPOCH must be a whole number ≥ 0, got "1.5"'],
    ['negative', '-1', 'SWARM_EPOCH must be a whole number ≥ 0, got "-1"'],
  ])('refuses a bad epoch: %s', (_name, epoch, message) => {
    expect(thrown(() => agentContext({ ...full, SWARM_EPOCH: epoch }, 'notify')).message).toBe(message);
  });

  it.each<[string, string, string]>([
    ['a word', 'x', 'SWARM_RUN must be a whole number ≥ 1, got "x"'],
    ['zero', '0', 'SWARM_RUN must be a whole number ≥ 1, got "0"'],
    ['an escape code', '\u001b[31m2', 'SWARM_RUN must be a whole number ≥ 1, got "\u001b[31m2"'],
  ])('refuses a bad run: %s', (_name, run, message) => {
    expect(thrown(() => agentContext({ ...full, SWARM_RUN: run }, 'notify')).message).toBe(message);
  });
});

describe('wholeNumber', () => {
  it.each<[string, number, number]>([
    ['0', 0, 0],
    ['5', 1, 5],
    [' 42\n', 0, 42],
    ['1', 1, 1],
  ])('%j (min %d) → %d', (text, min, expected) => {
    expect(wholeNumber(text, 'N', min)).toBe(expected);
  });

  it.each<[string, number, string]>([
    ['', 0, 'N must be a whole number ≥ 0, got ""'],
    ['   ', 0, 'N must be a whole number ≥ 0, got ""'],
    ['2', 3, 'N must be a whole number ≥ 3, got "2"'],
    ['0x10', 0, 'N must be a whole number ≥ 0, got "0x10"'],
  ])('refuses %j (min %d)', (text, min, message) => {
    expect(thrown(() => wholeNumber(text, 'N', min)).message).toBe(message);
  });
});
