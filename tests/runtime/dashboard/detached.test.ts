import { describe, expect, it } from 'vitest';
import { judgeStart, type StartVerdict, type WindowLook } from '../../../src/runtime/dashboard/detached.js';

const alive = { dead: false, status: null };
const look = (over: Partial<WindowLook>): WindowLook => ({ started: false, pane: alive, screen: [], holding: false, late: false, ...over });
const EXIT5 = ['swarm up cannot start: cannot write /p/journal.jsonl: EPERM', '  make it writable', 'swarm: the engine exited (status 5); restarting in 2 s', '', ''];

describe('judgeStart: has window 0\'s engine started, failed, or is it waited for', () => {
  it.each<[string, Partial<WindowLook>, StartVerdict]>([
    ['nothing yet, before the deadline: wait', {}, { kind: 'wait' }],
    ['the lock held but no start record yet, before the deadline: wait (its run may still fail)', { holding: true }, { kind: 'wait' }],
    ['the start record: started', { started: true, holding: true }, { kind: 'started' }],
    ['the start record outruns everything else on the screen', { started: true, screen: EXIT5 }, { kind: 'started' }],
    ['the loop\'s exit line: failed with the engine\'s code, the lines above it told', { screen: EXIT5 },
      { kind: 'failed', code: 5, why: 'its engine exited with status 5', lines: ['swarm up cannot start: cannot write /p/journal.jsonl: EPERM', '  make it writable'] }],
    ['an exit status no code of SPEC 8 (a signal): 1', { screen: ['swarm: the engine exited (status 137); restarting in 2 s'] },
      { kind: 'failed', code: 1, why: 'its engine exited with status 137', lines: [] }],
    ['its pane dead after a clean exit: the engine refused the plan (3)', { pane: { dead: true, status: 0 }, screen: ['swarm: plan p is already run by pid 9 on h;  ', ''] },
      { kind: 'failed', code: 3, why: 'its engine ended before it started', lines: ['swarm: plan p is already run by pid 9 on h;'] }],
    ['its pane dead with a status: that status', { pane: { dead: true, status: 4 } }, { kind: 'failed', code: 4, why: 'its engine ended before it started', lines: [] }],
    ['the window gone, its last screen told', { pane: null, screen: ['gone'] }, { kind: 'failed', code: 3, why: 'its engine ended before it started', lines: ['gone'] }],
    ['the deadline passed with a live engine holding the plan: starting', { late: true, holding: true }, { kind: 'starting' }],
    ['the deadline passed and nobody holds the plan: failed (1)', { late: true, screen: ['node: bad option'] },
      { kind: 'failed', code: 1, why: 'its engine did not start within 15 s', lines: ['node: bad option'] }],
  ])('%s', (_name, over, want) => {
    expect(judgeStart(look(over))).toEqual(want);
  });

  it('tells at most the last 20 lines', () => {
    const screen = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const verdict = judgeStart(look({ late: true, screen }));
    expect(verdict.kind === 'failed' ? verdict.lines : []).toEqual(screen.slice(10));
  });
});
