/**
 * Vacuous passes (SPEC 10.6, core/gate/vacuous.ts): each known runner's "nothing ran" output is a
 * failure, and the outputs that look alike but did run something are pinned as passes. Outputs as the
 * runners print them, colours, CRLF and trailing spaces included.
 */
import { describe, expect, it } from 'vitest';
import { vacuousPass, VACUOUS_RULES } from '../../../src/core/gate/vacuous.js';

const RED = (text: string) => `\x1b[31m${text}\x1b[39m`;

describe('vacuousPass', () => {
  it.each([
    ['vitest --passWithNoTests', `\n RUN  v4.1.0 /repo\n\n${RED('No test files found, exiting with code 0')}\n\ninclude: **/*.{test,spec}.?(c|m)[jt]s?(x)\n`, 'vitest'],
    ['vitest, CRLF and trailing spaces', 'No test files found, exiting with code 0   \r\n', 'vitest'],
    ['jest --passWithNoTests', 'No tests found, exiting with code 0\n', 'jest'],
    ['pytest (exit 5) hidden by || true', '============================= test session starts ==============================\nplatform linux -- Python 3.11.2, pytest-7.2.1\ncollected 0 items\n\n============================ no tests ran in 0.01s =============================', 'pytest'],
    ['mocha, nothing but pending', '\n\n  0 passing (2ms)\n  1 pending\n', 'mocha'],
    ['go test, every package without tests', '?   \texample.com/a\t[no test files]\n?   \texample.com/b\t[no test files]', 'go test'],
    ['cargo test, 0 unit tests and 0 doc-tests', '\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored\n\n   Doc-tests demo\n\nrunning 0 tests\n', 'cargo test'],
    ['node --test with no files', 'ℹ tests 0\nℹ suites 0\nℹ pass 0\nℹ fail 0', 'node --test'],
    ['a tool not installed, dash', 'sh: 1: vitest: not found', 'the shell'],
    ['a tool not installed, bash', 'bash: line 1: vitest: command not found', 'the shell'],
    ['a tool not installed, zsh', 'zsh:1: command not found: vitest', 'the shell'],
    ['eslint matched no files', 'No files matching the pattern "src" were found.\nPlease check for typing mistakes in the pattern.', 'eslint'],
  ])('%s: a failure', (_name, output, runner) => {
    expect(vacuousPass(output)).toMatch(new RegExp(`^a vacuous pass: ${runner.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ran nothing \\("`));
  });

  it.each([
    ['no output at all (`test -f x`)', ''],
    ['whitespace only', '  \r\n\n'],
    ['vitest that ran', ' ✓ tests/a.test.ts (3 tests) 4ms\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)'],
    ['pytest that collected tests', 'collected 10 items\n\ntests/test_a.py ..........  [100%]\n\n============================== 10 passed in 0.05s =============================='],
    ['mocha, 10 passing', '  10 passing (15ms)\n'],
    ['mocha, 0 passing but 2 failing (the gate failed anyway; not vacuous)', '  0 passing (3ms)\n  2 failing\n'],
    ['go test: ok lines beside [no test files]', 'ok  \texample.com/a\t0.002s\n?   \texample.com/b\t[no test files]'],
    ['cargo test: unit tests ran, its doc-tests ran 0', 'running 3 tests\ntest a ... ok\ntest b ... ok\ntest c ... ok\n\ntest result: ok. 3 passed\n\n   Doc-tests demo\n\nrunning 0 tests\n'],
    ['node --test with tests', 'ℹ tests 12\nℹ pass 12'],
    ['a test about files not found', ' ✓ returns 404 when the file is not found\n ✓ says "command not found" to the user'],
    ['the words in the middle of a line', 'checked: No test files found is not printed here'],
  ])('%s: a real pass', (_name, output) => {
    expect(vacuousPass(output)).toBeNull();
  });

  it('names the runner\'s own exit code when it is not 0 (something turned it into 0)', () => {
    expect(vacuousPass('collected 0 items')).toBe('a vacuous pass: pytest ran nothing ("collected 0 items") (pytest itself exits 5 then; something turned it into 0)');
    expect(vacuousPass('  0 passing (1ms)')).toBe('a vacuous pass: mocha ran nothing ("0 passing")');
  });

  it('is one table, extended by a row', () => {
    const rules = [...VACUOUS_RULES, { runner: 'phpunit', nothing: /^No tests executed!$/m, code: 0 }];
    expect(vacuousPass('No tests executed!', rules)).toBe('a vacuous pass: phpunit ran nothing ("No tests executed!")');
    expect(vacuousPass('No tests executed!')).toBeNull();
  });
});
