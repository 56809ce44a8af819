import { describe, expect, it } from 'vitest';
import {
  DECIDE_AND_RECORD,
  ESCALATION_CLASSES,
  formatCapacityLine,
  isAnswer,
  isAsk,
  parseCapacityLine,
  parseReport,
  stripAnsi,
  type CapacityLine,
  type ReportEvent,
} from '../../../src/core/protocol/protocol.js';

const ESC = '\x1b';
const MISSING: CapacityLine = { state: 'unknown', pct: null, account: null, contextPct: null, raw: '' };
const cap = (state: CapacityLine['state'], pct: number | null, account: string | null, contextPct: number | null, raw: string): CapacityLine =>
  ({ state, pct, account, contextPct, raw });

describe('stripAnsi', () => {
  it.each([
    ['plain text', 'done', 'done'],
    ['empty', '', ''],
    ['CSI colour', `${ESC}[1;31mdone${ESC}[0m`, 'done'],
    ['CSI cursor', `a${ESC}[2Kb${ESC}[10;20Hc`, 'abc'],
    ['CSI private mode', `${ESC}[?25ldone${ESC}[?25h`, 'done'],
    ['8-bit CSI', '\x9b31mdone', 'done'],
    ['OSC ended by BEL', `${ESC}]0;title\x07done`, 'done'],
    ['OSC ended by ST', `${ESC}]8;;https://x${ESC}\\link${ESC}]8;;${ESC}\\`, 'link'],
    ['DCS ended by ST', `${ESC}Pq#0${ESC}\\done`, 'done'],
    ['charset ESC (', `${ESC}(Bdone`, 'done'],
    ['keypad ESC =', `${ESC}=done${ESC}>`, 'done'],
    ['lone ESC at the end', `done${ESC}`, 'done'],
    ['unterminated OSC keeps its text', `${ESC}]0;title`, '0;title'],
    ['stray C0 and DEL', 'd\x00o\x07n\x08e\x7f', 'done'],
    ['CR removed', 'done\r', 'done'],
    ['newline and tab kept', 'a\n\tb', 'a\n\tb'],
    ['unicode kept', 'é — ✓', 'é — ✓'],
  ])('%s', (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });
});

describe('parseCapacityLine', () => {
  it.each([
    ['full', 'capacity=low 22% @work2 context=41%', cap('low', 22, 'work2', 41, 'capacity=low 22% @work2 context=41%')],
    ['no context', 'capacity=ok 64% @work1', cap('ok', 64, 'work1', null, 'capacity=ok 64% @work1')],
    ['no pct', 'capacity=critical @work1', cap('critical', null, 'work1', null, 'capacity=critical @work1')],
    ['no account', 'capacity=ok 64%', cap('ok', 64, null, null, 'capacity=ok 64%')],
    ['state only', 'capacity=ok', cap('ok', null, null, null, 'capacity=ok')],
    ['context without account', 'capacity=ok 50% context=10%', cap('ok', 50, null, 10, 'capacity=ok 50% context=10%')],
    ['decimal pct', 'capacity=low 22.5% @w context=40.25%', cap('low', 22.5, 'w', 40.25, 'capacity=low 22.5% @w context=40.25%')],
    ['leading-dot decimal', 'capacity=critical .5% @w', cap('critical', 0.5, 'w', null, 'capacity=critical .5% @w')],
    ['0 and 100', 'capacity=ok 100% @w context=0%', cap('ok', 100, 'w', 0, 'capacity=ok 100% @w context=0%')],
    ['upper case', 'CAPACITY=LOW 20% @Work2 CONTEXT=5%', cap('low', 20, 'Work2', 5, 'CAPACITY=LOW 20% @Work2 CONTEXT=5%')],
    ['spaces and tabs', '  capacity=ok\t64%   @work1  ', cap('ok', 64, 'work1', null, 'capacity=ok\t64%   @work1')],
    ['CRLF', 'capacity=ok 64% @work1\r\n', cap('ok', 64, 'work1', null, 'capacity=ok 64% @work1')],
    ['ANSI', `${ESC}[2mcapacity=ok 64% @work1${ESC}[0m`, cap('ok', 64, 'work1', null, 'capacity=ok 64% @work1')],
    ['unknown drops its pct', 'capacity=unknown 40% @w', cap('unknown', null, 'w', null, 'capacity=unknown 40% @w')],
    ['unknown bare', 'capacity=unknown', cap('unknown', null, null, null, 'capacity=unknown')],
  ])('%s', (_name, line, expected) => {
    expect(parseCapacityLine(line)).toEqual(expected);
  });

  it.each([
    ['empty', ''],
    ['whitespace only', '  \t '],
    ['other text', 'done'],
    ['capacity word without =', 'capacity ok 5%'],
    ['capacity= not at the start', 'done capacity=ok 5% @w'],
  ])('not a capacity line: %s', (_name, line) => {
    expect(parseCapacityLine(line)).toBeNull();
  });

  const example = 'e.g. capacity=low 22% @work2 context=41%';
  it.each([
    ['pct over 100', 'capacity=ok 140% @w', `capacity 140% is out of range in "capacity=ok 140% @w": send a percentage from 0 to 100, ${example}`],
    ['pct 100.5', 'capacity=ok 100.5% @w', `capacity 100.5% is out of range in "capacity=ok 100.5% @w": send a percentage from 0 to 100, ${example}`],
    ['negative pct', 'capacity=low -5% @w', `capacity -5% is out of range in "capacity=low -5% @w": send a percentage from 0 to 100, ${example}`],
    ['context over 100', 'capacity=ok 5% @w context=101%', `context 101% is out of range in "capacity=ok 5% @w context=101%": send a percentage from 0 to 100, ${example}`],
    ['unknown with pct over 100', 'capacity=unknown 140%', `capacity 140% is out of range in "capacity=unknown 140%": send a percentage from 0 to 100, ${example}`],
    ['unknown state', 'capacity=great 50% @w', `unknown capacity state "great": send one of ok, low, critical, unknown, ${example}`],
    ['empty state', 'capacity= 50%', `unknown capacity state "": send one of ok, low, critical, unknown, ${example}`],
    ['pct without %', 'capacity=ok 64 @w', `capacity line "capacity=ok 64 @w" is not understood: send capacity=<ok|low|critical|unknown> [<pct>%] @<account> [context=<pct>%], ${example}`],
    ['trailing words', 'capacity=ok 64% @w thanks', `capacity line "capacity=ok 64% @w thanks" is not understood: send capacity=<ok|low|critical|unknown> [<pct>%] @<account> [context=<pct>%], ${example}`],
    ['fields out of order', 'capacity=ok @w 64%', `capacity line "capacity=ok @w 64%" is not understood: send capacity=<ok|low|critical|unknown> [<pct>%] @<account> [context=<pct>%], ${example}`],
  ])('error: %s', (_name, line, error) => {
    expect(parseCapacityLine(line)).toEqual({ error });
  });
});

describe('formatCapacityLine', () => {
  it.each([
    [{ state: 'low', pct: 22, account: 'work2', contextPct: 41 }, 'capacity=low 22% @work2 context=41%'],
    [{ state: 'ok', pct: 64, account: 'work1', contextPct: null }, 'capacity=ok 64% @work1'],
    [{ state: 'critical', pct: 8.5, account: 'w', contextPct: null }, 'capacity=critical 8.5% @w'],
    [{ state: 'unknown', pct: null, account: 'w', contextPct: null }, 'capacity=unknown @w'],
    [{ state: 'unknown', pct: 40, account: null, contextPct: 3 }, 'capacity=unknown context=3%'],
    [{ state: 'ok', pct: null, account: null, contextPct: null }, 'capacity=ok'],
  ] as const)('%j → %s', (input, expected) => {
    expect(formatCapacityLine(input)).toBe(expected);
  });

  it('round-trips through parseCapacityLine', () => {
    const line = formatCapacityLine({ state: 'low', pct: 22.5, account: 'work2', contextPct: 41 });
    expect(parseCapacityLine(line)).toEqual(cap('low', 22.5, 'work2', 41, line));
  });
});

describe('parseReport: events', () => {
  const C = 'capacity=ok 64% @work1';
  const okCap = cap('ok', 64, 'work1', null, C);
  it.each<[string, string, ReportEvent]>([
    ['plan ready', `plan ready\n${C}`, { kind: 'plan_ready' }],
    ['PLAN READY upper case', `PLAN READY\n${C}`, { kind: 'plan_ready' }],
    ['plan  ready extra spaces', `plan   ready\n${C}`, { kind: 'plan_ready' }],
    ['done', `done\n${C}`, { kind: 'done' }],
    ['Done capitalised', `Done\n${C}`, { kind: 'done' }],
    ['done with capacity on the first line', `done ${C}`, { kind: 'done' }],
    ['done with middle lines', `done\nall tests pass\n${C}`, { kind: 'done' }],
    ['PR open keeps # and ?', `PR open https://github.com/o/r/pull/7?x=1&y=2#issuecomment-9\n${C}`,
      { kind: 'pr_open', url: 'https://github.com/o/r/pull/7?x=1&y=2#issuecomment-9' }],
    ['pr open lower case, first line capacity', `pr open https://x/pull/1 ${C}`, { kind: 'pr_open', url: 'https://x/pull/1' }],
    ['PR open URL then words', `PR open https://x/pull/1 steps 1-3\n${C}`, { kind: 'pr_open', url: 'https://x/pull/1' }],
    ['PR open URL containing capacity=', `PR open https://x/?capacity=ok\n${C}`, { kind: 'pr_open', url: 'https://x/?capacity=ok' }],
    ['handoff', `handoff plans/demo/analysis_results/handoff/lane-a-g1.yaml\n${C}`,
      { kind: 'handoff', path: 'plans/demo/analysis_results/handoff/lane-a-g1.yaml' }],
    ['Handoff capitalised, capacity on first line', `Handoff /abs/x.yaml ${C}`, { kind: 'handoff', path: '/abs/x.yaml' }],
    ['blocked known class', `blocked permission needs sudo for apt\n${C}`,
      { kind: 'blocked', class: 'permission', rawClass: 'permission', what: 'needs sudo for apt' }],
    ['BLOCKED LOGIN upper case', `BLOCKED LOGIN gh auth\n${C}`, { kind: 'blocked', class: 'login', rawClass: 'LOGIN', what: 'gh auth' }],
    ['blocked class with colon', `blocked decision: which DB?\n${C}`, { kind: 'blocked', class: 'decision', rawClass: 'decision:', what: 'which DB?' }],
    ['blocked class without what', `blocked payment\n${C}`, { kind: 'blocked', class: 'payment', rawClass: 'payment', what: '' }],
    ['blocked stalled', `blocked stalled\n${C}`, { kind: 'blocked', class: 'stalled', rawClass: 'stalled', what: '' }],
    ['blocked with middle lines', `blocked dependency needs\nredis 7\nand a port\n${C}`,
      { kind: 'blocked', class: 'dependency', rawClass: 'dependency', what: 'needs\nredis 7\nand a port' }],
    ['blocked unknown class', `blocked tabs or spaces?\n${C}`, { kind: 'blocked', class: null, rawClass: 'tabs', what: 'tabs or spaces?' }],
    ['blocked alone', `blocked\n${C}`, { kind: 'blocked', class: null, rawClass: '', what: '' }],
    ['blocked alone, first-line capacity', `blocked ${C}`, { kind: 'blocked', class: null, rawClass: '', what: '' }],
  ])('%s', (_name, text, event) => {
    const r = parseReport(text);
    expect(r).toEqual({ ok: true, report: { event, capacity: okCap, text } });
  });

  it.each([
    ['done with more words', `done mostly\n${C}`],
    ['done then words then capacity', `done, mostly ${C}`],
    ['plan ready now', `plan ready now\n${C}`],
    ['plan alone', `plan\n${C}`],
    ['free text', `hello lead, how is it going?\n${C}`],
    ['handoffs word', `handoffs are hard\n${C}`],
    ['PR opened', `PR opened https://x\n${C}`],
    ['blockedness', `blockedness\n${C}`],
    ['keyword on the second line only', `note first\ndone\n${C}`],
  ])('note: %s', (_name, text) => {
    expect(parseReport(text)).toEqual({ ok: true, report: { event: { kind: 'note', text }, capacity: okCap, text } });
  });
});

describe('parseReport: capacity placement and cleaning', () => {
  it.each<[string, string, string, CapacityLine, ReportEvent]>([
    ['no capacity line', 'done', 'done', MISSING, { kind: 'done' }],
    ['first-line capacity without account', 'done capacity=low 20%', 'done capacity=low 20%', cap('low', 20, null, null, 'capacity=low 20%'), { kind: 'done' }],
    ['last line wins over a mid-line mention', 'note: set capacity=foo\ncapacity=ok 5% @w', 'note: set capacity=foo\ncapacity=ok 5% @w',
      cap('ok', 5, 'w', null, 'capacity=ok 5% @w'), { kind: 'note', text: 'note: set capacity=foo\ncapacity=ok 5% @w' }],
    ['mention of capacity= in a note is text', 'I set capacity=foo in the file', 'I set capacity=foo in the file', MISSING,
      { kind: 'note', text: 'I set capacity=foo in the file' }],
    ['last of two first-line segments', 'blocked decision capacity=ok or low? capacity=low 20% @w', 'blocked decision capacity=ok or low? capacity=low 20% @w',
      cap('low', 20, 'w', null, 'capacity=low 20% @w'), { kind: 'blocked', class: 'decision', rawClass: 'decision', what: 'capacity=ok or low?' }],
    ['trailing spaces everywhere', '  done   \n  capacity=ok 64% @work1   ', 'done   \n  capacity=ok 64% @work1',
      cap('ok', 64, 'work1', null, 'capacity=ok 64% @work1'), { kind: 'done' }],
    ['CRLF', 'done\r\ncapacity=critical 8% @work2\r\n', 'done\ncapacity=critical 8% @work2',
      cap('critical', 8, 'work2', null, 'capacity=critical 8% @work2'), { kind: 'done' }],
    ['blank lines between', 'done\n\n\ncapacity=ok 1% @w\n\n', 'done\n\n\ncapacity=ok 1% @w', cap('ok', 1, 'w', null, 'capacity=ok 1% @w'), { kind: 'done' }],
    ['ANSI everywhere', `${ESC}[32mhandoff${ESC}[0m /p/x.yaml\n${ESC}[1mcapacity=critical 8% @work2 context=70%${ESC}[0m`,
      'handoff /p/x.yaml\ncapacity=critical 8% @work2 context=70%', cap('critical', 8, 'work2', 70, 'capacity=critical 8% @work2 context=70%'),
      { kind: 'handoff', path: '/p/x.yaml' }],
    ['capacity first, message second', 'capacity=ok 5% @w\ndone', 'capacity=ok 5% @w\ndone', cap('ok', 5, 'w', null, 'capacity=ok 5% @w'),
      { kind: 'note', text: 'capacity=ok 5% @w\ndone' }],
    ['bare capacity line', 'capacity=ok 5% @w', 'capacity=ok 5% @w', cap('ok', 5, 'w', null, 'capacity=ok 5% @w'),
      { kind: 'note', text: 'capacity=ok 5% @w' }],
    ['unknown with pct stays unknown', 'done\ncapacity=unknown 50% @w', 'done\ncapacity=unknown 50% @w',
      cap('unknown', null, 'w', null, 'capacity=unknown 50% @w'), { kind: 'done' }],
  ])('%s', (_name, input, text, capacity, event) => {
    expect(parseReport(input)).toEqual({ ok: true, report: { event, capacity, text } });
  });
});

describe('parseReport: errors', () => {
  const empty = 'empty report: send one of plan ready | PR open <url> | blocked <class> <what> | handoff <packet path> | done, ' +
    'then capacity=<ok|low|critical|unknown> [<pct>%] @<account> [context=<pct>%]';
  const range = (what: string, v: string, line: string): string =>
    `${what} ${v}% is out of range in "${line}": send a percentage from 0 to 100, e.g. capacity=low 22% @work2 context=41%`;
  it.each([
    ['empty', '', empty],
    ['whitespace only', '  \n\t \r\n ', empty],
    ['ANSI only', `${ESC}[0m${ESC}[2K`, empty],
    ['handoff without path', 'handoff\ncapacity=critical 5% @w', 'handoff needs the packet path: send "handoff <packet path>"'],
    ['handoff without path, first-line capacity', 'HANDOFF capacity=critical 5% @w', 'handoff needs the packet path: send "handoff <packet path>"'],
    ['PR open without URL', 'PR open\ncapacity=ok 5% @w', 'PR open needs the URL: send "PR open <url>"'],
    ['pct over 100 on the last line', 'done\ncapacity=ok 140% @w', range('capacity', '140', 'capacity=ok 140% @w')],
    ['pct over 100 on the first line', 'done capacity=ok 140% @w', range('capacity', '140', 'capacity=ok 140% @w')],
    ['context over 100', 'done\ncapacity=ok 40% @w context=120%', range('context', '120', 'capacity=ok 40% @w context=120%')],
    ['bad first-line segment beside a good last line', 'done capacity=ok 140% @w\ncapacity=ok 4% @w', range('capacity', '140', 'capacity=ok 140% @w')],
    ['malformed last line', 'done\ncapacity=fine', 'unknown capacity state "fine": send one of ok, low, critical, unknown, e.g. capacity=low 22% @work2 context=41%'],
    ['malformed bare capacity line', 'capacity=fine 5% @w', 'unknown capacity state "fine": send one of ok, low, critical, unknown, e.g. capacity=low 22% @work2 context=41%'],
  ])('%s', (_name, text, error) => {
    expect(parseReport(text)).toEqual({ ok: false, error });
  });
});

describe('DECIDE_AND_RECORD', () => {
  it('says it is a decision for the lane to make and record, naming every known class', () => {
    expect(DECIDE_AND_RECORD).toBe(
      'swarm: this is not an escalation — your "blocked" names no known class (permission, login, consent, payment, ' +
        'irreversible, decision, dependency, stalled). It is a decision for you to make: choose, record it (option, ' +
        'choice, why, undo) in your packet\'s decisions and the plan, and carry on. To escalate, send ' +
        '"blocked <class> <what it needs>" with one of those classes.',
    );
    for (const c of ESCALATION_CLASSES) expect(DECIDE_AND_RECORD).toContain(c);
  });
});

describe('isAsk / isAnswer', () => {
  it.each([
    ['ask which port?', true, false],
    ['  ASK which port?  ', true, false],
    ['Ask\twhich port?', true, false],
    ['ask\r\nwhich port?', true, false],
    [`${ESC}[1mask${ESC}[0m which port?`, true, false],
    ['answer 5432', false, true],
    ['  ANSWER 5432', false, true],
    ['answer\n5432', false, true],
    ['ask', false, false],
    ['answer', false, false],
    ['asking around', false, false],
    ['answered', false, false],
    ['please ask me', false, false],
    ['', false, false],
    ['   ', false, false],
  ])('%j → ask %s, answer %s', (text, ask, answer) => {
    expect(isAsk(text)).toBe(ask);
    expect(isAnswer(text)).toBe(answer);
  });
});
