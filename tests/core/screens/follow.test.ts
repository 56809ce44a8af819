import { describe, expect, it } from 'vitest';
import { FOLLOW_START, followStep, type Follow } from '../../../src/core/screens/follow.js';

/** Feed captures one by one; what was printed, in order. */
function follow(captures: string[], finalLast = false): string[] {
  let state: Follow = FOLLOW_START;
  const printed: string[] = [];
  captures.forEach((capture, i) => {
    const s = followStep(state, capture, finalLast && i === captures.length - 1);
    printed.push(...s.out);
    state = s.next;
  });
  return printed;
}

describe('followStep: the new lines of a pane', () => {
  it('a pane that prints line by line: each complete line once, the last only once a line follows it (or the pane ended)', () => {
    expect(follow(['a', 'a\nb', 'a\nb\nc'])).toEqual(['a', 'b']);
    expect(follow(['a', 'a\nb', 'a\nb\nc'], true)).toEqual(['a', 'b', 'c']);
  });

  it('a last line that grows is printed whole, once', () => {
    expect(follow(['$ npm te', '$ npm test', '$ npm test\nok'])).toEqual(['$ npm test']);
  });

  it('scrolled: the first lines gone from the capture, the anchor found again', () => {
    expect(follow(['1\n2\n3\n4', '3\n4\n5\n6'])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('repeated lines are printed again when they come again (the anchor matched where the last capture ended)', () => {
    expect(follow(['[sim] ready\nwork\n[sim] ready\n', '[sim] ready\nwork\n[sim] ready\nwork\n[sim] ready\nx'])).toEqual(['[sim] ready', 'work', '[sim] ready', 'work', '[sim] ready']);
  });

  it('trailing blank screen rows and trailing spaces are not lines; blank lines between lines are kept', () => {
    expect(follow(['a   \n\nb\n\n\n\n', 'a\n\nb\nc\n\n'])).toEqual(['a', '', 'b']);
  });

  it('blank last lines do not anchor anywhere: the anchor reaches back to a line with text', () => {
    expect(follow(['x\n\n\n\ny', 'x\n\n\n\ny\nz\n\n\n\nw\nv'], true)).toEqual(['x', '', '', '', 'y', 'z', '', '', '', 'w', 'v']);
  });

  it('CRLF captures read as lines', () => {
    expect(follow(['a\r\nb\r\n', 'a\r\nb\r\nc\r\nd'])).toEqual(['a', 'b', 'c']);
  });

  it('a screen redrawn in place (the anchor lost): only lines not printed lately', () => {
    const screen = (spinner: string, body: string) => `Claude Code\n${body}\n${spinner} Working\n> `;
    expect(follow([screen('·', 'reading'), screen('✻', 'reading'), screen('✻', 'editing a.ts')])).toEqual(['Claude Code', 'reading', '· Working', '✻ Working', 'editing a.ts']);
  });

  it('nothing captured, nothing new', () => {
    expect(followStep(FOLLOW_START, '')).toEqual({ out: [], next: FOLLOW_START });
    expect(followStep({ seen: ['a'], end: 1 }, '\n\n').out).toEqual([]);
  });
});
