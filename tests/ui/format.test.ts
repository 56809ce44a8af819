import { describe, expect, it } from 'vitest';
import {
  CAPACITY_TONE, LEGEND, LEGEND_SHORT, accountText, ageChangesIn, capacityText, legendText, clockDue, contextBar, cut, fit, lastText, laneCounts, oneLine, phaseText, planName, stateText, uptime,
} from '../../src/ui/format.js';
import type { Phase } from '../../src/machine/types.js';
import { NOW, lane } from './views.js';

describe('oneLine', () => {
  it.each([
    ['empty', '', ''],
    ['whitespace only', '  \t ', ''],
    ['multi-line', 'plan ready\ncapacity=ok 80% @a1', 'plan ready capacity=ok 80% @a1'],
    ['trailing spaces', 'plan ready   ', 'plan ready'],
    ['CRLF', 'plan ready\r\ncapacity=ok\r\n', 'plan ready capacity=ok'],
    ['ANSI colour codes', '\u001b[31mPR open\u001b[0m http://x', 'PR open http://x'],
    ['an OSC title', '\u001b]0;title\u0007done', 'done'],
    ['upper case kept', 'DONE', 'DONE'],
  ])('%s', (_name, input, expected) => {
    expect(oneLine(input)).toBe(expected);
  });
});

describe('capacityText: the capacity cell, its context part left to the CONTEXT column', () => {
  it.each<[string, string | null, string]>([
    ['no line yet', null, '-'],
    ['empty', '', '-'],
    ['no context part', 'capacity=ok 80% @o2', 'capacity=ok 80% @o2'],
    ['context part dropped', 'capacity=low 22% @a3 context=61%', 'capacity=low 22% @a3'],
    ['the short ctx= form dropped', 'capacity=low 20% @sim-a2 ctx=18%', 'capacity=low 20% @sim-a2'],
    ['upper case CONTEXT=', 'capacity=ok 50% @a1 CONTEXT=7%', 'capacity=ok 50% @a1'],
    ['trailing spaces', 'capacity=low 22% @a3 context=61%   ', 'capacity=low 22% @a3'],
    ['CRLF', 'capacity=critical 5% @o1 context=90%\r\n', 'capacity=critical 5% @o1'],
    ['multi-line', 'capacity=ok 70% @o1\ncontext=12%', 'capacity=ok 70% @o1'],
    ['escape codes', '\u001b[31mcapacity=critical 5% @o1\u001b[0m context=\u001b[1m88%\u001b[0m', 'capacity=critical 5% @o1'],
    ['an account named like it keeps its name', 'capacity=ok 9% @context=x', 'capacity=ok 9% @context=x'],
    ['only a context part', 'context=40%', '-'],
  ])('%s', (_name, input, expected) => {
    expect(capacityText(input)).toBe(expected);
  });
});

describe('legendText: what near, attention and blocked mean, in one line', () => {
  it.each<[number, string]>([
    [200, LEGEND],
    [LEGEND.length, LEGEND],
    [LEGEND.length - 1, LEGEND_SHORT],
    [80, LEGEND_SHORT],
    [LEGEND_SHORT.length, LEGEND_SHORT],
    [30, 'near: capacity low, hand-off …'],
    [0, ''],
  ])('at %i columns', (width, expected) => {
    expect(legendText(width)).toBe(expected);
    expect([...legendText(width)].length).toBeLessThanOrEqual(width);
  });

  it('says what each word means, as the lane machine sets it', () => {
    expect(LEGEND).toBe('near: capacity low, hand-off soon · attention: no successor could start, needs you · blocked: waits for an answer');
    expect(LEGEND_SHORT).toBe('near: capacity low, hand-off soon · attention: needs you');
  });
});

describe('cut and fit', () => {
  it.each([
    ['shorter than the width', 'lane-a', 8, 'lane-a', 'lane-a  '],
    ['exactly the width', 'lane-a', 6, 'lane-a', 'lane-a'],
    ['longer: ends with …', 'lane-alpha', 6, 'lane-…', 'lane-…'],
    ['width 1', 'lane', 1, '…', '…'],
    ['width 0', 'lane', 0, '', ''],
    ['negative width', 'lane', -3, '', ''],
    ['empty text', '', 3, '', '   '],
    ['wide characters count as one', '██████', 4, '███…', '███…'],
    ['a surrogate pair is one character', '👍👍👍ab', 4, '👍👍👍…', '👍👍👍…'],
    ['a surrogate pair that fits', 'a👍', 3, 'a👍', 'a👍 '],
    ['never half a surrogate pair', 'ab👍cd', 3, 'ab…', 'ab…'],
  ])('%s', (_name, text, width, cutText, fitText) => {
    expect(cut(text, width)).toBe(cutText);
    expect(fit(text, width)).toBe(fitText);
  });
});

describe('contextBar', () => {
  it.each<[string, number | null, number, string]>([
    ['no reading', null, 6, '░░░░░░    -'],
    ['0%', 0, 6, '░░░░░░   0%'],
    ['41%', 41, 6, '██░░░░  41%'],
    ['50%', 50, 6, '███░░░  50%'],
    ['100%', 100, 6, '██████ 100%'],
    ['over 100 is shown as 100', 140, 6, '██████ 100%'],
    ['below 0 is shown as 0', -5, 6, '░░░░░░   0%'],
    ['not a number', Number.NaN, 6, '░░░░░░    -'],
    ['a fraction rounds', 66.6, 3, '██░  67%'],
    ['no cells', 41, 0, '  41%'],
  ])('%s', (_name, pct, cells, expected) => {
    expect(contextBar(pct, cells)).toBe(expected);
  });
});

describe('lane cells', () => {
  it('state: the blocked class is part of it', () => {
    expect(stateText(lane('a').lane)).toBe('working');
    expect(stateText(lane('a', { state: 'blocked', blocked: { class: 'login', what: 'log in', source: 'screen' } }).lane)).toBe('blocked login');
    expect(stateText(lane('a', { state: 'blocked', blocked: null }).lane)).toBe('blocked');
  });

  it.each<[Phase | null, number | null, string]>([
    [null, null, '-'],
    ['near', NOW - 5_000, 'near 5s'],
    ['writing', NOW - 59_000, 'writing 59s'],
    ['reported', NOW, 'reported 0s'],
    ['spawning', NOW - 61_000, 'spawning 1m'],
    ['accepted', NOW - 12_000, 'accepted 12s'],
    ['rejected', NOW - 3_600_000, 'rejected 1h00m'],
    ['waiting', NOW - 3_725_000, 'waiting 1h02m'],
    ['degraded', NOW - 1_000, 'degraded 1s'],
    ['attention', NOW - 600_000, 'attention 10m'],
    ['stopped', null, 'stopped 0s'],
  ])('phase %s → %s', (phase, since, expected) => {
    expect(phaseText(lane('a', { phase, phaseSince: since }).lane, NOW)).toBe(expected);
  });

  it.each<[string, Parameters<typeof lane>[1], string]>([
    ['a live lane counts on', { phase: 'accepted', phaseSince: NOW - 300_000 }, 'accepted 5m'],
    ['a lost lane counts on (it is not over)', { state: 'lost', phase: 'degraded', phaseSince: NOW - 300_000 }, 'degraded 5m'],
    ['a done lane shows the age its phase had when it ended', { state: 'done', phase: 'accepted', phaseSince: NOW - 300_000, endedAt: NOW - 288_000 }, 'accepted 12s'],
    ['a stopped lane: its phase began as it ended, no age', { state: 'stopped', phase: 'stopped', phaseSince: NOW - 300_000, endedAt: NOW - 300_000 }, 'stopped'],
    ['a done lane from an older state file (no end recorded): no age', { state: 'done', phase: 'accepted', phaseSince: NOW - 300_000 }, 'accepted'],
    ['a done lane that never handed off', { state: 'done', phase: null, phaseSince: null, endedAt: NOW - 5_000 }, '-'],
  ])('phase age: %s', (_name, patch, expected) => {
    const shown = lane('a', patch).lane;
    expect(phaseText(shown, NOW)).toBe(expected);
    if (shown.state === 'done' || shown.state === 'stopped') expect(phaseText(shown, NOW + 3_600_000)).toBe(expected); // an hour on: the same
  });

  it('a lane resuming its own session (SPEC 10.8): its phase and last column say so, starting then waiting for it', () => {
    const resuming = { sessionId: 'sess-1', account: 'c1', since: NOW - 4_000, paneId: null, spawnedAt: null, readyBy: NOW + 56_000 };
    const starting = lane('a', { resuming }).lane;
    expect(phaseText(starting, NOW)).toBe('resuming 4s');
    expect(lastText(starting)).toBe('resuming its session sess-1 @c1: starting');
    const made = lane('a', { resuming: { ...resuming, paneId: '%7', spawnedAt: NOW - 3_000 } }).lane;
    expect(lastText(made)).toBe('resuming its session sess-1 @c1: waiting for it to be ready');
    // A uuid is cut to its first group, so the account fits the column (the journal has it whole).
    const uuid = lane('a', { resuming: { ...resuming, sessionId: '1f28ef37-e841-418d-9115-b59a8090e77d' } }).lane;
    expect(lastText(uuid)).toBe('resuming its session 1f28ef37… @c1: starting');
    expect(phaseText(lane('a', { resuming: null }).lane, NOW)).toBe('-');
  });

  it('account and vendor', () => {
    expect(accountText(lane('a'))).toBe('o1/openai');
    expect(accountText(lane('a', {}, null))).toBe('o1');
    expect(accountText(lane('a', { account: null }, null))).toBe('-');
    expect(accountText(lane('a', { account: null }, 'openai'))).toBe('-');
    // The account's forecast (SPEC 10.7) beside it.
    expect(accountText({ ...lane('a'), left: '~40m left' })).toBe('o1/openai ~40m left');
    expect(accountText({ ...lane('a'), left: null })).toBe('o1/openai');
  });

  it.each([
    ['the last report, flattened', lane('a', { last: 'PR open http://x\r\n' }), 'PR open http://x'],
    ['nothing reported yet', lane('a'), ''],
    ['why a blocked lane is held', lane('a', { state: 'blocked', blocked: { class: 'permission', what: 'Bash: proceed?\n1. Yes', source: 'screen' }, last: 'plan ready' }), 'Bash: proceed? 1. Yes'],
    ['the reasons of a rejected packet', lane('a', {
      phase: 'rejected', last: 'handoff x',
      handoff: { packet: '/p.yaml', reason: 'capacity_critical', degraded: false, from: { generation: 1, account: 'o1', paneId: '%3' }, successor: null, tried: [], rejected: ['mode 0644, not 0600', 'missing next'], picks: 0, retryAt: null, accountLimited: false },
    }), 'rejected: mode 0644, not 0600; missing next'],
    ['the account it waits for, held by another swarm (SPEC 10.4)', lane('a', { phase: 'waiting', last: 'handoff x', waitingForAccount: { why: 'w1 is held by plan /p, lane-x g2', since: 0 } }), 'waiting for an account: w1 is held by plan /p, lane-x g2'],
    ['its reviewer in flight (SPEC 10.6)', lane('a', { last: 'in review (round 2)', review: { round: 2, seq: 3, reviewer: { seq: 3, account: 'c2', paneId: '%4', since: 0 }, tried: [], picks: 1, deadline: 1 } }), 'in review (round 2): a.review g3 @c2'],
    ['its reviewer starting', lane('a', { review: { round: 1, seq: 1, reviewer: { seq: 1, account: 'c2', paneId: null, since: 0 }, tried: [], picks: 1, deadline: 1 } }), 'in review (round 1): a.review g1 @c2 starting'],
    ['a reviewer being picked', lane('a', { review: { round: 1, seq: 0, reviewer: null, tried: [], picks: 0, deadline: null } }), 'in review (round 1): picking a reviewer of another vendor'],
  ])('last: %s', (_name, view, expected) => {
    expect(lastText(view.lane)).toBe(expected);
  });
});

describe('when the clock must draw again', () => {
  it.each([
    ['at 0: "0s" until 0.5 s', 0, 500],
    ['before the start: "0s" until 0.5 s', -3_000, 3_500],
    ['at 12.2 s: "12s" until 12.5 s', 12_200, 300],
    ['at 59.4 s: "59s" until 59.5 s, then "1m"', 59_400, 100],
    ['at 59.6 s: "1m" until 119.5 s', 59_600, 59_900],
    ['at 1h02m: the next minute', 3_725_000, 54_500],
    ['at 0.5 s: "1s" until 1.5 s', 500, 1_000],
  ])('%s', (_name, ms, expected) => {
    expect(ageChangesIn(ms)).toBe(expected);
  });

  it('a done or stopped lane\'s age never wakes the clock: it stopped counting', () => {
    const ended = [
      lane('d', { state: 'done', phase: 'accepted', phaseSince: NOW - 12_200, endedAt: NOW - 2_000 }),
      lane('s', { state: 'stopped', phase: 'stopped', phaseSince: NOW - 1_200, endedAt: NOW - 1_200 }),
    ];
    expect(clockDue({ startedAt: NOW - 600_000, lanes: ended }, NOW)).toBe(59_500);
    expect(clockDue({ startedAt: NOW - 600_000, lanes: [...ended, lane('w', { phase: 'near', phaseSince: NOW - 12_200 })] }, NOW)).toBe(300);
  });

  it('the soonest of the uptime and every phase age; a lane without a phase has no age', () => {
    const lanes = [lane('a'), lane('b', { phase: 'accepted', phaseSince: NOW - 70_000 }), lane('c', { phase: 'near', phaseSince: null })];
    expect(clockDue({ startedAt: NOW - 600_000, lanes }, NOW)).toBe(49_500);
    expect(clockDue({ startedAt: NOW - 5_200, lanes }, NOW)).toBe(300);
    expect(clockDue({ startedAt: NOW - 600_000, lanes: [] }, NOW)).toBe(59_500);
  });
});

describe('header parts', () => {
  it.each([
    ['no lanes', [], '0 lanes'],
    ['one lane', [lane('a')], '1 lane: 1 working'],
    ['states in a fixed order', [lane('a', { state: 'done' }), lane('b', { state: 'blocked' }), lane('c'), lane('d', { state: 'starting' }), lane('e')], '5 lanes: 1 starting · 2 working · 1 blocked · 1 done'],
    ['lost and stopped', [lane('a', { state: 'lost' }), lane('b', { state: 'stopped' })], '2 lanes: 1 lost · 1 stopped'],
  ])('counts: %s', (_name, lanes, expected) => {
    expect(laneCounts(lanes)).toBe(expected);
  });

  it.each([
    ['/repo/plans/demo', 'plans/demo'],
    ['/repo/plans/demo/', 'plans/demo'],
    ['plans', 'plans'],
    ['', ''],
  ])('plan %j → %j', (plan, expected) => {
    expect(planName(plan)).toBe(expected);
  });

  it('uptime', () => {
    expect(uptime(NOW - 125_000, NOW)).toBe('2m');
    expect(uptime(NOW + 5_000, NOW)).toBe('0s');
  });

  it('capacity tones: ok green, low yellow, critical red, unknown grey', () => {
    expect(CAPACITY_TONE).toEqual({ ok: 'green', low: 'yellow', critical: 'red', unknown: 'gray' });
  });
});
