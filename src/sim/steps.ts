/**
 * The simulated agent's steps, read from PLAN.md: a fenced block with the info string `sim` holding
 * YAML, a map lane-name → list of steps. Pure: plan text in, steps (or the problems) out.
 *
 * Decisions where the brief is silent:
 * - The info string is matched case-insensitively and may carry trailing spaces; ``` and ~~~ fences
 *   both count; the first `sim` block is the one read. Escape codes in the plan are removed.
 * - A step is a map with exactly one action key (write, append, run, gate, ask, commit, check), plus
 *   `text` (required by write, append, ask and check; allowed nowhere else) and `pr` (a boolean, any step).
 * - Review (SPEC 10.6): the key `<lane>.review` lists a reviewer's checks of that lane (`check: command`,
 *   `text`: the changes it asks for when the command fails); `<lane>.fix` the steps that lane works when
 *   a review asks for changes, before it reports `done` again.
 * - Step numbers are 1-based per lane; a packet names them `step N: <what>`, which is how a
 *   successor finds where to continue.
 */
import { parse } from 'yaml';
import { stripAnsi } from '../core/protocol/protocol.js';

export type Step =
  | { kind: 'write' | 'append'; path: string; text: string; pr: boolean }
  | { kind: 'run' | 'gate' | 'commit'; arg: string; pr: boolean }
  | { kind: 'ask'; lane: string; text: string; pr: boolean }
  /** A reviewer's check (`<lane>.review` in the block): the command, and the changes it asks for when it fails. */
  | { kind: 'check'; arg: string; text: string; pr: boolean };

export type StepsResult = { ok: true; lanes: Record<string, Step[]> } | { ok: false; error: string };

const ACTIONS = ['write', 'append', 'run', 'gate', 'ask', 'commit', 'check'] as const;
const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*sim[ \t]*$/i;

/** The body of the first fenced `sim` block, or null when there is none. */
export function simBlock(planText: string): string | null {
  const lines = stripAnsi(planText.replace(/\r\n?/g, '\n')).split('\n');
  const start = lines.findIndex((line) => FENCE.test(line));
  if (start === -1) return null;
  const fence = FENCE.exec(lines[start] ?? '')?.[1] ?? '```';
  const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  const end = lines.findIndex((line, i) => i > start && close.test(line));
  return lines.slice(start + 1, end === -1 ? lines.length : end).join('\n');
}

/** Parse the plan's `sim` block into steps per lane; every problem is named with lane and step. */
export function parseSteps(planText: string): StepsResult {
  const block = simBlock(planText);
  if (block === null) return { ok: false, error: 'PLAN.md has no ```sim block (lane-name → list of steps)' };
  let raw: unknown;
  try {
    raw = parse(block);
  } catch (error) {
    return { ok: false, error: `the sim block is not YAML: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  if (raw === null || raw === undefined) return { ok: false, error: 'the sim block is empty: give each lane a list of steps' };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: 'the sim block must be a map of lane name → list of steps' };
  const lanes: Record<string, Step[]> = {};
  const problems: string[] = [];
  for (const [lane, list] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(list)) {
      problems.push(`${lane}: expected a list of steps`);
      continue;
    }
    lanes[lane] = list.flatMap((item, i) => {
      const step = parseStep(item);
      if (typeof step === 'string') {
        problems.push(`${lane} step ${i + 1}: ${step}`);
        return [];
      }
      return [step];
    });
  }
  return problems.length > 0 ? { ok: false, error: problems.join('; ') } : { ok: true, lanes };
}

function parseStep(item: unknown): Step | string {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return 'a step is a map such as { write: path, text: … }';
  const map = item as Record<string, unknown>;
  const keys = Object.keys(map);
  const actions = keys.filter((k): k is (typeof ACTIONS)[number] => (ACTIONS as readonly string[]).includes(k));
  if (actions.length !== 1) return `needs exactly one of ${ACTIONS.join(', ')}; found ${actions.length === 0 ? 'none' : actions.join(', ')}`;
  const action = actions[0]!;
  const unknown = keys.filter((k) => k !== action && k !== 'text' && k !== 'pr');
  if (unknown.length > 0) return `unknown key ${unknown.join(', ')} (allowed: ${action}, text, pr)`;
  const value = map[action];
  if (typeof value !== 'string' || value.trim() === '') return `${action} needs a non-empty string`;
  if (map.pr !== undefined && typeof map.pr !== 'boolean') return 'pr must be true or false';
  const pr = map.pr === true;
  const needsText = action === 'write' || action === 'append' || action === 'ask' || action === 'check';
  if (needsText && typeof map.text !== 'string') return `${action} needs text`;
  if (!needsText && map.text !== undefined) return `${action} takes no text`;
  const text = typeof map.text === 'string' ? map.text : '';
  if (action === 'write' || action === 'append') return { kind: action, path: value.trim(), text, pr };
  if (action === 'ask') return { kind: 'ask', lane: value.trim(), text: text.trim(), pr };
  if (action === 'check') return { kind: 'check', arg: value.trim(), text: text.trim(), pr };
  return { kind: action, arg: value.trim(), pr };
}

/** One line naming a step: `step 2: gate grep -q x f`, the form a packet's `next` and `done` carry. */
export function describeStep(step: Step, n: number): string {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  switch (step.kind) {
    case 'write':
    case 'append':
      return `step ${n}: ${step.kind} ${step.path}`;
    case 'ask':
      return `step ${n}: ask ${step.lane} ${oneLine(step.text)}`;
    default:
      return `step ${n}: ${step.kind} ${oneLine(step.arg)}`;
  }
}

/** The step numbers a packet's list names (`step N: …`), in order; null when an entry names none. */
export function stepNumbers(entries: readonly string[]): number[] | null {
  const numbers: number[] = [];
  for (const entry of entries) {
    const m = /^\s*step\s+(\d+)\s*:/i.exec(stripAnsi(entry));
    if (!m) return null;
    numbers.push(Number(m[1]));
  }
  return numbers;
}

/** `{answer}` (the last answer) and `{answer:<lane>}` filled from the answers so far. */
export function fillAnswers(text: string, answers: ReadonlyMap<string, string>): string {
  const last = [...answers.values()].at(-1);
  return text.replace(/\{answer(?::([A-Za-z0-9._-]+))?\}/g, (_whole, lane: string | undefined) => {
    const value = lane === undefined ? last : answers.get(lane);
    return value ?? (lane === undefined ? '(no answer)' : `(no answer from ${lane})`);
  });
}

/** The lanes whose answers a text needs (`{answer:<lane>}`). */
export function answersNeeded(text: string): string[] {
  return [...text.matchAll(/\{answer:([A-Za-z0-9._-]+)\}/g)].map((m) => m[1]!);
}
