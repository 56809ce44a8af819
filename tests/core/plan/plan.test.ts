import { describe, expect, it } from 'vitest';
import { frontMatterProblem, planContract } from '../../../src/core/plan/plan.js';

describe('planContract', () => {
  it.each<[string, string, string]>([
    ['empty file', '', ''],
    ['whitespace only', '  \n\t\n', ''],
    ['no front matter', '# Plan\n\ncontract: v1\n', ''],
    ['front matter without a contract', '---\ntitle: Demo\n---\n# Plan\n', ''],
    ['plain value', '---\ncontract: v1\n---\n# Plan\n', 'v1'],
    ['empty front matter, a contract line after a rule in the body', '---\n---\ncontract: x\n---\n', ''],
    ['opening fence with a trailing space', '--- \ncontract: v2\n---\n', 'v2'],
    ['a comment after the value', '---\ncontract: v1 # note\n---\n', 'v1'],
    ['a quoted value keeps its #', '---\ncontract: "v#1"\n---\n', 'v#1'],
    ['value with spaces inside', '---\ncontract: steps 1-3 and the API\n---\n', 'steps 1-3 and the API'],
    ['double quoted', '---\ncontract: "v1"\n---\n', 'v1'],
    ['single quoted', "---\ncontract: 'v1'\n---\n", 'v1'],
    ['quoted, with spaces kept inside', '---\ncontract: "  v1  "\n---\n', '  v1  '],
    ['quoted with an apostrophe inside', '---\ncontract: "it\'s v2"\n---\n', "it's v2"],
    ['mismatched quotes stay as written', '---\ncontract: "v1\'\n---\n', '"v1\''],
    ['a lone quote stays as written', '---\ncontract: "\n---\n', '"'],
    ['BOM', '\uFEFF---\ncontract: v1\n---\n', 'v1'],
    ['CRLF', '---\r\ncontract: v1\r\ntitle: x\r\n---\r\n# Plan\r\n', 'v1'],
    ['bare CR line ends', '---\rcontract: v1\r---\r', 'v1'],
    ['BOM and CRLF', '\uFEFF---\r\ncontract: "v3"\r\n---\r\n', 'v3'],
    ['no closing ---', '---\ncontract: v1\n# Plan\n', ''],
    ['closing --- at the very end without a newline', '---\ncontract: v1\n---', 'v1'],
    ['contract not the first key', '---\ntitle: Demo\nowner: me\ncontract: v2\nsteps: 3\n---\n', 'v2'],
    ['the first contract key wins', '---\ncontract: v1\ncontract: v2\n---\n', 'v1'],
    ['empty value', '---\ncontract:\n---\n', ''],
    ['empty value with trailing spaces', '---\ncontract:   \n---\n', ''],
    ['empty quoted value', '---\ncontract: ""\n---\n', ''],
    ['trailing spaces after the value', '---\ncontract: v1   \n---\n', 'v1'],
    ['trailing tab after the value', '---\ncontract: v1\t\n---\n', 'v1'],
    ['trailing spaces after a quoted value', '---\ncontract: "v1"  \n---\n', 'v1'],
    ['no space after the colon', '---\ncontract:v1\n---\n', 'v1'],
    ['an indented contract belongs to another key', '---\nmeta:\n  contract: v9\n---\n', ''],
    ['upper case key is another key', '---\nContract: v1\n---\n', ''],
    ['upper case value is kept', '---\ncontract: V1-FINAL\n---\n', 'V1-FINAL'],
    ['a key that only starts with contract', '---\ncontracts: v1\ncontract_note: x\n---\n', ''],
    ['a contract in the body after the front matter', '---\ntitle: x\n---\ncontract: v1\n', ''],
    ['front matter not at the top', '\n---\ncontract: v1\n---\n', ''],
    ['leading spaces before the opening ---', ' ---\ncontract: v1\n---\n', ''],
  ])('%s', (_name, text, expected) => {
    expect(planContract(text)).toBe(expected);
  });
});

describe('frontMatterProblem', () => {
  const unclosed = '1: the front matter opened by "---" is never closed: end it with a line "---" (or remove the first line if the plan has none)';
  it.each<[string, string, string | null]>([
    ['empty', '', null],
    ['no front matter', '# Plan\n', null],
    ['closed', '---\ncontract: c\n---\n# Plan\n', null],
    ['closed, trailing spaces', '--- \ncontract: c\n---\t\n', null],
    ['closed, CRLF', '---\r\ncontract: c\r\n---\r\n', null],
    ['closed, BOM', '\uFEFF---\ncontract: c\n---\n', null],
    ['unclosed', '---\ncontract: c\n# Plan\n', unclosed],
    ['unclosed, CRLF and BOM', '\uFEFF---\r\ncontract: c\r\n', unclosed],
    ['only the opener', '---', unclosed],
    ['an ANSI escape is no closer', '---\n\u001b[2J---\n', unclosed],
  ])('%s', (_name, text, expected) => {
    expect(frontMatterProblem(text)).toBe(expected);
  });
});
