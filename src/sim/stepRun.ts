/**
 * One step of a simulated lane, carried out in its checkout: write, append, run, gate, ask, commit.
 * Results land in the lane's progress (done, verified, deadends, decisions, asks).
 *
 * Decisions where the brief is silent:
 * - A path outside the checkout is never written: the lane reports `blocked decision` instead.
 * - A failing `run` is a deadend and the lane goes on (its gates decide); a failing `gate` stops
 *   the lane with `blocked decision`, since a careful agent does not build on a red gate.
 * - An ask not answered in time is a deadend, stays in `asks`, and the lane goes on.
 * - `commit` stages only the checkout's own folder (`git add -A .`), since a checkout may be a
 *   folder of a larger repository; nothing to commit is no failure.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { excerpt } from '../errors.js';
import { answerDecision, type Progress } from './progress.js';
import { describeStep, fillAnswers, type Step } from './steps.js';
import type { World } from './world.js';
import { spokenDuration } from '../core/config/duration.js';

export type StepOutcome = { ok: true } | { ok: false; blocked: string };

export interface StepHost {
  world: World;
  steps: readonly Step[];
  progress: Progress;
  /** Wait for an `answer ` from `lane`; null after `ms`. */
  waitAnswer(lane: string, ms: number): Promise<string | null>;
}

/** Carry out step `n` (1-based) and record it. */
export async function runStep(host: StepHost, n: number): Promise<StepOutcome> {
  const { world, progress } = host;
  const step = host.steps[n - 1];
  if (!step) return { ok: false, blocked: `step ${n} is not in the plan` };
  world.screen.line(`[sim] ${describeStep(step, n)} (${n}/${host.steps.length})`);
  await world.sleep(world.model.stepMs);
  const outcome = await act(host, step, n);
  if (outcome.ok) progress.done.push(n);
  return outcome;
}

async function act(host: StepHost, step: Step, n: number): Promise<StepOutcome> {
  const { world, progress } = host;
  switch (step.kind) {
    case 'write':
    case 'append': {
      const target = resolve(world.cwd, step.path);
      const rel = relative(world.cwd, target);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return { ok: false, blocked: `step ${n} would ${step.kind} ${step.path}, outside the checkout` };
      mkdirSync(dirname(target), { recursive: true });
      const text = fillAnswers(step.text, progress.answers);
      if (step.kind === 'write') writeFileSync(target, text);
      else appendFileSync(target, text);
      return { ok: true };
    }
    case 'run': {
      const result = await world.sh(step.arg);
      if (result.code !== 0) {
        progress.deadends.push(`step ${n}: \`${step.arg}\` failed (exit ${result.code}): ${excerpt(lastLines(result), 200)}`);
        world.screen.line(`[sim] step ${n} failed (exit ${result.code}); going on, the gates decide`);
      }
      return { ok: true };
    }
    case 'gate': {
      const result = await world.sh(step.arg);
      const what = `step ${n} gate`;
      if (result.code === 0) {
        progress.verified.push({ what, evidence: `exit 0 at ${new Date().toISOString()}: ${step.arg}` });
        world.screen.line(`[sim] gate passed: ${step.arg}`);
        return { ok: true };
      }
      progress.deadends.push(`${what} \`${step.arg}\` failed (exit ${result.code}): ${excerpt(lastLines(result), 200)}`);
      return { ok: false, blocked: `gate \`${step.arg}\` fails (exit ${result.code}): ${excerpt(lastLines(result), 200)}` };
    }
    case 'ask': {
      const ask = `ask ${step.text}`;
      await world.notify(step.lane, ask);
      progress.asks.push(`${step.lane}: ${ask}`);
      world.screen.line(`[sim] asked ${step.lane}; waiting up to ${spokenDuration(world.model.askMs)} for the answer`);
      const answer = await host.waitAnswer(step.lane, world.model.askMs);
      if (answer === null) {
        progress.deadends.push(`step ${n}: no answer from ${step.lane} within ${spokenDuration(world.model.askMs)}`);
        world.screen.line(`[sim] no answer from ${step.lane}; going on without it`);
        return { ok: true };
      }
      progress.asks = progress.asks.filter((a) => a !== `${step.lane}: ${ask}`);
      progress.answers.set(step.lane, answer);
      progress.decisions.push(answerDecision(step.lane, answer));
      world.screen.line(`[sim] ${step.lane} answered: ${excerpt(answer, 100)}`);
      return { ok: true };
    }
    case 'commit':
      return commit(host, step.arg, n);
    case 'check':
      return { ok: false, blocked: `step ${n} is a reviewer's check, not a lane's step` };
  }
}

async function commit(host: StepHost, message: string, n: number): Promise<StepOutcome> {
  const { world, progress } = host;
  const inside = await world.sh('git rev-parse --is-inside-work-tree');
  if (inside.code !== 0) {
    progress.deadends.push(`step ${n}: the checkout is not a git repository; nothing committed`);
    return { ok: true };
  }
  await world.sh('git add -A .');
  const staged = await world.sh('git diff --cached --quiet');
  if (staged.code === 0) {
    world.screen.line('[sim] nothing to commit');
    return { ok: true };
  }
  const result = await world.run('git', ['commit', '-q', '-m', message]);
  if (result.code !== 0) return { ok: false, blocked: `step ${n}: git commit failed: ${excerpt(lastLines(result), 200)}` };
  world.screen.line(`[sim] committed: ${message}`);
  return { ok: true };
}

/** The files this lane's steps make, and whether each is in the checkout now. */
export function laneFiles(steps: readonly Step[], cwd: string): { path: string; exists: boolean }[] {
  const paths = [...new Set(steps.flatMap((s) => (s.kind === 'write' || s.kind === 'append' ? [s.path] : [])))];
  return paths.map((path) => ({ path, exists: existsSync(resolve(cwd, path)) }));
}

/** Whether a write/append step's effect is in the checkout (how a degraded successor finds its place). */
export function stepSeen(step: Step, cwd: string): boolean {
  if (step.kind !== 'write' && step.kind !== 'append') return false;
  const path = resolve(cwd, step.path);
  if (!existsSync(path)) return false;
  if (step.text.includes('{answer')) return true;
  const text = readFileSync(path, 'utf8');
  return step.kind === 'write' ? text === step.text : text.includes(step.text);
}

function lastLines(result: { stdout: string; stderr: string }): string {
  const text = `${result.stdout}\n${result.stderr}`.trim();
  return text === '' ? '(no output)' : text.split('\n').slice(-3).join(' / ');
}
