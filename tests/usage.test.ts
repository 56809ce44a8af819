/**
 * Every command answers `--help` and `-h` with its own usage (issue 12 §3). The command names are
 * read from where src/cli.ts and src/hot.ts define them, so a new command without a usage fails here.
 */
import { describe, expect, it } from 'vitest';
import { asksHelp, usageOf } from '../src/usage.js';
import { commandNames } from './helpers/commands.js';

const CLI_NAMES = commandNames('cli.ts');
const HOT_NAMES = commandNames('hot.ts');

describe('the command lists', () => {
  it('are found in src/cli.ts and src/hot.ts', () => {
    expect(CLI_NAMES.length).toBeGreaterThanOrEqual(20);
    expect(HOT_NAMES.sort()).toEqual(['capacity', 'hook', 'notify', 'statusline']);
    for (const name of HOT_NAMES) expect(CLI_NAMES).toContain(name);
  });
});

describe.each(CLI_NAMES)('swarm %s --help', (name) => {
  it('has its own usage, naming the command', () => {
    const usage = usageOf(name);
    expect(usage).not.toBeNull();
    expect(usage!.split('\n')[0]).toMatch(new RegExp(`^usage: swarm ${name}\\b`));
    expect(usage!.endsWith('\n')).toBe(true);
  });

  it.each([['--help'], ['-h']])('%s first asks for help', (flag) => {
    expect(asksHelp(name, [flag])).toBe(true);
  });
});

describe('asksHelp', () => {
  it.each<[string, string[], boolean]>([
    ['up', [], false],
    ['up', ['swarm.yaml', '--help'], true],
    ['up', ['--headless', '-h'], true],
    ['up', ['--', '--help'], false],
    ['lead', ['claim', '--help'], true],
    ['notify', ['--help'], true],
    ['notify', ['lead', '-h'], false],
    ['notify', ['lead', 'see', '--help'], false],
    ['answer', ['lane-a', '--help'], false],
    ['up', ['--helpful'], false],
    ['up', ['-H'], false],
  ])('swarm %s %j → %s', (name, args, expected) => {
    expect(asksHelp(name, args)).toBe(expected);
  });
});

describe('a name that is no command', () => {
  it('has no usage', () => {
    expect(usageOf('nope')).toBeNull();
    expect(usageOf('')).toBeNull();
  });
});
