import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { argsProblem } from '../../src/commands/argsProblem.js';

function problem(args: string[], positionals = true): string {
  try {
    parseArgs({ args, strict: true, allowPositionals: positionals, options: { timeout: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (error) {
    return argsProblem(error);
  }
  return 'parsed';
}

describe('argsProblem: one short sentence for every parseArgs refusal', () => {
  it.each([
    [['--fast'], true, 'unknown option "--fast"'],
    [['-x'], true, 'unknown option "-x"'],
    [['--timeout'], true, '--timeout needs a value'],
    [['--json=yes'], true, '--json takes no value'],
    [['plan'], false, 'unexpected argument "plan"'],
    [['--fast\u001b[2J'], true, 'unknown option "--fast\u001b[2J"'],
  ])('%j → %s', (args, positionals, want) => {
    expect(problem(args, positionals)).toBe(want);
  });

  it('passes on a message of our own unchanged', () => {
    expect(argsProblem(new Error('--only goes with --real'))).toBe('--only goes with --real');
    expect(argsProblem('text')).toBe('text');
  });
});
