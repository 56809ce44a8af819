import { describe, expect, it } from 'vitest';
import { packetField } from '../../../src/core/packet/field.js';

describe('packetField', () => {
  it.each<[string, string, string | null]>([
    ['a quoted string on one line', 'schema: dwp-handoff/v1\ndoing: "write the \\"parser\\""\nnext:\n  - a\n', 'write the "parser"'],
    ['a plain scalar', 'doing: write the parser\n', 'write the parser'],
    ['trailing spaces', 'doing: "x"   \nnext: []\n', 'x'],
    ['CRLF', 'schema: dwp-handoff/v1\r\ndoing: "x y"\r\nnext: []\r\n', 'x y'],
    ['a block scalar over lines', 'doing: |\n  line one\n  line two\nnext: []\n', 'line one\nline two\n'],
    ['a folded string over lines', 'doing: "one\n  two"\nnext: []\n', 'one two'],
    ['a YAML-only escape', 'doing: "tab\\x41"\n', 'tabA'],
    ['ANSI escapes kept as written (the page escapes them)', 'doing: "\\e[31mred"\n', '\u001b[31mred'],
    ['a BOM', '\uFEFFdoing: "x"\n', 'x'],
    ['a nested doing is not the field', 'where:\n  doing: "no"\n', null],
    ['not a string', 'doing: [a, b]\n', null],
    ['absent', 'schema: dwp-handoff/v1\n', null],
    ['empty', '', null],
    ['not YAML', 'doing: "unclosed\n', null],
  ])('%s', (_name, text, expected) => {
    expect(packetField(text, 'doing')).toBe(expected);
  });
});
