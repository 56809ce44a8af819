import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKind, type KindSpec } from '../../../src/core/config/kindFile.js';
import type { ScreenClass } from '../../../src/machine/types.js';
import { contextLeft, isIdle, LAST_LINES, lastWords, matchScreen, screenLines, SCREENFUL } from '../../../src/core/screens/screens.js';

const ESC = '\x1b';

function kindOf(text: string): KindSpec {
  const result = parseKind(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.kind;
}
const KINDS: Record<string, KindSpec> = Object.fromEntries(['claude', 'codex', 'gemini', 'sim', 'command'].map((name) =>
  [name, kindOf(readFileSync(new URL(`../../../panes/${name}.yaml`, import.meta.url), 'utf8'))]));
const kind = (name: string): KindSpec => KINDS[name] ?? kindOf('kind: missing\n');
const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/screens/${name}.txt`, import.meta.url), 'utf8');

/** [fixture, screen, the text matched, idle, context left]. Fixtures live in tests/fixtures/screens/<kind>/. */
const FIXTURES: [string, ScreenClass | null, string | null, boolean, number | null][] = [
  ['claude/idle', null, null, true, null],
  ['claude/busy', null, null, false, null],
  ['claude/busy-crlf', null, null, false, null],
  ['claude/busy-statusline', null, null, false, null],
  ['claude/idle-statusline', null, null, true, null],
  ['claude/idle-context-low', null, null, true, 8],
  ['claude/idle-auto-compact', null, null, true, 12],
  ['claude/idle-near-limit', null, null, true, null],
  ['claude/usage-limit', 'usage_limit', "⎿ You've hit your session limit · resets 3:45pm", false, null],
  ['claude/usage-limit-weekly-ansi', 'usage_limit', "⎿ You've hit your weekly limit · resets Mon 9:00am", false, null],
  ['claude/usage-limit-5h', 'usage_limit', '⎿ 5-hour limit reached ∙ resets 3pm', false, null],
  ['claude/usage-limit-legacy', 'usage_limit', '⎿ Claude AI usage limit reached|1750003200', false, null],
  ['claude/permission-bash', 'permission', 'Do you want to proceed?', false, null],
  ['claude/permission-edit-ansi', 'permission', 'Do you want to make this edit to checkout.ts?', false, null],
  ['claude/permission-narrow', 'permission', 'Do you want to proceed?', false, null],
  // Seen in 2.1.197 against the mock API (issue 14): no "No, and tell Claude…" line any more.
  ['claude/permission-requires-approval', 'permission', 'Do you want to proceed?', false, null],
  ['claude/usage-limit-menu', 'usage_limit', "⎿ You've hit your session limit · resets 1:31pm (UTC)", false, null],
  ['claude/trust', 'consent', 'Quick safety check: Is this a project you created or one you trust? (Like your own code, a', false, null],
  ['claude/bypass', 'bypass', 'WARNING: Claude Code running in Bypass Permissions mode', false, null],
  ['claude/login-select', 'login', 'Select login method:', false, null],
  ['claude/login-expired', 'login', '⎿ API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired. Please obtain a new token or refresh your existing token."}} · Please run /login', false, null],
  ['claude/not-logged-in', 'login', 'Not logged in · Please run /login', false, null],
  ['claude/payment', 'payment', '⎿ Credit balance is too low', false, null],
  ['claude/overflow-context-limit', 'overflow', 'Context limit reached · /compact or /clear to continue', false, null],
  ['claude/overflow-prompt-too-long', 'overflow', '⎿ Prompt is too long', false, null],
  ['claude/old-usage-scrolled', null, null, true, null],
  ['claude/offline', null, null, false, null],
  ['codex/idle', null, null, true, null],
  ['codex/idle-ansi', null, null, true, null],
  ['codex/idle-context', null, null, true, 72],
  ['codex/busy', null, null, false, null],
  ['codex/busy-ansi', null, null, false, null],
  ['codex/streaming', null, null, false, null],
  ['codex/signin', 'login', '> 1. Sign in with ChatGPT', false, null],
  ['codex/signin-ansi', 'login', '> 1. Sign in with ChatGPT', false, null],
  ['codex/trust', 'consent', 'Trust this folder? Codex can read, edit, and run files here, subject to your permission settings. Folder settings', false, null],
  ['codex/trust-ansi', 'consent', 'Trust this folder? Codex can read, edit, and run files here, subject to your permission settings. Folder settings', false, null],
  ['codex/approval-command', 'permission', 'Would you like to run the following command?', false, null],
  ['codex/approval-edits-crlf', 'permission', 'Would you like to make the following edits?', false, null],
  ['codex/usage-limit', 'usage_limit', "■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 3:28 PM.", false, null],
  ['codex/quota', 'usage_limit', '■ Quota exceeded. Check your plan and billing details.', false, null],
  ['codex/overflow', 'overflow', "■ Codex ran out of room in the model's context window. Start a new thread or clear earlier history", false, null],
  // Seen in 0.171.0 against the mock Responses API (tests/real/codexMock.test.ts, DUMP=<folder>).
  ['codex/idle-after-command', null, null, true, null],
  ['codex/idle-near-limit', null, null, true, null],
  ['codex/usage-limit-0171', 'usage_limit', "■ You've hit your usage limit. Visit https://chatgpt.com/settings/usage to purchase more credits or try again at 1:13 PM.", false, null],
  ['codex/usage-limit-menu', 'usage_limit', "■ You've hit your usage limit. Visit https://chatgpt.com/settings/usage to purchase more credits or try again at 1:09 PM.", false, null],
  ['codex/approval-escalated', 'permission', 'Would you like to run the following command?', false, null],
  ['gemini/usage-limit', 'usage_limit', '✕ [API Error: You have exhausted your capacity on this model. Your quota will reset after 2h13m5s.]', false, null],
  ['gemini/resource-exhausted', 'usage_limit', '✕ [API Error: {"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]', false, null],
  ['gemini/busy', null, null, false, null],
  ['sim/usage-limit', 'usage_limit', "[sim] You've hit your session limit · resets 3:45pm", false, null],
  ['sim/permission', 'permission', '[sim] Do you want to proceed?', false, null],
  ['sim/busy', null, null, false, null],
  ['sim/idle', null, null, true, 9],
  ['sim/claude-wording', null, null, true, null],
  ['command/overflow', 'overflow', 'Error: prompt is too long: 215000 tokens > 200000 maximum', false, null],
  ['command/plain', null, null, false, null],
];

const kindFor = (name: string): KindSpec => kind(name.split('/')[0] ?? '');

describe('fixture screens', () => {
  it.each(FIXTURES)('%s → %s', (name, screen, text) => {
    const match = matchScreen(kindFor(name), fixture(name));
    expect(match).toEqual(screen === null ? null : { screen, text });
  });

  it.each(FIXTURES)('%s: idle is %s', (name, _screen, _text, idle) => {
    expect(isIdle(kindFor(name), fixture(name))).toBe(idle);
  });

  it.each(FIXTURES)('%s: context left %s', (name, _screen, _text, _idle, left) => {
    expect(contextLeft(kindFor(name), fixture(name))).toBe(left);
  });

  const variants: [string, (text: string) => string][] = [
    ['CRLF', (text) => text.replace(/\r?\n/g, '\r\n')],
    ['each line coloured', (text) => text.split('\n').map((line) => `${ESC}[1;33m${line}${ESC}[0m`).join('\n')],
    ['trailing spaces', (text) => text.replace(/\r?\n/g, '    \n')],
    ['upper case', (text) => text.toUpperCase()],
    ['lines cleared and cursor moved', (text) => text.split('\n').map((line) => `${ESC}[2K${ESC}[1G${line}`).join('\n')],
  ];
  const cases = variants.flatMap(([variant, change]) => FIXTURES.map(([name, screen, , idle]) => [variant, name, screen, idle, change] as const));

  it.each(cases)('%s: %s still → %s, idle %s', (_variant, name, screen, idle, change) => {
    const text = change(fixture(name));
    expect(matchScreen(kindFor(name), text)?.screen ?? null).toBe(screen);
    expect(isIdle(kindFor(name), text)).toBe(idle);
  });
});

describe('the last screenful only', () => {
  const usage = "  ⎿  You've hit your session limit · resets 3:45pm\n";
  const lines = (n: number): string => Array.from({ length: n }, (_, i) => `  ⎿  test ${i} passed\n`).join('');

  it.each([
    ['still on screen (39 lines below it)', SCREENFUL - 1, '\n', 'usage_limit'],
    ['still on screen (39 lines below it, blank lines between)', SCREENFUL - 1, '\n\n\n', 'usage_limit'],
    ['just scrolled off (40 lines below it)', SCREENFUL, '\n', null],
  ])('a usage message %s', (_name, below, gap, screen) => {
    const tail = `${usage}${lines(below).replace(/\n/g, gap)}`;
    expect(matchScreen(kind('claude'), tail)?.screen ?? null).toBe(screen);
  });

  it('a usage message far above a fresh prompt does not match, and the prompt is idle', () => {
    const tail = `${usage}${lines(500)}${fixture('claude/idle')}`;
    expect(matchScreen(kind('claude'), tail)).toBeNull();
    expect(isIdle(kind('claude'), tail)).toBe(true);
  });

  it('blank and border-only lines do not count as lines', () => {
    const borders = '╭────────╮\n│        │\n╰────────╯\n   \n'.repeat(30);
    expect(matchScreen(kind('claude'), `${usage}${borders}`)?.screen).toBe('usage_limit');
  });

  it.each([
    ['empty', ''],
    ['whitespace only', ' \n\t\n   \r\n'],
    ['escape codes only', `${ESC}[2J${ESC}[H${ESC}[?25l`],
    ['borders only', '╭──╮\n│  │\n╰──╯\n'],
  ])('%s: no screen, not idle, no context reading', (_name, tail) => {
    expect(matchScreen(kind('claude'), tail)).toBeNull();
    expect(isIdle(kind('claude'), tail)).toBe(false);
    expect(contextLeft(kind('claude'), tail)).toBeNull();
  });
});

describe('precedence', () => {
  const perm = 'Do you want to proceed?\n❯ 1. Yes\n';
  const usage = "You've hit your session limit · resets 3:45pm\n";
  const login = 'Not logged in · Please run /login\n';
  const overflow = 'Prompt is too long\n';

  it.each([
    ['a permission box below a usage message', usage + perm, 'permission'],
    ['a permission box above a usage message', perm + usage, 'permission'],
    ['a login message below an overflow text', overflow + login, 'login'],
    ['a usage message below an overflow text', overflow + usage, 'usage_limit'],
    ['a usage message above an overflow text', usage + overflow, 'usage_limit'],
    ['a permission box below a login message: the lowest dialog', login + perm, 'permission'],
    ['a login message below a permission box: the lowest dialog', perm + login, 'login'],
  ])('%s → %s', (_name, tail, screen) => {
    expect(matchScreen(kind('claude'), tail)?.screen).toBe(screen);
  });

  it('the text is the newest occurrence of the first pattern that matches', () => {
    const tail = "You've hit your session limit · resets 3:45pm\nlater\nYou've hit your weekly limit · resets Mon 9am\n";
    expect(matchScreen(kind('claude'), tail)?.text).toBe("You've hit your weekly limit · resets Mon 9am");
  });

  it('curly quotes read as straight ones', () => {
    expect(matchScreen(kind('claude'), 'You\u2019ve hit your session limit')).toEqual({ screen: 'usage_limit', text: "You've hit your session limit" });
  });

  it("Claude's fast-mode limit is no hard limit", () => {
    expect(matchScreen(kind('claude'), "You've hit your fast limit · using standard speed")).toBeNull();
  });
});

describe('screenLines', () => {
  it.each([
    ['empty', '', []],
    ['plain lines', 'a\nb\n', ['a', 'b']],
    ['CRLF and a lone CR', 'a\r\nb\rc', ['a', 'b', 'c']],
    ['ANSI colours', `${ESC}[31mred${ESC}[0m text`, ['red text']],
    ['box borders and runs of spaces', '│  Do   you  │\n╰──────╯', ['Do you']],
    ['curly quotes', '\u201cit\u2019s\u201d', ['"it\'s"']],
    ['trailing spaces and tabs', 'done   \t\n', ['done']],
  ])('%s', (_name, tail, lines) => {
    expect(screenLines(tail)).toEqual(lines);
  });

  it('keeps the last screenful', () => {
    const tail = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    expect(screenLines(tail)).toHaveLength(SCREENFUL);
    expect(screenLines(tail)[0]).toBe('line 60');
    expect(screenLines(tail, 2)).toEqual(['line 98', 'line 99']);
  });
});

describe('isIdle rules', () => {
  const custom = kindOf([
    'kind: custom',
    'idle:',
    "  not_showing: ['working']",
    "  showing: ['\\? for shortcuts']",
    'screens:',
    "  permission: ['allow\\?']",
  ].join('\n'));

  it.each([
    ['the idle text', '? for shortcuts', true],
    ['the idle text, upper case', '? FOR SHORTCUTS', true],
    ['no idle text', 'all done', false],
    ['a busy text too', 'working…\n? for shortcuts', false],
    ['a permission screen too', 'allow?\n? for shortcuts', false],
  ])('%s → %s', (_name, tail, idle) => {
    expect(isIdle(custom, tail)).toBe(idle);
  });

  it('a kind with no idle rule is never idle', () => {
    expect(isIdle(kind('command'), fixture('claude/idle'))).toBe(false);
  });

  it('a busy text scrolled out of the screenful no longer counts', () => {
    const tail = `esc to interrupt\n${'output\n'.repeat(SCREENFUL)}`;
    expect(isIdle(kind('claude'), tail)).toBe(true);
  });
});

describe('contextLeft', () => {
  it.each([
    ['Context low', 'Context low (8% remaining) · Run /compact to compact & continue', 8],
    ['until auto-compact', '12% until auto-compact', 12],
    ['the older form', 'Context left until auto-compact: 15%', 15],
    ['context used', '30% context used', 70],
    ['upper case', 'CONTEXT LOW (4% REMAINING)', 4],
    ['coloured', `${ESC}[31mContext low (${ESC}[1m6${ESC}[22m% remaining)${ESC}[0m`, 6],
    ['the newest reading wins', 'Context low (20% remaining)\nmore work\n30% context used', 70],
    ['the newest reading wins, reversed', '30% context used\nmore work\nContext low (20% remaining)', 20],
    ['out of range', '150% until auto-compact', null],
    ['none', 'all done', null],
  ])('claude: %s', (_name, tail, left) => {
    expect(contextLeft(kind('claude'), tail)).toBe(left);
  });

  it.each([
    ['a reading', '  64% context left · ? for shortcuts', 64],
    ['zero', '0% context left', 0],
    ['none', '? for shortcuts', null],
  ])('codex: %s', (_name, tail, left) => {
    expect(contextLeft(kind('codex'), tail)).toBe(left);
  });
});

describe('lastWords: what a dead pane said last', () => {
  const offline = [
    'Unable to connect to Anthropic services', 'Failed to connect to api.anthropic.com: ENOTFOUND',
    'Please check your internet connection and network settings.', ...Array.from({ length: 16 }, () => ''),
    'Pane is dead (status 1, Tue Dec  1 11:13:54 2026)',
  ].join('\n');
  it.each([
    ['Claude Code offline: its error, not blank lines or tmux\'s line', offline, 10,
      'Unable to connect to Anthropic services\nFailed to connect to api.anthropic.com: ENOTFOUND\nPlease check your internet connection and network settings.'],
    ['CRLF, escapes and trailing spaces', '\x1b[31mboom\x1b[0m  \r\n\r\nPane is dead (signal 9, x)\r\n', 10, 'boom'],
    ['only the last lines', 'a\nb\nc\nd', 2, 'c\nd'],
    ['empty', '', 10, ''],
    ['only blank lines and tmux\'s line', '\n  \n\t\nPane is dead (status 1, x)\n', 10, ''],
    ['CRLF kept apart from a lone CR', 'one\r\ntwo\rthree', 10, 'one\ntwo\nthree'],
    ['an OSC title and a cursor move', '\x1b]0;claude\x07\x1b[2Kready\x1b[1G  ', 10, 'ready'],
  ])('%s', (_what, text, count, expected) => {
    expect(lastWords(text, count)).toBe(expected);
  });

  it('keeps the last 20 non-empty lines by default (SPEC 10.1), blank ones between not counted', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}  \n`).join('\n');
    expect(LAST_LINES).toBe(20);
    expect(lastWords(text).split('\n')).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i + 11}`));
  });
});
