/**
 * Where a simulated lane stands: what it did, verified and decided, and what is left — kept across
 * generations through the packet. Pure: steps, packets and facts about the checkout in; progress out.
 *
 * Decisions where the brief is silent:
 * - An answer is recorded as the decision `answer from <lane>: <answer>`, so a successor can still
 *   fill `{answer:<lane>}` in the steps it continues with.
 * - A gate not yet passed is listed unverified with its step (`step 3 gate=<command>`), so a
 *   successor reruns it first; one still failing then just stays in `next`.
 * - A degraded packet (or a `next` that names no steps): the successor takes the last write/append
 *   step whose effect it sees in the checkout as the point reached; every gate before it is rerun,
 *   and an ask before it whose answer a later step needs is asked again.
 */
import type { Packet, PacketDecision } from '../core/packet/packet.js';
import { answersNeeded, describeStep, stepNumbers, type Step } from './steps.js';

type Decision = 'continue' | 'handoff_soon' | 'handoff_now';

export interface Progress {
  /** Step numbers done, in order. */
  done: number[];
  verified: { what: string; evidence: string }[];
  deadends: string[];
  decisions: string[];
  /** Asks sent and not answered. */
  asks: string[];
  /** Answers by the lane that gave them. */
  answers: Map<string, string>;
}

export interface Resume {
  progress: Progress;
  /** Step numbers still to do, in order. */
  queue: number[];
  /** Gates to rerun before continuing. */
  rerun: { what: string; gate: string }[];
  /** True when the checkout, not the packet, said where the lane is. */
  rebuilt: boolean;
}

export function emptyProgress(): Progress {
  return { done: [], verified: [], deadends: [], decisions: [], asks: [], answers: new Map() };
}

const ANSWER = /^answer from ([A-Za-z0-9._-]+): ([\s\S]*)$/;

export function answerDecision(lane: string, answer: string): string {
  return `answer from ${lane}: ${answer}`;
}

function decisionText(d: PacketDecision | string): string {
  return typeof d === 'string' ? d : [d.option, d.choice].filter((s) => s !== '').join(': ');
}

/** The unverified list of a packet: the gates among the steps still to do. */
export function unverifiedGates(steps: readonly Step[], queue: readonly number[]): { what: string; gate: string }[] {
  return queue.flatMap((n) => {
    const step = steps[n - 1];
    return step?.kind === 'gate' ? [{ what: `step ${n} gate`, gate: step.arg }] : [];
  });
}

/** The packet's `next`: the steps still to do, as `step N: …`. */
export function nextList(steps: readonly Step[], queue: readonly number[]): string[] {
  return queue.map((n) => describeStep(steps[n - 1]!, n));
}

/** Continue from a packet: its `next` names the steps left. Null when it cannot (degraded, or steps unnamed). */
export function resumeFromPacket(packet: Packet, steps: readonly Step[]): Resume | null {
  if (packet.degraded) return null;
  const queue = stepNumbers(packet.next);
  if (queue === null || queue.some((n) => n < 1 || n > steps.length)) return null;
  const done = stepNumbers(packet.done) ?? [];
  const decisions = packet.decisions.map(decisionText);
  const answers = new Map<string, string>();
  for (const d of decisions) {
    const m = ANSWER.exec(d);
    if (m) answers.set(m[1]!, m[2]!);
  }
  return {
    progress: { done, verified: [...packet.verified], deadends: [...packet.deadends], decisions, asks: [...packet.asks], answers },
    queue,
    rerun: [...packet.unverified],
    rebuilt: false,
  };
}

/**
 * Rebuild from the checkout: `seen[i]` says whether step i+1's effect is visible (only write and
 * append steps can be seen). Everything up to the last seen step counts as done, except gates
 * (rerun first) and asks whose answers later steps need (asked again).
 */
export function rebuildFromCheckout(steps: readonly Step[], seen: readonly boolean[]): Resume {
  let reached = 0;
  steps.forEach((step, i) => {
    if ((step.kind === 'write' || step.kind === 'append') && seen[i] === true) reached = i + 1;
  });
  const later = steps.slice(reached);
  const needed = new Set(later.flatMap((s) => (s.kind === 'write' || s.kind === 'append' ? answersNeeded(s.text) : [])));
  const progress = emptyProgress();
  const reask: number[] = [];
  const rerun: { what: string; gate: string }[] = [];
  steps.slice(0, reached).forEach((step, i) => {
    const n = i + 1;
    if (step.kind === 'gate') rerun.push({ what: `step ${n} gate`, gate: step.arg });
    else if (step.kind === 'ask' && needed.has(step.lane)) reask.push(n);
    else progress.done.push(n);
  });
  const queue = [...reask, ...later.map((_, i) => reached + i + 1)];
  progress.deadends.push(`the packet did not say where ${reached === 0 ? 'work stood; nothing of the steps is in the checkout' : `work stood; the checkout shows step ${reached} done`}`);
  return { progress, queue, rerun, rebuilt: true };
}

export interface GateRun {
  what: string;
  gate: string;
  passed: boolean;
  evidence: string;
}

/**
 * Fold the reruns into the resume: a passing gate is verified (and its step done); a failing gate
 * whose step is not still to do goes back to the front of the queue.
 */
export function applyReruns(resume: Resume, runs: readonly GateRun[]): Resume {
  const progress = { ...resume.progress, done: [...resume.progress.done], verified: [...resume.progress.verified] };
  const queue = [...resume.queue];
  const back: number[] = [];
  for (const run of runs) {
    const n = Number(/^step (\d+) gate$/.exec(run.what)?.[1] ?? NaN);
    const known = Number.isInteger(n) && !queue.includes(n);
    if (run.passed) {
      progress.verified.push({ what: run.what, evidence: run.evidence });
      if (known && !progress.done.includes(n)) progress.done.push(n);
    } else if (known) {
      progress.done = progress.done.filter((d) => d !== n);
      back.push(n);
    }
  }
  progress.done.sort((a, b) => a - b);
  return { ...resume, progress, queue: [...back, ...queue] };
}

/**
 * The packet's reason: the account's state when it is low or critical; else, when the reading
 * itself said hand off, the context window; else (only swarm's notice said so) what the decision implies.
 */
export function handoffReason(state: string | null, reading: Decision | null, decision: Decision): 'capacity_critical' | 'capacity_low' | 'context_pressure' {
  if (state === 'critical') return 'capacity_critical';
  if (state === 'low') return 'capacity_low';
  if (reading === 'handoff_now' || reading === 'handoff_soon') return 'context_pressure';
  return decision === 'handoff_now' ? 'capacity_critical' : 'capacity_low';
}
