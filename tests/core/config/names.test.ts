/** swarm.yaml's names (SPEC 10.1) and checkouts compared by real path, each problem at FILE:LINE:COL. */
import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigFacts } from '../../../src/core/config/config.js';
import { nameRefusal } from '../../../src/core/config/names.js';

const DIRS = ['/w', '/w/plans/demo', '/w/a', '/w/b', '/w/link-to-a'];
/** `/w/link-to-a` is a symlink to `/w/a`. */
const REAL: Record<string, string> = { '/w/link-to-a': '/w/a' };

function facts(): ConfigFacts {
  return { isDirectory: (p) => DIRS.includes(p), kindExists: () => true, realPath: (p) => REAL[p] ?? p, home: '/home/u', env: {} };
}

function file(over: { name?: string; account?: string; lead?: string; lane?: string; checkoutB?: string } = {}): string {
  return [
    'version: 1', //                                                   1
    `name: ${over.name ?? 'demo'}`, //                                 2
    'plan: plans/demo', //                                             3
    'accounts:', //                                                    4
    `  - { id: ${over.account ?? 'work1'}, kind: claude }`, //        5
    '  - { id: work2, kind: claude }', //                              6
    'lead:', //                                                        7
    `  name: ${over.lead ?? 'lead'}`, //                               8
    `  account: ${over.account ?? 'work1'}`, //                        9
    'lanes:', //                                                      10
    `  - { name: ${over.lane ?? 'lane-a'}, checkout: a, task: t }`, // 11
    `  - { name: lane-b, checkout: ${over.checkoutB ?? 'b'}, task: t }`, // 12
    '',
  ].join('\n');
}

function problems(text: string): string[] {
  const result = parseConfig(text, '/w/swarm.yaml', facts());
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

const AGENT_RULE = 'a name of letters, digits, ".", "_" and "-" that starts with a letter or digit';
const SWARM_RULE = 'a name of letters, digits, "_" and "-" (no "." or ":": tmux changes those in session names)';

describe('swarm.yaml names (1-64 characters; the lead at most 62)', () => {
  it('takes names at their longest: a lane and an account of 64, the lead of 62, the swarm of 64', () => {
    expect(problems(file({ lane: 'l'.repeat(64), account: 'a'.repeat(64), lead: 'd'.repeat(62), name: 's'.repeat(64) }))).toEqual([]);
    expect(problems(file({ name: '_my-proj_2' }))).toEqual([]);
  });

  it.each([
    ['a lane name of 65', { lane: 'l'.repeat(65) }, ['11:13: "lanes[0].name" is 65 characters: a name may have at most 64 (it names files and tmux panes); shorten it']],
    ['a lane name of 240', { lane: 'l'.repeat(240) }, ['11:13: "lanes[0].name" is 240 characters: a name may have at most 64 (it names files and tmux panes); shorten it']],
    ['an account id of 65', { account: 'a'.repeat(65) }, [
      '5:11: "accounts[0].id" is 65 characters: a name may have at most 64 (it names files and tmux panes); shorten it',
      `9:12: unknown account "${'a'.repeat(65)}" for the lead: the accounts are work2`,
    ]],
    ['a lead name of 63', { lead: 'd'.repeat(63) }, ['8:9: "lead.name" is 63 characters: the lead\'s name may have at most 62 (its successor is "<name>-b"); shorten it']],
    ['a swarm name of 65', { name: 's'.repeat(65) }, ['2:7: "name" is 65 characters: a name may have at most 64 (it names files and tmux panes); shorten it']],
    ['a swarm name with a dot (tmux would name the session swarm-my_proj)', { name: 'my.proj' }, [`2:7: "name" must be ${SWARM_RULE}, got "my.proj"`]],
    ['a swarm name with a colon', { name: '"my:proj"' }, [`2:7: "name" must be ${SWARM_RULE}, got "my:proj"`]],
    ['a lane name with a space', { lane: '"lane a"' }, [`11:13: "lanes[0].name" must be ${AGENT_RULE}, got "lane a"`]],
    ['a lane name starting with a dot', { lane: '.hidden' }, [`11:13: "lanes[0].name" must be ${AGENT_RULE}, got ".hidden"`]],
    ['a lead name starting with a dash', { lead: '"-lead"' }, [`8:9: "lead.name" must be ${AGENT_RULE}, got "-lead"`]],
  ])('refuses %s at its line and column', (_what, over, expected) => {
    expect(problems(file(over))).toEqual(expected);
  });
});

describe('checkouts compared by real path', () => {
  it('refuses two lanes on one directory reached through a symlink', () => {
    expect(problems(file({ checkoutB: 'link-to-a' }))).toEqual([
      '12:31: lanes "lane-a" and "lane-b" share the checkout /w/a (/w/link-to-a leads there): give each lane its own (use git worktrees)',
    ]);
  });

  it('refuses the same directory spelled another way', () => {
    expect(problems(file({ checkoutB: './b/../a/' }))).toEqual(['12:31: lanes "lane-a" and "lane-b" share the checkout /w/a: give each lane its own (use git worktrees)']);
  });
});

describe('nameRefusal (swarm lane add)', () => {
  it('says what is wrong with a name given on the command line', () => {
    expect(nameRefusal('lane name', 'x'.repeat(64), 'agent')).toBeNull();
    expect(nameRefusal('lane name', 'x'.repeat(240), 'agent')).toBe(`lane name "${'x'.repeat(40)}"… is 240 characters: a name may have at most 64 (it names files and tmux panes); shorten it`);
    expect(nameRefusal('lane name', 'a/b', 'agent')).toBe(`lane name "a/b" must be ${AGENT_RULE}`);
  });
});
