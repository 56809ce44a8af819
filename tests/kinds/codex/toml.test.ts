import { describe, expect, it } from 'vitest';
import { tomlString, tomlStringArray, userNotify } from '../../../src/kinds/codex/toml.js';

describe('tomlString', () => {
  it.each([
    ['plain', '/home/dev/.swarm/bin/swarm', '"/home/dev/.swarm/bin/swarm"'],
    ['empty', '', '""'],
    ['spaces and #', '/home/my dev/#1/swarm', '"/home/my dev/#1/swarm"'],
    ['double quotes', 'say "hi"', '"say \\"hi\\""'],
    ['single quotes stay', "it's", `"it's"`],
    ['backslashes', 'C:\\dir\\x', '"C:\\\\dir\\\\x"'],
    ['short escapes', 'a\tb\nc\rd\be\ff', '"a\\tb\\nc\\rd\\be\\ff"'],
    ['other control characters and DEL', '\x00\x1b[31m\x7f', '"\\u0000\\u001B[31m\\u007F"'],
    ['non-ASCII as UTF-8', 'é/日本/🐝', '"é/日本/🐝"'],
  ])('%s', (_name, text, toml) => {
    expect(tomlString(text)).toBe(toml);
  });

  it('reads back to the same text through userNotify', () => {
    const text = 'a "b" \\ c\t\x01é🐝#';
    expect(userNotify(`notify = ${tomlStringArray([text])}\n`)).toEqual([text]);
  });

  it('refuses a lone surrogate', () => {
    expect(() => tomlString('a\uD800b')).toThrow(/lone surrogate \(U\+D800\)/);
  });
});

describe('tomlStringArray', () => {
  it('quotes each item', () => {
    expect(tomlStringArray(['/p q/swarm', 'hook', 'codex-notify'])).toBe('["/p q/swarm","hook","codex-notify"]');
  });
});

describe('userNotify', () => {
  it.each([
    ['none', 'model = "o3"\n', null],
    ['empty text', '', null],
    ['one line', 'notify = ["notify-send", "Codex"]\n', ['notify-send', 'Codex']],
    ['literal strings', "notify = ['/usr/bin/say', 'C:\\x']\n", ['/usr/bin/say', 'C:\\x']],
    ['escapes', 'notify = ["a\\"b", "\\u00e9\\t"]\n', ['a"b', 'é\t']],
    ['several lines, comments, trailing comma', 'model = "x"\nnotify = [\n  "prog", # the program\n  "--flag",\n]\n', ['prog', '--flag']],
    ['CRLF', 'notify = [\r\n "prog",\r\n "x"\r\n]\r\n', ['prog', 'x']],
    ['indented, trailing spaces', '  notify   =   ["prog"]   \n', ['prog']],
    ['an empty array', 'notify = []\n', null],
    ['inside a table only', '[tui]\nnotify = ["prog"]\n', null],
    ['after a table', 'model = "x"\n[projects."/w"]\ntrust_level = "trusted"\nnotify = ["prog"]\n', null],
    ['before a table', 'notify = ["prog"]\n[tui]\nx = 1\n', ['prog']],
    ['not an array', 'notify = "prog"\n', null],
    ['numbers in it', 'notify = ["prog", 1]\n', null],
    ['unterminated', 'notify = ["prog"\n', null],
    ['a similar key', 'notify_x = ["prog"]\n', null],
    ['a bad escape', 'notify = ["a\\q"]\n', null],
  ])('%s', (_name, text, argv) => {
    expect(userNotify(text)).toEqual(argv);
  });
});
