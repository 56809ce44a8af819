import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  DEFAULT_THRESHOLDS,
  KIT_DEFAULTS,
  applyCap,
  contextLines,
  decide,
  defaultWindow,
  isOverflow,
  parseCaps,
  resolveCapacityThresholds,
  resolveWindow,
  stateOf,
  type DecisionInput,
} from '../../../src/core/capacity/thresholds.js';

/** The thrown error, for exact assertions on class, message and exit code. */
function thrown(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('expected a throw');
}

describe('defaults', () => {
  it('kit defaults match the SPEC and the config defaults', () => {
    expect(KIT_DEFAULTS).toEqual({ low: 25, critical: 10 });
    expect(DEFAULT_THRESHOLDS).toEqual({
      capacityLow: 25, capacityCritical: 10, contextPressure: 60, window: 'auto', headroom: 50_000, maxGenerations: 8, compact: 'off',
    });
  });
});

describe('resolveCapacityThresholds', () => {
  it.each([
    ['kit defaults', {}, {}, { low: 25, critical: 10 }],
    ['config values', { low: 30, critical: 5 }, {}, { low: 30, critical: 5 }],
    ['config low only', { low: 40 }, {}, { low: 40, critical: 10 }],
    ['env overrides config', { low: 30, critical: 5 }, { AGENTKIT_CAPACITY_LOW: '50', AGENTKIT_CAPACITY_CRITICAL: '20' }, { low: 50, critical: 20 }],
    ['env low only', {}, { AGENTKIT_CAPACITY_LOW: '40' }, { low: 40, critical: 10 }],
    ['env critical only', {}, { AGENTKIT_CAPACITY_CRITICAL: '15' }, { low: 25, critical: 15 }],
    ['env decimals', {}, { AGENTKIT_CAPACITY_LOW: '25.5', AGENTKIT_CAPACITY_CRITICAL: '.5' }, { low: 25.5, critical: 0.5 }],
    ['env whitespace', {}, { AGENTKIT_CAPACITY_LOW: ' 30 \n' }, { low: 30, critical: 10 }],
    ['env empty counts as unset', { low: 30 }, { AGENTKIT_CAPACITY_LOW: '', AGENTKIT_CAPACITY_CRITICAL: '  ' }, { low: 30, critical: 10 }],
    ['env bounds 0 and 100', {}, { AGENTKIT_CAPACITY_LOW: '100', AGENTKIT_CAPACITY_CRITICAL: '0' }, { low: 100, critical: 0 }],
    ['unrelated env ignored', {}, { AGENTKIT_CAPACITY_CAP: '@w=5' }, { low: 25, critical: 10 }],
  ])('%s', (_name, config, env, expected) => {
    expect(resolveCapacityThresholds(config, env)).toEqual(expected);
  });

  const notPct = (name: string, value: string): string => `${name}=${value} is not a percentage: expected a number from 0 to 100`;
  it.each([
    ['low not a number', { AGENTKIT_CAPACITY_LOW: 'lots' }, notPct('AGENTKIT_CAPACITY_LOW', 'lots'), 'unset AGENTKIT_CAPACITY_LOW or set it to a number such as 25'],
    ['low over 100', { AGENTKIT_CAPACITY_LOW: '101' }, notPct('AGENTKIT_CAPACITY_LOW', '101'), 'unset AGENTKIT_CAPACITY_LOW or set it to a number such as 25'],
    ['low negative', { AGENTKIT_CAPACITY_LOW: '-5' }, notPct('AGENTKIT_CAPACITY_LOW', '-5'), 'unset AGENTKIT_CAPACITY_LOW or set it to a number such as 25'],
    ['low with %', { AGENTKIT_CAPACITY_LOW: '25%' }, notPct('AGENTKIT_CAPACITY_LOW', '25%'), 'unset AGENTKIT_CAPACITY_LOW or set it to a number such as 25'],
    ['critical hex', { AGENTKIT_CAPACITY_CRITICAL: '0x10' }, notPct('AGENTKIT_CAPACITY_CRITICAL', '0x10'), 'unset AGENTKIT_CAPACITY_CRITICAL or set it to a number such as 10'],
    ['critical Infinity', { AGENTKIT_CAPACITY_CRITICAL: 'Infinity' }, notPct('AGENTKIT_CAPACITY_CRITICAL', 'Infinity'), 'unset AGENTKIT_CAPACITY_CRITICAL or set it to a number such as 10'],
  ])('invalid: %s', (_name, env, message, hint) => {
    const e = thrown(() => resolveCapacityThresholds({}, env));
    expect(e.message).toBe(message);
    expect(e.hint).toBe(hint);
    expect(e.exitCode).toBe(2);
  });

  it.each([
    ['env critical equal to default low', {}, { AGENTKIT_CAPACITY_CRITICAL: '25' },
      'AGENTKIT_CAPACITY_CRITICAL=25 is not below thresholds.capacity_low=25: the critical threshold must be lower than the low one'],
    ['env low below default critical', {}, { AGENTKIT_CAPACITY_LOW: '5' },
      'thresholds.capacity_critical=10 is not below AGENTKIT_CAPACITY_LOW=5: the critical threshold must be lower than the low one'],
    ['both env, critical above low', {}, { AGENTKIT_CAPACITY_LOW: '20', AGENTKIT_CAPACITY_CRITICAL: '30' },
      'AGENTKIT_CAPACITY_CRITICAL=30 is not below AGENTKIT_CAPACITY_LOW=20: the critical threshold must be lower than the low one'],
    ['config only', { low: 10, critical: 10 }, {},
      'thresholds.capacity_critical=10 is not below thresholds.capacity_low=10: the critical threshold must be lower than the low one'],
  ])('critical >= low: %s', (_name, config, env, message) => {
    expect(thrown(() => resolveCapacityThresholds(config, env)).message).toBe(message);
  });
});

describe('parseCaps', () => {
  it.each([
    ['undefined', undefined, []],
    ['empty', '', []],
    ['whitespace only', '  \t ', []],
    ['one cap', '@work2=20', [['work2', 20]]],
    ['two caps', '@work2=20,@work3=50', [['work2', 20], ['work3', 50]]],
    ['whitespace around parts and =', '  @work2 = 20 ,  @work3=50  ', [['work2', 20], ['work3', 50]]],
    ['decimal', '@w=12.5', [['w', 12.5]]],
    ['percent sign', '@w=12%', [['w', 12]]],
    ['0 and 100', '@a=0,@b=100', [['a', 0], ['b', 100]]],
    ['trailing comma', '@w=5,', [['w', 5]]],
    ['duplicate keeps the lower', '@w=30,@w=10,@w=20', [['w', 10]]],
    ['account with dots and dashes', '@claude.work-3_x=7', [['claude.work-3_x', 7]]],
    ['account case kept', '@Work2=5', [['Work2', 5]]],
  ])('%s', (_name, value, entries) => {
    expect([...parseCaps(value)]).toEqual(entries);
  });

  it.each([
    ['no @', 'work2=20', 'work2=20'],
    ['no value', '@work2=', '@work2='],
    ['no =', '@work2 20', '@work2 20'],
    ['bad number', '@work2=lots', '@work2=lots'],
    ['over 100', '@work2=101', '@work2=101'],
    ['negative', '@work2=-1', '@work2=-1'],
    ['bare @', '@=5', '@=5'],
    ['second part bad', '@a=5,b', 'b'],
    ['semicolon separator', '@a=5;@b=6', '@a=5;@b=6'],
  ])('malformed: %s', (_name, value, part) => {
    const e = thrown(() => parseCaps(value));
    expect(e.message).toBe(`AGENTKIT_CAPACITY_CAP has a bad part "${part}": expected @<account>=<pct> with pct 0 to 100`);
    expect(e.hint).toBe('e.g. AGENTKIT_CAPACITY_CAP=@work2=20,@work3=50');
  });
});

describe('applyCap', () => {
  const caps = parseCaps('@work2=20,@work3=50.5');
  it.each([
    ['lowers', 'work2', 64, 20],
    ['cap that would raise is ignored', 'work2', 8, 8],
    ['equal to the cap', 'work2', 20, 20],
    ['decimal cap', 'work3', 60, 50.5],
    ['other account untouched', 'work1', 64, 64],
    ['account given with @', '@work2', 64, 20],
    ['account names are case-sensitive', 'WORK2', 64, 64],
    ['unknown stays unknown', 'work2', null, null],
    ['no caps', 'work2', 64, 64],
  ] as const)('%s', (name, account, pct, expected) => {
    expect(applyCap(account, pct, name === 'no caps' ? new Map() : caps)).toBe(expected);
  });
});

describe('stateOf', () => {
  const t = { low: 25, critical: 10 };
  it.each([
    [null, 'unknown'],
    [Number.NaN, 'unknown'],
    [100, 'ok'],
    [25.01, 'ok'],
    [25, 'low'],
    [24.99, 'low'],
    [10.5, 'low'],
    [10, 'critical'],
    [9.99, 'critical'],
    [0, 'critical'],
  ] as const)('%s → %s', (pct, state) => {
    expect(stateOf(pct, t)).toBe(state);
  });

  it('uses the thresholds given', () => {
    expect(stateOf(40, { low: 50, critical: 40 })).toBe('critical');
    expect(stateOf(45, { low: 50, critical: 40 })).toBe('low');
  });
});

describe('contextLines', () => {
  it.each([
    [1_000_000, 50_000, 950_000, 930_000],
    [200_000, 50_000, 150_000, 130_000],
    [60_000, 50_000, 10_000, 1_000],
    [30_000, 50_000, 10_000, 1_000],
    [70_000, 50_000, 20_000, 1_000],
    [71_000, 50_000, 21_000, 1_000],
    [72_000, 50_000, 22_000, 2_000],
    [0, 0, 10_000, 1_000],
  ])('window %i headroom %i → at %i warnAt %i', (window, headroom, at, warnAt) => {
    expect(contextLines(window, headroom)).toEqual({ at, warnAt });
  });
});

describe('decide', () => {
  // window 200k, headroom 50k → at 150k, warnAt 130k; pressure 60 → soon at 50.
  const base: DecisionInput = { state: 'ok', contextTokens: null, contextPct: null, window: 200_000, headroom: 50_000, contextPressure: 60 };
  it.each<[string, Partial<DecisionInput>, string]>([
    ['ok, nothing else', {}, 'continue'],
    ['unknown alone', { state: 'unknown' }, 'continue'],
    ['low', { state: 'low' }, 'handoff_soon'],
    ['critical', { state: 'critical' }, 'handoff_now'],
    ['tokens below warn', { contextTokens: 129_999 }, 'continue'],
    ['tokens at warn', { contextTokens: 130_000 }, 'handoff_soon'],
    ['tokens just below at', { contextTokens: 149_999 }, 'handoff_soon'],
    ['tokens at at', { contextTokens: 150_000 }, 'handoff_now'],
    ['pct below soon', { contextPct: 49.9 }, 'continue'],
    ['pct at pressure - 10', { contextPct: 50 }, 'handoff_soon'],
    ['pct just below pressure', { contextPct: 59.9 }, 'handoff_soon'],
    ['pct at pressure', { contextPct: 60 }, 'handoff_now'],
    ['autoCompacted', { autoCompacted: true }, 'handoff_now'],
    ['autoCompacted false', { autoCompacted: false }, 'continue'],
    ['low + context now: stronger wins', { state: 'low', contextTokens: 150_000 }, 'handoff_now'],
    ['critical + context fine', { state: 'critical', contextPct: 1 }, 'handoff_now'],
    ['unknown + context soon', { state: 'unknown', contextPct: 55 }, 'handoff_soon'],
    ['unknown + auto compaction', { state: 'unknown', autoCompacted: true }, 'handoff_now'],
    ['tokens fine, pct now', { contextTokens: 1_000, contextPct: 61 }, 'handoff_now'],
    ['pct fine, tokens soon', { contextTokens: 140_000, contextPct: 10 }, 'handoff_soon'],
    ['small window floors at 10k', { window: 30_000, contextTokens: 10_000 }, 'handoff_now'],
    ['small window warn floor 1k', { window: 30_000, contextTokens: 1_000 }, 'handoff_soon'],
    ['small window below warn', { window: 30_000, contextTokens: 999 }, 'continue'],
  ])('%s → %s', (_name, over, expected) => {
    expect(decide({ ...base, ...over })).toBe(expected);
  });
});

describe('defaultWindow', () => {
  it.each([
    [undefined, 1_000_000],
    ['', 1_000_000],
    ['claude-opus-4[1m]', 1_000_000],
    ['claude-sonnet-4-5-1m', 1_000_000],
    ['sonnet 1m', 1_000_000],
    ['1m', 1_000_000],
    ['SONNET[1M]', 1_000_000],
    ['claude-haiku-4-5', 200_000],
    ['HAIKU', 200_000],
    ['claude-haiku-4-5[1m]', 1_000_000],
    ['claude-31mini-haiku', 200_000],
    ['haiku-1mb', 200_000],
    ['haiku-11m', 200_000],
    ['claude-opus-4-1', 1_000_000],
    ['claude-sonnet-4-5', 1_000_000],
  ])('%j → %i', (model, window) => {
    expect(defaultWindow(model)).toBe(window);
  });
});

describe('resolveWindow', () => {
  it.each<[string, number | 'auto', number | null, Record<string, string | undefined>, number]>([
    ['configured number wins', 300_000, 1_000_000, { ANTHROPIC_MODEL: 'haiku' }, 300_000],
    ['auto takes the reported window', 'auto', 272_000, { ANTHROPIC_MODEL: 'haiku' }, 272_000],
    ['auto, none reported, ANTHROPIC_MODEL', 'auto', null, { ANTHROPIC_MODEL: 'claude-haiku-4-5' }, 200_000],
    ['ANTHROPIC_MODEL before the opus default', 'auto', null, { ANTHROPIC_MODEL: 'sonnet 1m', ANTHROPIC_DEFAULT_OPUS_MODEL: 'haiku' }, 1_000_000],
    ['falls back to ANTHROPIC_DEFAULT_OPUS_MODEL', 'auto', null, { ANTHROPIC_DEFAULT_OPUS_MODEL: 'haiku' }, 200_000],
    ['empty ANTHROPIC_MODEL falls through', 'auto', null, { ANTHROPIC_MODEL: ' ', ANTHROPIC_DEFAULT_OPUS_MODEL: 'haiku' }, 200_000],
    ['no env at all', 'auto', null, {}, 1_000_000],
    ['reported 0 is no report', 'auto', 0, { ANTHROPIC_MODEL: 'haiku' }, 200_000],
  ])('%s', (_name, configured, reported, env, expected) => {
    expect(resolveWindow(configured, reported, env)).toBe(expected);
  });
});

describe('isOverflow', () => {
  it.each<[string, string[], boolean]>([
    ['prompt is too long', ['Error: prompt is too long: 210000 tokens > 200000'], true],
    ['context length exceeded', ['context length exceeded'], true],
    ['maximum context length', ["This model's maximum context length is 128000 tokens"], true],
    ['too many total text bytes', ['too many total text bytes'], true],
    ['input length and max_tokens exceed', ['input length and max_tokens exceed context limit'], true],
    ['upper case', ['PROMPT IS TOO LONG'], true],
    ['in the second text', ['all good', 'API Error: Context Length Exceeded'], true],
    ['wrapped across lines', ['prompt is\r\n  too long'], true],
    ['ANSI inside', ['\x1b[31mprompt is \x1b[1mtoo long\x1b[0m'], true],
    ['no texts', [], false],
    ['empty text', [''], false],
    ['unrelated', ['usage limit reached', 'the prompt is long'], false],
    ['partial phrase', ['maximum context'], false],
  ])('%s', (_name, texts, expected) => {
    expect(isOverflow(...texts)).toBe(expected);
  });
});
