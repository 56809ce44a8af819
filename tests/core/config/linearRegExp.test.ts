import { describe, expect, it } from 'vitest';
import { parseKind } from '../../../src/core/config/kindFile.js';
import { linearRegExp, lowerText, mayMatch } from '../../../src/core/config/linearRegExp.js';
import { isIdle, matchScreen } from '../../../src/core/screens/screens.js';

function compiled(source: string): RegExp {
  const re = linearRegExp(source);
  if (!(re instanceof RegExp)) throw new Error(re.why);
  return re;
}

describe('linearRegExp: matches lowered text as the pattern with the i flag matches the text', () => {
  const texts = [
    '', 'Hello World', 'HELLO world', 'You\'ve hit your Session limit', 'ABC-xyz 123', '[sim] Do you want to proceed?',
    'line one\r\nline two', '\u001b[31mRed\u001b[39m text', '  trailing spaces  ', 'Ünïcödé ÀÉÎ straße', 'a.b', 'aXb', 'x'.repeat(50) + 'limit',
    'İstanbul Limit', 'tab\there',
  ];
  it.each([
    ['hello'], ['HELLO'], ['Hello World'], ['[A-Z]+'], ['[^A-Z ]+'], ['[a-z]{3}-[A-Z]{3}'], ['\\x41BC'], ['\\u0041bc'],
    ['\\D+'], ['\\W'], ['\\bWorld\\b'], ['\\BORL'], ['a\\.b'], ['a.b'], ['\\[SIM\\] do you'], ['proceed\\?$'], ['^line'],
    ['(?:one|TWO)'], ['(?<w>WORLD)'], ['[\\x41-\\x5a]{5}'], ['[À-Þ]+'], ['STRASSE|straße'], ['x{0,40}LIMIT'], ['x{20}'], ['x{17,}limit'],
    ['x{2,30}?limit'], ['[a-z]{0,40}limit'], ['hel+o wor?ld'], ['xx{2}limit'], ['l{1}imit'], ['[ab]{2}c{1,3}d'], ['(hello) world'], ['hello|world'], ['a\\.b(c)?'], ['you\'ve hit your'], ['\\u001b\\[31m'], ['\\r?\\n'], ['\\s+'], ['İstanbul'], ['\\t'], ['[\\]\\-]'],
  ])('%s', (source) => {
    const re = compiled(source);
    for (const text of texts) {
      const low = lowerText(text);
      expect([text, mayMatch(re, low) && re.test(low)]).toEqual([text, new RegExp(source, 'i').test(text)]);
    }
  });

  it('keeps every offset of the text', () => {
    for (const text of ['İİ ABC', 'Straße ẞ', 'ÀÉ', '\u0130x']) expect(lowerText(text)).toHaveLength(text.length);
  });
});

describe('linearRegExp: what it refuses, and why', () => {
  it.each([
    ['a(?=b)', /lookahead or lookbehind/],
    ['a(?!b)', /lookahead or lookbehind/],
    ['(?<=a)b', /lookahead or lookbehind/],
    ['(?<!a)b', /lookahead or lookbehind/],
    ['(a)\\1', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
    ['(ab){0,40}', /linear time \(a count over 16 on a group/],
  ])('%s', (source, why) => {
    const re = linearRegExp(source);
    expect(re).not.toBeInstanceOf(RegExp);
    expect((re as { why: string; syntax: boolean })).toMatchObject({ syntax: false, why: expect.stringMatching(why) });
  });

  it('says a pattern that is no regular expression is one', () => {
    expect(linearRegExp('not (closed')).toEqual({ why: 'Unterminated group', syntax: true });
  });

  it('refuses such a pattern in a kind file at its line and column', () => {
    const result = parseKind("kind: x\nscreens:\n  usage_limit:\n    - 'limit(?! reached)'\n");
    expect(result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message.slice(0, 70)}`)).toEqual([
      '4:7: "screens.usage_limit[0]" is refused: it uses a lookahead or lookbehind',
    ]);
  });
});

describe('a catastrophic pattern in a kind', () => {
  const kind = (() => {
    const result = parseKind("kind: x\nidle:\n  not_showing: ['(a+)+$']\nscreens:\n  login: ['(a+)+$', '(x+x+)+y']\n");
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
    return result.kind;
  })();

  it('(a+)+$ against 39 a and a "!" returns at once', { timeout: 2000 }, () => {
    const tail = `${'a'.repeat(39)}!\n`;
    expect(matchScreen(kind, tail)).toBeNull();
    expect(isIdle(kind, tail)).toBe(true);
  });

  it('(x+x+)+y against a long run of x returns at once', { timeout: 2000 }, () => {
    expect(matchScreen(kind, `${'x'.repeat(5000)}\n`)).toBeNull();
  });
});

describe("the shipped claude usage-limit pattern, rewritten without its lookahead", () => {
  const ORIGINAL = /you've hit your (?!fast )[a-z0-9' ]{0,40}limit/i;
  it.each([
    "You've hit your session limit · resets 3:45pm", "You've hit your weekly limit", "You've hit your Opus limit",
    "You've hit your org's monthly usage limit", "You've hit your limit", "You've hit your fast limit · using standard speed",
    "You've hit your fastest limit", "You've hit your faster limit", "you've hit your fa limit", "You've hit your five-hour limit",
  ])('%s', (text) => {
    const result = parseKind(`kind: claude\nscreens:\n  usage_limit:\n    - 'you''ve hit your (?:(?:[a-eg-z0-9'' ]|f[b-z0-9'' ]|fa[a-rt-z0-9'' ]|fas[a-su-z0-9'' ]|fast[a-z0-9''])[a-z0-9'' ]{0,40})?limit'\n`);
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
    expect(matchScreen(result.kind, text)?.screen ?? null).toBe(ORIGINAL.test(text) ? 'usage_limit' : null);
  });
});
