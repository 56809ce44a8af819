import { describe, expect, it } from 'vitest';
import { el, escapeText, join, text, trusted, Markup } from '../../src/report/markup.js';

describe('escapeText', () => {
  it.each<[string, string, string]>([
    ['empty', '', ''],
    ['the five specials', `<a href="x" title='y'>&</a>`, '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;'],
    ['a script and the end of the SVG', '</svg><script>alert(1)</script>', '&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['terminal escapes: CSI, OSC, bare ESC', '\u001b[31mred\u001b[0m \u001b]0;title\u0007\u001bc!', 'red !'],
    ['control characters, newlines and tabs kept', 'a\u0000b\u0007c\n\td', 'abc\n\td'],
    ['CRLF', 'a\r\nb\rc', 'a\nb\nc'],
    ['multi-line with trailing spaces', 'one  \ntwo  ', 'one  \ntwo  '],
  ])('%s', (_name, input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });
});

describe('el', () => {
  it('escapes attribute values and leaves out null, undefined and false', () => {
    expect(el('rect', { x: 1.26, title: '"><script>', a: null, b: undefined, c: false, hidden: true }).html)
      .toBe('<rect x="1.3" title="&quot;&gt;&lt;script&gt;" hidden></rect>');
  });

  it('takes only markup as children: a plain string is refused at run time too', () => {
    expect(el('p', {}, text('<b>'), [trusted('<i>x</i>')]).html).toBe('<p>&lt;b&gt;<i>x</i></p>');
    expect(() => el('p', {}, '<b>' as unknown as Markup)).toThrow(/markup expected/);
    expect(join([text('a'), text('<')]).html).toBe('a&lt;');
  });

  it('refuses tag and attribute names that are not names', () => {
    expect(() => el('svg onload=x', {})).toThrow(/element name/);
    expect(() => el('g', { 'on load': 'x' })).toThrow(/attribute name/);
  });
});
