/**
 * What the host relay carries: plain relative paths only, each only under the roots of its direction
 * (hostile paths refused); how a copy applies appended bytes (the overlap of a restart skipped, a gap
 * asked for again); and a whole file assembled from its pieces in order.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CHUNK, MAX_WHOLE } from '../../../src/core/host/relay.js';
import { appendStep, assemble, followed, followedDir, pathProblem, pushable, type Assembly } from '../../../src/core/host/relayPaths.js';

describe('pathProblem: a plain path relative to P, or why not', () => {
  it.each<[string, string | null]>([
    ['PLAN.md', null],
    ['.swarm/spool/r1/lane-a-g1/records.jsonl', null],
    ['analysis_results/handoff/lane a ü.yaml', null],
    ['', 'an empty path'],
    ['/etc/passwd', 'an absolute path'],
    ['/', 'an absolute path'],
    ['..', 'an empty, `.` or `..` part'],
    ['../x', 'an empty, `.` or `..` part'],
    ['.swarm/spool/../../.ssh/id_rsa', 'an empty, `.` or `..` part'],
    ['.swarm/./spool/a.jsonl', 'an empty, `.` or `..` part'],
    ['.swarm//spool', 'an empty, `.` or `..` part'],
    ['.swarm/spool/', 'an empty, `.` or `..` part'],
    ['.swarm/spool/a\u0000.jsonl', 'a NUL, a control character or a backslash'],
    ['.swarm/spool/a\n.jsonl', 'a NUL, a control character or a backslash'],
    ['.swarm/spool/\u001b[31m.jsonl', 'a NUL, a control character or a backslash'],
    ['.swarm\\spool\\a.jsonl', 'a NUL, a control character or a backslash'],
    [`.swarm/spool/${'a'.repeat(1100)}`, 'a path longer than 1024 characters'],
  ])('%j', (path, problem) => {
    expect(pathProblem(path)).toBe(problem);
  });
});

describe('followed: what the host sends the engine', () => {
  it.each<[string, 'append' | 'whole' | null]>([
    ['.swarm/spool/r1/lane-a-g1/records.jsonl', 'append'],
    ['.swarm/spool/r1/lane-a-g1/usage/usage.jsonl', 'append'],
    ['.swarm/spool/r1/lane-a-g1/packets/lane-a-g1-20260101T000000Z.yaml', 'whole'],
    ['analysis_results/handoff/lane-a-g1-20260101T000000Z.yaml', 'whole'],
    ['analysis_results/handoff/lane-a-g1-20260101T000000Z.accepted.json', 'whole'],
    ['.swarm/capacity/c1.json', 'whole'],
    ['.swarm/panes-box.jsonl', 'append'],
    ['.swarm/capacity/c1.json.1234.k2j3.tmp', null], // a writer's temporary file, renamed over the file at once
    ['.swarm/panes-other.jsonl', null], // another host's
    ['.swarm/spool', null],
    ['.swarm/state.json', null],
    ['journal.jsonl', null],
    ['lead.json', null],
    ['PLAN.md', null],
    ['.swarm/leases/c1.json', null],
    ['.swarm/spool-evil/a.jsonl', null],
    ['analysis_results/handoffs/a.yaml', null],
    ['.swarm/spool/../state.json', null],
    ['/abs/.swarm/spool/a.jsonl', null],
  ])('%s → %s', (path, how) => {
    expect(followed(path, 'box')).toBe(how);
  });

  it.each<[string, boolean]>([
    ['', true],
    ['.swarm', true],
    ['.swarm/spool', true],
    ['.swarm/spool/r1/lane-a-g1/packets', true],
    ['analysis_results', true],
    ['analysis_results/handoff', true],
    ['.swarm/prompts', false],
    ['.swarm/spool-x', false],
    ['plans', false],
    ['..', false],
  ])('followedDir(%j) → %s', (path, yes) => {
    expect(followedDir(path, 'box')).toBe(yes);
  });
});

describe('pushable: what the engine may write on the host', () => {
  it.each<[string, boolean]>([
    ['PLAN.md', true],
    ['lead.json', true],
    ['.swarm/prompts/run-1/lane-a-g1.md', true],
    ['.swarm/agents/1234.json', true],
    ['.swarm/mailbox/lane-a.md', true],
    ['.swarm/git-hooks/pre-push', true],
    ['.swarm/spool/r1/lane-a-g1/records.jsonl', false],
    ['.swarm/bin/swarm', false], // the host writes its own
    ['.swarm/host-token', false],
    ['.swarm/state.json', false],
    ['journal.jsonl', false],
    ['PLAN.md.bak', false],
    ['.swarm/prompts/../../.bashrc', false],
    ['/root/.ssh/authorized_keys', false],
    ['.swarm/prompts/x\u0000', false],
  ])('%s → %s', (path, yes) => {
    expect(pushable(path)).toBe(yes);
  });
});

describe('appendStep: a copy of `size` bytes given bytes at `at`', () => {
  it.each<[string, number, number, number, ReturnType<typeof appendStep>]>([
    ['at its end: appended', 10, 10, 5, { do: 'append', skip: 0 }],
    ['an empty copy, from the start', 0, 0, 5, { do: 'append', skip: 0 }],
    ['overlapping its end (a restart): the overlap skipped', 12, 10, 5, { do: 'append', skip: 2 }],
    ['all held already: nothing', 15, 10, 5, { do: 'nothing' }],
    ['held and more: nothing', 20, 10, 5, { do: 'nothing' }],
    ['no bytes at its end: nothing', 10, 10, 0, { do: 'nothing' }],
    ['beyond its end: asked again from its end', 10, 12, 5, { do: 'resend', from: 10 }],
    ['beyond an empty copy', 0, 3, 5, { do: 'resend', from: 0 }],
  ])('%s', (_what, size, at, length, step) => {
    expect(appendStep(size, at, length)).toEqual(step);
  });
});

describe('assemble: a whole file from its pieces', () => {
  const piece = (at: number, text: string, last: boolean) => ({ at, data: Buffer.from(text), last });

  it('one piece: done at once', () => {
    expect(assemble(undefined, piece(0, 'abc', true))).toEqual({ pending: null, done: Buffer.from('abc'), problem: null });
  });

  it('pieces in order: done with the last', () => {
    const a = assemble(undefined, piece(0, 'ab', false));
    const b = assemble(a.pending ?? undefined, piece(2, 'cd', false));
    const c = assemble(b.pending ?? undefined, piece(4, 'e', true));
    expect([a.done, b.done, c]).toEqual([null, null, { pending: null, done: Buffer.from('abcde'), problem: null }]);
  });

  it('a piece at 0 starts the file again', () => {
    const a = assemble(undefined, piece(0, 'old', false));
    expect(assemble(a.pending ?? undefined, piece(0, 'new', true)).done).toEqual(Buffer.from('new'));
  });

  it.each<[string, Assembly | undefined, number]>([
    ['a first piece not at 0', undefined, 5],
    ['a gap', { parts: [Buffer.from('ab')], size: 2 }, 3],
    ['an overlap', { parts: [Buffer.from('ab')], size: 2 }, 1],
  ])('%s: a problem, and nothing kept', (_what, pending, at) => {
    const step = assemble(pending, piece(at, 'x', true));
    expect(step).toEqual({ pending: null, done: null, problem: expect.stringMatching(/^a piece at \d+, expected at \d+$/) });
  });

  it('more than MAX_WHOLE bytes: refused', () => {
    const pending: Assembly = { parts: [], size: MAX_WHOLE - 1 };
    expect(assemble(pending, { at: MAX_WHOLE - 1, data: new Uint8Array(2), last: false }).problem).toBe(`a whole file larger than ${MAX_WHOLE} bytes`);
    expect(MAX_CHUNK).toBeLessThan(MAX_WHOLE);
  });
});
