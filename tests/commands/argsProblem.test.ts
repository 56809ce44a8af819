import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { argsProblem, usageOptions } from '../../src/commands/argsProblem.js';

function problem(args: string[], positionals = true): string {
  try {
    parseArgs({ args, strict: true, allowPositionals: positionals, options: { timeout: { type: 'string' }, json: { type: 'boolean' }, detach: { type: 'boolean', short: 'd' }, out: { type: 'string', short: 'o' } } });
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
    // An option with a short name too is told by its long one.
    [['--detach=yes'], true, '--detach takes no value'],
    [['-o'], true, '--out needs a value'],
    [['plan'], false, 'unexpected argument "plan"'],
    [['--fast\u001b[2J'], true, 'unknown option "--fast\u001b[2J"'],
  ])('%j → %s', (args, positionals, want) => {
    expect(problem(args, positionals)).toBe(want);
  });

  it('an unknown option close to one the usage names gets "did you mean"; a far one, or an empty usage, none', () => {
    const USAGE = 'usage: swarm up [file] [--headless] [--until-done] [--timeout D]';
    const refusal = (args: string[], usage: string): string => {
      try {
        parseArgs({ args, strict: true, allowPositionals: true, options: { headless: { type: 'boolean' } } });
      } catch (error) {
        return argsProblem(error, usage);
      }
      return 'parsed';
    };
    expect(refusal(['--headles'], USAGE)).toBe('unknown option "--headles"; did you mean "--headless"?');
    expect(refusal(['--timout'], USAGE)).toBe('unknown option "--timout"; did you mean "--timeout"?');
    expect(refusal(['--fast'], USAGE)).toBe('unknown option "--fast"');
    expect(refusal(['--headles'], '')).toBe('unknown option "--headles"');
    expect(usageOptions(`${USAGE}\n  swarm up --timeout 5m`)).toEqual(['--headless', '--until-done', '--timeout']);
  });

  it('passes on a message of our own unchanged', () => {
    expect(argsProblem(new Error('--only goes with --real'))).toBe('--only goes with --real');
    expect(argsProblem('text')).toBe('text');
  });
});
