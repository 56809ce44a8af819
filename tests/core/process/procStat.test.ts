/** /proc/<pid>/stat read for what identifies a process across a pid's reuse (issue 11: a gate's process). */
import { describe, expect, it } from 'vitest';
import { ended, parseProcStat, sameProcess } from '../../../src/core/process/procStat.js';

const TAIL = '22183 22183 11793 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 2111432 3133440 396 18446744073709551615 0 0';
const line = (comm: string, state = 'S', tail = TAIL) => `22189 (${comm}) ${state} ${tail}`;

describe('parseProcStat', () => {
  it.each([
    ['a plain command', line('sh'), { pid: 22189, state: 'S', pgrp: 22183, startTicks: 2111432 }],
    ['a command with spaces and parentheses', line('tmux: server (x) )'), { pid: 22189, state: 'S', pgrp: 22183, startTicks: 2111432 }],
    ['a trailing line break and spaces', `${line('sh')}\n  `, { pid: 22189, state: 'S', pgrp: 22183, startTicks: 2111432 }],
    ['CRLF', `${line('sh')}\r\n`, { pid: 22189, state: 'S', pgrp: 22183, startTicks: 2111432 }],
    ['a zombie', line('sh', 'Z'), { pid: 22189, state: 'Z', pgrp: 22183, startTicks: 2111432 }],
    ['a line break in the command', line('a\nb'), { pid: 22189, state: 'S', pgrp: 22183, startTicks: 2111432 }],
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
  const stat = (over: object = {}) => ({ pid: 22189, state: 'S', pgrp: 22189, startTicks: 2111432, ...over });
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
