/** Who an agent is (SPEC 10.3): spool names, the registry's records, ancestry, and a sandbox's spool. */
import { describe, expect, it } from 'vitest';
import { asAgentRecord, bySpool, findAgent, parseSpoolName, spoolName, spoolOfPath, type AgentRecord } from '../../../src/core/authority/agents.js';

const NS = 'pid:[4026531836]';
const agent = (over: Partial<AgentRecord> = {}): AgentRecord => ({
  lane: 'lane-a', generation: 2, role: 'lane', account: 'a1', run: 3, spool: 'r3/lane-a-g2', pane: { pid: 40, startTicks: 900 }, host: 'box', pidns: NS, ...over,
});

describe('spool names', () => {
  it('round-trips, a lane name with dashes and -g in it included', () => {
    expect(spoolName(3, 'lane-a', 2)).toBe('r3/lane-a-g2');
    expect(parseSpoolName('r3/lane-g9-g2')).toEqual({ run: 3, lane: 'lane-g9', generation: 2 });
  });

  it.each(['', 'r3/lane-a', 'r0/lane-a-g1', 'r3/lane-a-g0', 'r3/../x-g1', 'r3/lane-a-g2/', 'r3/lane-a-g2\r', ' r3/lane-a-g2', 'r3/\u001b[31mlane-g1', 'r3/a b-g1'])('%j is no spool swarm gives', (name) => {
    expect(parseSpoolName(name)).toBeNull();
  });
});

describe('asAgentRecord', () => {
  it('takes a record as recordAgent writes it, with or without its pid namespace', () => {
    expect(asAgentRecord(JSON.parse(JSON.stringify(agent())))).toEqual(agent());
    const { pidns: _drop, ...old } = agent();
    expect(asAgentRecord(old)).toEqual(old);
    expect(asAgentRecord({ ...agent(), pane: null })).toEqual({ ...agent(), pane: null });
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'lane-a'],
    ['a spool that is not its own', { ...agent(), spool: 'r3/lane-b-g2' }],
    ['an unknown role', { ...agent(), role: 'developer' }],
    ['a generation of 0', { ...agent(), generation: 0 }],
    ['a lane name with a line break', { ...agent(), lane: 'lane-a\nlead', spool: 'r3/lane-a\nlead-g2' }],
    ['a pane without a start time', { ...agent(), pane: { pid: 40 } }],
  ])('%s counts for nobody', (_name, value) => {
    expect(asAgentRecord(value)).toBeNull();
  });

  it('an empty pid namespace is none', () => {
    expect(asAgentRecord({ ...agent(), pidns: '' })).not.toHaveProperty('pidns');
  });
});

describe('findAgent', () => {
  const lookup = (records: AgentRecord[]) => (p: { pid: number; startTicks: number }) => records.find((r) => r.pane?.pid === p.pid) ?? null;
  it('the first ancestor that is a recorded pane process, same start time, same host', () => {
    const ancestors = [{ pid: 99, startTicks: 1 }, { pid: 40, startTicks: 900 }, { pid: 7, startTicks: 5 }];
    expect(findAgent(ancestors, 'box', lookup([agent()]))).toEqual(agent());
  });

  it.each<[string, { pid: number; startTicks: number }[], string]>([
    ['a pid reused by another process', [{ pid: 40, startTicks: 901 }], 'box'],
    ['another host\'s record', [{ pid: 40, startTicks: 900 }], 'other'],
    ['no ancestors (no /proc)', [], 'box'],
  ])('%s: nobody', (_name, ancestors, host) => {
    expect(findAgent(ancestors, host, lookup([agent()]))).toBeNull();
  });
});

describe('spoolOfPath: the spool SWARM_SPOOL names', () => {
  const root = '/repo/plans/p/.swarm/spool';
  it.each<[string | undefined, string | null]>([
    [`${root}/r3/lane-a-g2`, 'r3/lane-a-g2'],
    [undefined, null],
    ['', null],
    [`${root}/r3/lane-a-g2/`, null],
    [`${root}/r3/lane-a-g2\r`, null],
    [`${root}/r3/lane-a-g2 `, null],
    [`${root}/../spool/r3/lane-a-g2`, null],
    [`${root}/r3/lane-a-g2\nr3/lead-g1`, null],
    [`\u001b[31m${root}/r3/lane-a-g2`, null],
    ['/other/plans/p/.swarm/spool/r3/lane-a-g2', null],
    [`${root}r3/lane-a-g2`, null],
  ])('%j → %j', (given, name) => {
    expect(spoolOfPath(root, given)).toBe(name);
  });
});

describe('bySpool: a sandboxed command known by its spool', () => {
  const older = (): AgentRecord => {
    const { pidns: _drop, ...record } = agent();
    return record;
  };
  it('in another pid namespace than the agent was recorded from, on its host: that agent', () => {
    expect(bySpool(agent(), { pidns: 'pid:[4026532178]', host: 'box' })).toEqual(agent());
  });

  it.each<[string, AgentRecord | null, { pidns: string | null; host: string }]>([
    ['in swarm\'s own namespace (a shell outside every pane)', agent(), { pidns: NS, host: 'box' }],
    ['no namespace readable', agent(), { pidns: null, host: 'box' }],
    ['a record with no namespace (older)', older(), { pidns: 'pid:[1]', host: 'box' }],
    ['another host', agent(), { pidns: 'pid:[4026532178]', host: 'other' }],
    ['no record', null, { pidns: 'pid:[4026532178]', host: 'box' }],
  ])('%s: nobody', (_name, record, own) => {
    expect(bySpool(record, own)).toBeNull();
  });
});
