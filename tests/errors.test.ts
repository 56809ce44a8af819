/** A file system refusal is the plan's files failing (exit 5, SPEC 8) with the path and what to do (issue 10 item 15). */
import { describe, expect, it } from 'vitest';
import { describeError } from '../src/errorReport.js';
import { planFilesFault, PlanFilesError } from '../src/errors.js';

function errno(code: string, path?: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: some words, open '${path ?? ''}'`);
  e.code = code;
  if (path !== undefined) e.path = path;
  return e;
}

describe('planFilesFault', () => {
  it.each([
    ['EPERM', /chattr -i \/p\/journal\.jsonl/],
    ['EACCES', /ls -ld/],
    ['EROFS', /read-only/],
    ['ENOSPC', /disk is full.*df -h \/p\/journal\.jsonl/],
    ['EDQUOT', /quota/],
    ['EIO', /dmesg/],
  ])('%s: exit 5, the path and what to do', (code, hint) => {
    const fault = planFilesFault(errno(code, '/p/journal.jsonl'));
    expect(fault).toBeInstanceOf(PlanFilesError);
    expect(fault).toMatchObject({ exitCode: 5, path: '/p/journal.jsonl', message: `cannot write /p/journal.jsonl: ${code} (some words)` });
    expect(fault?.hint).toMatch(hint);
  });

  it('without a path it still says what to do', () => {
    expect(planFilesFault(errno('ENOSPC'))?.message).toBe('cannot write a file of the plan: ENOSPC (some words)');
  });

  it.each([
    ['ENOENT', errno('ENOENT', '/p/x')], ['EEXIST', errno('EEXIST', '/p/x')], ['a plain Error', new Error('boom')], ['a string', 'EPERM'], ['null', null],
  ])('%s is no such fault', (_name, error) => {
    expect(planFilesFault(error)).toBeNull();
  });
});

describe('describeError', () => {
  it('a raw EPERM is told as the plan files failing, exit 5, not an internal error', () => {
    const { text, code } = describeError(errno('EPERM', '/p/journal.jsonl'), { color: false });
    expect(code).toBe(5);
    expect(text).toBe('swarm: cannot write /p/journal.jsonl: EPERM (some words)\n' +
      '  make it writable: it or its folder may be immutable (`lsattr -d /p/journal.jsonl`, then `chattr -i /p/journal.jsonl`) or not yours, then run the command again\n');
  });
});
