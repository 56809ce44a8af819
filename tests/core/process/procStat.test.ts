/** /proc/<pid>/stat read for what identifies a process across a pid's reuse (issue 11: a gate's process). */
import { describe, expect, it } from 'vitest';
import { ended, parseProcStat, sameProcess } from '../../../src/core/process/procStat.js';

const TAIL = '22183 22183 11793 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 2111432 3133440 396 18446744073709551615 0 0';
const line = (comm: string, state = 'S', tail = TAIL) => `22189 (${comm}) ${state} ${tail}`;
const facts = (comm: string, state = 'S') => ({ pid: 22189, comm, state, ppid: 22183, pgrp: 22183, ttyNr: 0, startTicks: 2111432 });

describe('parseProcStat', () => {
  it.each([
    ['a plain command', line('sh'), facts('sh')],
    ['a command with spaces and parentheses', line('tmux: server (x) )'), facts('tmux: server (x) )')],
    ['a trailing line break and spaces', `${line('sh')}\n  `, facts('sh')],
    ['CRLF', `${line('sh')}\r\n`, facts('sh')],
    ['a zombie', line('sh', 'Z'), facts('sh', 'Z')],
    ['a line break in the command', line('a\nb'), facts('a\nb')],
    ['a controlling terminal', line('bash', 'S', TAIL.replace(' 11793 0 ', ' 11793 34817 ')), { ...facts('bash'), ttyNr: 34817 }],
  ])('%s', (_name, text, expected) => {
    expect(parseProcStat(text)).toEqual(expected);
  });

  it.each([
    ['empty', ''],
    ['spaces only', '   \n'],
    ['no command', '22189 S 1 2 3'],
    ['cut short before the start time', line('sh', 'S', '1 2 3 4 5')],
    ['not a pid', line('sh').replace('22189', 'x')],
    ['ANSI escapes for a state', line('sh', '\u001b[31mS')],
  ])('%s: not a stat line', (_name, text) => {
    expect(parseProcStat(text)).toBeNull();
  });
});

describe('sameProcess and ended', () => {
  const then = { pid: 22189, startTicks: 2111432 };
  const stat = (over: object = {}) => ({ pid: 22189, comm: 'sh', state: 'S', ppid: 1, pgrp: 22189, ttyNr: 0, startTicks: 2111432, ...over });
  it.each([
    ['running', stat(), true, false],
    ['a zombie: still holds its pid', stat({ state: 'Z' }), true, true],
    ['the pid reused by another process', stat({ startTicks: 2111500 }), false, true],
    ['gone', null, false, true],
  ])('%s', (_name, now, same, over) => {
    expect(sameProcess(then, now)).toBe(same);
    expect(ended(then, now)).toBe(over);
  });
});
