/**
 * A vacuous pass (SPEC 10.6): a gate that exits 0 without having tested anything — the runner found no
 * test files, collected nothing, or the tool it names is not installed — is a failure. One table of
 * known runners' "nothing ran" output, easy to extend; a row may also say what else in the output
 * shows that something did run (Go's `ok` lines beside `[no test files]`, cargo's `running 3 tests`
 * beside its doc-tests' `running 0 tests`). Only a gate that passed is looked at: one that failed has
 * failed already. Pure.
 */
import { stripAnsi } from '../protocol/protocol.js';

export interface VacuousRule {
  /** The runner, as the message names it. */
  runner: string;
  /** What it prints when nothing ran (one line of the output; the output is cleaned first). */
  nothing: RegExp;
  /** What it prints when something did run: its presence makes the pass real. */
  ran?: RegExp;
  /** The runner's own exit code when nothing ran (null: 0, or it varies by flag); said in the message. */
  code: number | null;
}

export const VACUOUS_RULES: readonly VacuousRule[] = [
  // vitest and jest with --passWithNoTests exit 0 ("…, exiting with code 0"); without it, 1.
  { runner: 'vitest', nothing: /^No test files found\b/m, code: 1 },
  { runner: 'jest', nothing: /^No tests found\b/m, code: 1 },
  // pytest exits 5 when it collects nothing; a gate that exited 0 hid it (`|| true`, a wrapper).
  { runner: 'pytest', nothing: /^collected 0 items\b|^=+ no tests ran\b|^no tests ran\b/m, code: 5 },
  { runner: 'mocha', nothing: /^\s*0 passing\b/m, ran: /^\s*[1-9]\d* (?:passing|failing)\b/m, code: 0 },
  { runner: 'go test', nothing: /\[no test files\]\s*$/m, ran: /^(?:ok|FAIL|---)\s/m, code: 0 },
  { runner: 'cargo test', nothing: /^running 0 tests$/m, ran: /^running [1-9]\d* tests?$/m, code: 0 },
  { runner: 'node --test', nothing: /^ℹ tests 0$/m, code: 0 },
  // A tool the gate names is not installed: dash `sh: 1: vitest: not found`, bash `bash: line 1: vitest:
  // command not found`, zsh `zsh:1: command not found: vitest` (127, unless a `;` or `|| true` hid it).
  { runner: 'the shell', nothing: /^(?:\/bin\/)?(?:sh|bash|dash|zsh)\b[^\n]*(?:: command not found|: not found|command not found: \S+)$/m, code: 127 },
  { runner: 'eslint', nothing: /^No files matching the pattern\b/m, code: 2 },
  { runner: 'prettier', nothing: /^\[error\] No files matching the pattern were found\b|^No files matching the pattern were found\b|^No matching files\b/m, code: 2 },
];

/** CRLF and lone CR → LF, terminal escapes removed, trailing spaces of each line dropped. */
function clean(output: string): string {
  return stripAnsi(output.replace(/\r\n?/g, '\n')).replace(/[ \t]+$/gm, '');
}

/** Why a gate that exited 0 ran nothing (a sentence naming the runner and the line), or null when it did. */
export function vacuousPass(output: string, rules: readonly VacuousRule[] = VACUOUS_RULES): string | null {
  const text = clean(output);
  if (text.trim() === '') return null;
  for (const rule of rules) {
    const match = rule.nothing.exec(text);
    if (match === null || (rule.ran !== undefined && rule.ran.test(text))) continue;
    const line = match[0].trim();
    const own = rule.code === null || rule.code === 0 ? '' : ` (${rule.runner} itself exits ${rule.code} then; something turned it into 0)`;
    return `a vacuous pass: ${rule.runner} ran nothing ("${line}")${own}`;
  }
  return null;
}
