import { describe, expect, it } from 'vitest';
import { codexTrustLevels } from '../../../src/kinds/codex/trust.js';

describe('codexTrustLevels', () => {
  it.each<[string, string, Record<string, string>]>([
    ['empty', '', {}],
    ['the shape Codex writes', 'model = "o4"\n\n[projects."/home/dev/shop"]\ntrust_level = "trusted"\n', { '/home/dev/shop': 'trusted' }],
    ['several tables, other tables skipped', '[projects."/a"]\ntrust_level = "trusted"\n[tui]\ntrust_level = "x"\n[projects."/b"]\ntrust_level = "untrusted"\n', { '/a': 'trusted', '/b': 'untrusted' }],
    ['CRLF and trailing spaces', '[projects."/a"]   \r\ntrust_level = "trusted"   \r\n', { '/a': 'trusted' }],
    ['a BOM, comments and spaces around the dot', '\uFEFF# mine\n[ projects . "/a" ] # c\n  trust_level = "trusted" # yes\n', { '/a': 'trusted' }],
    ['a literal string key and value', "[projects.'C:\\dev\\x']\ntrust_level = 'trusted'\n", { 'C:\\dev\\x': 'trusted' }],
    ['escapes in a basic string', '[projects."/a \\"q\\" \\u00e9"]\ntrust_level = "trusted"\n', { '/a "q" é': 'trusted' }],
    ['the inline form under [projects]', '[projects]\n"/a" = { trust_level = "trusted" }\n"/b" = { x = 1, trust_level = "untrusted" }\n', { '/a': 'trusted', '/b': 'untrusted' }],
    ['a key outside a project table is not trust', 'trust_level = "trusted"\n[projects."/a"]\nother = 1\n', {}],
    ['an array of tables is skipped', '[[projects."/a"]]\ntrust_level = "trusted"\n', {}],
    ['an unclosed string is skipped, the rest read', '[projects."/a]\ntrust_level = "trusted"\n[projects."/b"]\ntrust_level = "trusted"\n', { '/b': 'trusted' }],
    ['ANSI and garbage lines never throw', '\u001b[31m[projects."/a"]\n=== \n[projects."/c"]\ntrust_level = "trusted"', { '/c': 'trusted' }],
  ])('%s', (_name, text, expected) => {
    expect(Object.fromEntries(codexTrustLevels(text))).toEqual(expected);
  });
});
