import { describe, expect, it } from 'vitest';
import { answersNeeded, describeStep, fillAnswers, parseSteps, simBlock, stepNumbers, type Step } from '../../src/sim/steps.js';

const ESC = '\x1b';
const plan = (block: string, fence = '```sim') => `---\ncontract: c\n---\n# Plan\n\n${fence}\n${block}\n\`\`\`\n\nafter\n`;

describe('simBlock', () => {
  it.each([
    ['empty text', '', null],
    ['whitespace only', '  \n\t\n', null],
    ['no sim block', '# Plan\n```yaml\na: 1\n```\n', null],
    ['a plain block', '```sim\na: 1\n```\n', 'a: 1'],
    ['multi-line body', '```sim\na:\n  - run: x\nb: []\n```', 'a:\n  - run: x\nb: []'],
    ['trailing spaces on the fence', '```sim   \na: 1\n```  \n', 'a: 1'],
    ['CRLF line ends', '```sim\r\na: 1\r\n```\r\n', 'a: 1'],
    ['ANSI escapes removed', `${ESC}[1m\`\`\`sim${ESC}[0m\na: 1\n\`\`\``, 'a: 1'],
    ['upper-case info string', '```SIM\na: 1\n```', 'a: 1'],
    ['tilde fence', '~~~sim\na: 1\n~~~', 'a: 1'],
    ['a longer fence closes only on as long a fence', '````sim\n```\ninside\n````', '```\ninside'],
    ['unclosed block runs to the end', '```sim\na: 1\nb: 2', 'a: 1\nb: 2'],
    ['the first of two blocks', '```sim\na: 1\n```\n```sim\nb: 2\n```', 'a: 1'],
    ['another info string is not it', '```simulate\na: 1\n```', null],
    ['an empty block', '```sim\n```', ''],
  ])('%s', (_name, text, expected) => {
    expect(simBlock(text)).toBe(expected);
  });
});

describe('parseSteps', () => {
  it('reads every kind of step, per lane', () => {
    const result = parseSteps(plan([
      'lane-a:',
      '  - write: a.txt',
      '    text: "hi\\n"',
      '  - append: a.txt',
      '    text: more',
      '  - run: make',
      '  - gate: test -f a.txt',
      '    pr: true',
      '  - ask: lane-b',
      '    text: " what is yours? "',
      '  - commit: first',
      'lane-b: []',
    ].join('\n')));
    expect(result).toEqual({
      ok: true,
      lanes: {
        'lane-a': [
          { kind: 'write', path: 'a.txt', text: 'hi\n', pr: false },
          { kind: 'append', path: 'a.txt', text: 'more', pr: false },
          { kind: 'run', arg: 'make', pr: false },
          { kind: 'gate', arg: 'test -f a.txt', pr: true },
          { kind: 'ask', lane: 'lane-b', text: 'what is yours?', pr: false },
          { kind: 'commit', arg: 'first', pr: false },
        ],
        'lane-b': [],
      },
    });
  });

  it('reads the shipped demo plan', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../../plans/demo/PLAN.md', import.meta.url), 'utf8');
    const result = parseSteps(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.lanes)).toEqual(['lane-a', 'lane-b', 'lane-c', 'lane-c.review', 'lane-c.fix', 'lane-d']);
    expect(result.lanes['lane-c.review']).toEqual([{ kind: 'check', arg: "grep -qx -- '- lane-d: total.txt' summary.md", text: "summary.md names no file of lane-d; add the line '- lane-d: total.txt'", pr: false }]);
    for (const steps of ['lane-a', 'lane-b', 'lane-c', 'lane-d'].map((lane) => result.lanes[lane]!)) {
      expect(steps.length).toBeGreaterThanOrEqual(2);
      expect(steps.length).toBeLessThanOrEqual(8);
    }
    expect(result.lanes['lane-c']?.[0]).toMatchObject({ kind: 'ask', lane: 'lane-a' });
  });

  it.each([
    ['no block', '# Plan\n', 'PLAN.md has no ```sim block (lane-name → list of steps)'],
    ['an empty block', plan(''), 'the sim block is empty: give each lane a list of steps'],
    ['whitespace only', plan('   \n  '), 'the sim block is empty: give each lane a list of steps'],
    ['a list at the top', plan('- run: x'), 'the sim block must be a map of lane name → list of steps'],
    ['a scalar at the top', plan('hello'), 'the sim block must be a map of lane name → list of steps'],
    ['not YAML', plan('a: [1, 2'), /^the sim block is not YAML: /],
    ['a lane that is no list', plan('lane-a: run'), 'lane-a: expected a list of steps'],
    ['a step that is no map', plan('lane-a:\n  - run x'), 'lane-a step 1: a step is a map such as { write: path, text: … }'],
    ['no action', plan('lane-a:\n  - text: x'), 'lane-a step 1: needs exactly one of write, append, run, gate, ask, commit, check; found none'],
    ['two actions', plan('lane-a:\n  - run: x\n    gate: y'), 'lane-a step 1: needs exactly one of write, append, run, gate, ask, commit, check; found run, gate'],
    ['an unknown key', plan('lane-a:\n  - run: x\n    when: now'), 'lane-a step 1: unknown key when (allowed: run, text, pr)'],
    ['an empty action', plan('lane-a:\n  - run: "  "'), 'lane-a step 1: run needs a non-empty string'],
    ['a number as action', plan('lane-a:\n  - run: 3'), 'lane-a step 1: run needs a non-empty string'],
    ['write without text', plan('lane-a:\n  - write: a'), 'lane-a step 1: write needs text'],
    ['ask without text', plan('lane-a:\n  - ask: lane-b'), 'lane-a step 1: ask needs text'],
    ['run with text', plan('lane-a:\n  - run: x\n    text: y'), 'lane-a step 1: run takes no text'],
    ['a check without the changes it asks for', plan('lane-a.review:\n  - check: test -f x'), 'lane-a.review step 1: check needs text'],
    ['pr not a boolean', plan('lane-a:\n  - run: x\n    pr: yes please'), 'lane-a step 1: pr must be true or false'],
    ['problems in two lanes, all named', plan('a:\n  - run: x\n  - nope: 1\nb: 3'), 'a step 2: needs exactly one of write, append, run, gate, ask, commit, check; found none; b: expected a list of steps'],
  ])('%s', (_name, text, error) => {
    const result = parseSteps(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    if (typeof error === 'string') expect(result.error).toBe(error);
    else expect(result.error).toMatch(error);
  });

  it('keeps CRLF plans and upper-case fences working', () => {
    const text = plan('lane-a:\n  - run: make\n', '```SIM  ').replace(/\n/g, '\r\n');
    expect(parseSteps(text)).toEqual({ ok: true, lanes: { 'lane-a': [{ kind: 'run', arg: 'make', pr: false }] } });
  });
});

describe('describeStep and stepNumbers', () => {
  const steps: [Step, string][] = [
    [{ kind: 'write', path: 'a.txt', text: 'x', pr: false }, 'step 1: write a.txt'],
    [{ kind: 'append', path: 'b/c.txt', text: 'x', pr: false }, 'step 1: append b/c.txt'],
    [{ kind: 'run', arg: 'npm   test\n  --x', pr: false }, 'step 1: run npm test --x'],
    [{ kind: 'gate', arg: 'grep -q x f', pr: false }, 'step 1: gate grep -q x f'],
    [{ kind: 'ask', lane: 'lane-a', text: 'what\nfile?', pr: false }, 'step 1: ask lane-a what file?'],
    [{ kind: 'commit', arg: 'msg', pr: false }, 'step 1: commit msg'],
  ];
  it.each(steps)('%o reads %s', (step, text) => {
    expect(describeStep(step, 1)).toBe(text);
  });

  it.each([
    ['none', [], []],
    ['in order', ['step 2: run x', 'step 3: gate y'], [2, 3]],
    ['spaces and upper case', ['  STEP 10 : run x'], [10]],
    ['ANSI escapes', [`${ESC}[1mstep 4:${ESC}[0m write a`], [4]],
    ['an entry naming no step', ['step 2: run x', 'Inspect the checkout'], null],
    ['empty entry', [''], null],
    ['whitespace entry', ['   '], null],
    ['multi-line entry keeps its first number', ['step 5: write a\nmore'], [5]],
  ])('stepNumbers: %s', (_name, entries, expected) => {
    expect(stepNumbers(entries)).toEqual(expected);
  });
});

describe('fillAnswers', () => {
  const answers = new Map([['lane-a', 'greeting.txt'], ['lane-b', 'count.txt']]);
  it.each([
    ['no placeholder', 'plain', 'plain'],
    ['a named answer', '- a: {answer:lane-a}', '- a: greeting.txt'],
    ['the last answer', 'last {answer}', 'last count.txt'],
    ['a missing lane', '{answer:lane-z}', '(no answer from lane-z)'],
    ['several', '{answer:lane-a} {answer:lane-b}', 'greeting.txt count.txt'],
    ['multi-line text', '# T\n{answer:lane-a}\n', '# T\ngreeting.txt\n'],
  ])('%s', (_name, text, expected) => {
    expect(fillAnswers(text, answers)).toBe(expected);
  });

  it('says so when there is no answer at all', () => {
    expect(fillAnswers('{answer}', new Map())).toBe('(no answer)');
  });

  it('names the lanes a text needs', () => {
    expect(answersNeeded('{answer:lane-a} and {answer} and {answer:lane-b}')).toEqual(['lane-a', 'lane-b']);
    expect(answersNeeded('')).toEqual([]);
  });
});
