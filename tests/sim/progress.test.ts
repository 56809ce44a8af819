import { describe, expect, it } from 'vitest';
import type { Packet } from '../../src/core/packet/packet.js';
import {
  answerDecision,
  applyReruns,
  emptyProgress,
  handoffReason,
  nextList,
  rebuildFromCheckout,
  resumeFromPacket,
  unverifiedGates,
  type Resume,
} from '../../src/sim/progress.js';
import type { Step } from '../../src/sim/steps.js';

const STEPS: Step[] = [
  { kind: 'ask', lane: 'lane-a', text: 'what file?', pr: false },
  { kind: 'write', path: 'summary.md', text: '# S\n{answer:lane-a}\n', pr: false },
  { kind: 'gate', arg: 'grep -q S summary.md', pr: false },
  { kind: 'append', path: 'summary.md', text: 'more\n', pr: false },
  { kind: 'run', arg: 'true', pr: false },
];

const packet = (over: Partial<Packet> = {}): Packet => ({
  schema: 'dwp-handoff/v1', plan: 'p1', contract: 'c', task: 't', step: 3, reason: 'capacity_critical', doing: 'x',
  where: { repo: null, checkout: '/c', branch: null, head: null, pushed: null, uncommitted: [] },
  done: ['step 1: ask lane-a what file?', 'step 2: write summary.md'],
  verified: [], unverified: [{ what: 'step 3 gate', gate: 'grep -q S summary.md' }],
  next: ['step 3: gate grep -q S summary.md', 'step 4: append summary.md', 'step 5: run true'],
  deadends: ['d1'], asks: [], decisions: [answerDecision('lane-a', 'greeting.txt'), { option: 'o', choice: 'c', why: '', undo: '' }],
  lead: 'lead', epoch: 1, author: { lane: 'lane-c', account: 'a', generation: 1 }, degraded: false,
  ...over,
});

describe('the packet a lane writes', () => {
  it('names what is left as `step N: …`, and its gates as unverified', () => {
    expect(nextList(STEPS, [3, 4, 5])).toEqual(['step 3: gate grep -q S summary.md', 'step 4: append summary.md', 'step 5: run true']);
    expect(unverifiedGates(STEPS, [3, 4, 5])).toEqual([{ what: 'step 3 gate', gate: 'grep -q S summary.md' }]);
    expect(unverifiedGates(STEPS, [4, 5])).toEqual([]);
    expect(nextList(STEPS, [])).toEqual([]);
  });

  it.each([
    ['critical', 'handoff_now', 'handoff_now', 'capacity_critical'],
    ['low', 'handoff_soon', 'handoff_soon', 'capacity_low'],
    ['low', 'continue', 'handoff_now', 'capacity_low'],
    ['ok', 'handoff_now', 'handoff_now', 'context_pressure'],
    ['unknown', 'handoff_soon', 'handoff_soon', 'context_pressure'],
    ['ok', 'continue', 'handoff_now', 'capacity_critical'],
    ['ok', 'continue', 'handoff_soon', 'capacity_low'],
    [null, null, 'handoff_now', 'capacity_critical'],
  ] as const)('state %s, reading %s, decision %s → %s', (state, reading, decision, reason) => {
    expect(handoffReason(state, reading, decision)).toBe(reason);
  });
});

describe('resumeFromPacket', () => {
  it('continues from next, keeps what was done, verified and decided, and recovers the answers', () => {
    const resume = resumeFromPacket(packet(), STEPS);
    expect(resume).toEqual({
      progress: {
        done: [1, 2], verified: [], deadends: ['d1'], asks: [],
        decisions: ['answer from lane-a: greeting.txt', 'o: c'],
        answers: new Map([['lane-a', 'greeting.txt']]),
      },
      queue: [3, 4, 5],
      rerun: [{ what: 'step 3 gate', gate: 'grep -q S summary.md' }],
      rebuilt: false,
    });
  });

  it.each([
    ['a degraded packet', packet({ degraded: true })],
    ['a next that names no steps', packet({ next: ['Inspect the checkout (git status, git log) and PLAN.md'] })],
    ['a next naming a step the plan lacks', packet({ next: ['step 9: run x'] })],
    ['a next naming step 0', packet({ next: ['step 0: run x'] })],
  ])('cannot continue from %s', (_name, p) => {
    expect(resumeFromPacket(p, STEPS)).toBeNull();
  });
});

describe('rebuildFromCheckout', () => {
  it.each([
    ['nothing seen', [false, false, false, false, false], { done: [], queue: [1, 2, 3, 4, 5], rerun: [] }],
    ['the write seen', [false, true, false, false, false], { done: [1, 2], queue: [3, 4, 5], rerun: [] }],
    ['the append seen', [false, true, false, true, false], { done: [1, 2, 4], queue: [5], rerun: [{ what: 'step 3 gate', gate: 'grep -q S summary.md' }] }],
  ])('%s', (_name, seen, expected) => {
    const resume = rebuildFromCheckout(STEPS, seen);
    expect({ done: resume.progress.done, queue: resume.queue, rerun: resume.rerun }).toEqual(expected);
    expect(resume.rebuilt).toBe(true);
  });

  it('asks again when a later step needs the answer', () => {
    const steps: Step[] = [
      { kind: 'write', path: 'a', text: 'a', pr: false },
      { kind: 'ask', lane: 'lane-a', text: 'q', pr: false },
      { kind: 'write', path: 'b', text: 'b', pr: false },
      { kind: 'write', path: 'c', text: '{answer:lane-a}', pr: false },
    ];
    const resume = rebuildFromCheckout(steps, [true, false, true, false]);
    expect(resume.progress.done).toEqual([1, 3]);
    expect(resume.queue).toEqual([2, 4]);
    expect(resume.progress.deadends).toEqual(['the packet did not say where work stood; the checkout shows step 3 done']);
  });

  it('says when nothing of the steps is in the checkout', () => {
    expect(rebuildFromCheckout(STEPS, []).progress.deadends).toEqual(['the packet did not say where work stood; nothing of the steps is in the checkout']);
  });
});

describe('applyReruns', () => {
  const base = (over: Partial<Resume> = {}): Resume => ({ progress: { ...emptyProgress(), done: [1, 2] }, queue: [4, 5], rerun: [], rebuilt: true, ...over });

  it('a passing gate is verified and its step done', () => {
    const after = applyReruns(base(), [{ what: 'step 3 gate', gate: 'g', passed: true, evidence: 'exit 0' }]);
    expect(after.progress.verified).toEqual([{ what: 'step 3 gate', evidence: 'exit 0' }]);
    expect(after.progress.done).toEqual([1, 2, 3]);
    expect(after.queue).toEqual([4, 5]);
  });

  it('a passing gate whose step is already done is not counted twice', () => {
    const after = applyReruns(base(), [{ what: 'step 2 gate', gate: 'g', passed: true, evidence: 'exit 0' }]);
    expect(after.progress.done).toEqual([1, 2]);
  });

  it('a failing gate whose step is not queued goes back to the front', () => {
    const after = applyReruns(base(), [{ what: 'step 3 gate', gate: 'g', passed: false, evidence: '' }]);
    expect(after.progress.verified).toEqual([]);
    expect(after.queue).toEqual([3, 4, 5]);
  });

  it('a failing gate whose step is still to do stays where it is', () => {
    const after = applyReruns(base({ queue: [3, 4, 5] }), [{ what: 'step 3 gate', gate: 'g', passed: false, evidence: '' }]);
    expect(after.queue).toEqual([3, 4, 5]);
  });

  it('a gate named by no step is only recorded', () => {
    const after = applyReruns(base(), [
      { what: 'npm test', gate: 'npm test', passed: true, evidence: 'ok' },
      { what: 'lint', gate: 'npm run lint', passed: false, evidence: '' },
    ]);
    expect(after.progress.verified).toEqual([{ what: 'npm test', evidence: 'ok' }]);
    expect(after.queue).toEqual([4, 5]);
    expect(after.progress.done).toEqual([1, 2]);
  });
});
