import { describe, expect, it } from 'vitest';
import { ControlParser, unescapeOutput, type ControlMessage } from '../../../src/adapters/tmux/controlParser.js';

/** Messages with output data as text, easier to compare. */
const parse = (...chunks: (string | Buffer)[]): unknown[] => parseWith(new ControlParser(), chunks);
const parseWith = (parser: ControlParser, chunks: (string | Buffer)[]): unknown[] =>
  chunks.flatMap((chunk) => parser.push(chunk)).map((m: ControlMessage) => (m.kind === 'output' ? { ...m, data: m.data.toString('utf8') } : m));
const out = (paneId: string, data: string) => ({ kind: 'output', paneId, data });
const reply = (number: number, lines: string[], ok = true, fromClient = true) => ({ kind: 'reply', number, fromClient, ok, lines });

describe('unescapeOutput', () => {
  it.each([
    ['', ''],
    ['plain text', 'plain text'],
    ['line\\015\\012', 'line\r\n'],
    ['\\033[31mred\\033[0m', '\u001b[31mred\u001b[0m'],
    ['back\\134slash', 'back\\slash'],
    ['   ', '   '],
    ['ends mid-escape \\03', 'ends mid-escape \\03'],
    ['ends on a backslash \\', 'ends on a backslash \\'],
    ['not octal \\089', 'not octal \\089'],
    ['\\101\\102C', 'ABC'],
    ['UPPER \\124', 'UPPER T'],
    ['ünïcode', 'ünïcode'],
  ])('%j → %j', (escaped, plain) => {
    expect(unescapeOutput(Buffer.from(escaped)).toString('utf8')).toBe(plain);
  });

  it('keeps raw bytes: an escaped byte of a UTF-8 sequence joins the rest', () => {
    expect(unescapeOutput(Buffer.from('\\303\\251')).toString('utf8')).toBe('é');
  });
});

describe('ControlParser', () => {
  it.each<[string, (string | Buffer)[], unknown[]]>([
    ['nothing', [''], []],
    ['whitespace only', ['   \n'], []],
    ['an output line', ['%output %1 hello\\015\\012\n'], [out('%1', 'hello\r\n')]],
    ['output with ANSI escapes', ['%output %2 \\033[1mBold\\033[0m\n'], [out('%2', '\u001b[1mBold\u001b[0m')]],
    ['output split across chunks', ['%outp', 'ut %3 he', 'llo\n'], [out('%3', 'hello')]],
    ['an escape split across chunks', ['%output %3 a\\0', '15b\n'], [out('%3', 'a\rb')]],
    ['a line ending mid-escape', ['%output %3 tail\\01\n'], [out('%3', 'tail\\01')]],
    ['an unfinished line waits', ['%output %3 not yet'], []],
    ['CRLF line ends', ['%output %4 x\r\n%exit\r\n'], [out('%4', 'x'), { kind: 'exit', reason: '' }]],
    ['trailing spaces are data', ['%output %4 x  \n'], [out('%4', 'x  ')]],
    ['output with nothing after the pane', ['%output %5\n'], [out('%5', '')]],
    ['extended output (pause-after)', ['%extended-output %6 12 : a\\134b\n'], [out('%6', 'a\\b')]],
    ['extended output with a colon in the data', ['%extended-output %6 0 : x : y\n'], [out('%6', 'x : y')]],
    ['pause', ['%pause %7\n'], [{ kind: 'pause', paneId: '%7' }]],
    ['exit with a reason', ['%exit server exited\n'], [{ kind: 'exit', reason: 'server exited' }]],
    ['a notification', ['%window-close @3\n'], [{ kind: 'notification', name: 'window-close', args: '@3' }]],
    ['unlinked-window-close', ['%unlinked-window-close @4\n'], [{ kind: 'notification', name: 'unlinked-window-close', args: '@4' }]],
    ['pane-mode-changed', ['%pane-mode-changed %2\n'], [{ kind: 'notification', name: 'pane-mode-changed', args: '%2' }]],
    ['upper case is not %output', ['%OUTPUT %1 x\n'], [{ kind: 'notification', name: 'OUTPUT', args: '%1 x' }]],
    ['a line that is no message', ['hello\n'], []],
    ['subscription', ['%subscription-changed swarm-dead $0 @1 0 %3 : 1:3\n'],
      [{ kind: 'subscription', name: 'swarm-dead', paneId: '%3', value: '1:3' }]],
    ['subscription with an empty value part', ['%subscription-changed swarm-dead $0 @1 0 %3 : 1:\n'],
      [{ kind: 'subscription', name: 'swarm-dead', paneId: '%3', value: '1:' }]],
    ['session subscription', ['%subscription-changed s $0 - - - : v\n'], [{ kind: 'subscription', name: 's', paneId: null, value: 'v' }]],
  ])('%s', (_name, chunks, expected) => {
    expect(parse(...chunks)).toEqual(expected);
  });

  it('collects a reply block by its number', () => {
    expect(parse('%begin 1700000000 265 1\n%12\n%13\n%end 1700000000 265 1\n')).toEqual([reply(265, ['%12', '%13'])]);
  });

  it('an error block is a failed reply', () => {
    expect(parse("%begin 1 266 1\ncan't find pane: %99\n%error 1 266 1\n")).toEqual([reply(266, ["can't find pane: %99"], false)]);
  });

  it('the attach block (flags 0) is not a reply to this client', () => {
    expect(parse('%begin 1 263 0\n%end 1 263 0\n')).toEqual([reply(263, [], true, false)]);
  });

  it('inside a block, lines that look like messages are data until the matching end', () => {
    const text = ['%begin 5 300 1', '%begin 5 301 1', '%output %1 x', '%end 5 301 1', '%end 6 300 1', '%exit', '  ', '%end 5 300 1', ''].join('\n');
    expect(parse(text)).toEqual([reply(300, ['%begin 5 301 1', '%output %1 x', '%end 5 301 1', '%end 6 300 1', '%exit', '  '])]);
  });

  it('consecutive blocks keep their numbers and order, with notifications between', () => {
    const text = '%begin 9 10 1\na\n%end 9 10 1\n%output %1 z\n%begin 9 11 1\n%error 9 11 1\n';
    expect(parse(text)).toEqual([reply(10, ['a']), out('%1', 'z'), reply(11, [], false)]);
  });

  it('a block split across chunks, with CRLF', () => {
    expect(parse('%begin 2 7 1\r\nline one\r', '\nline two\r\n%en', 'd 2 7 1\r\n')).toEqual([reply(7, ['line one', 'line two'])]);
  });

  it('UTF-8 in a block split inside a character', () => {
    const bytes = Buffer.from('%begin 1 1 1\nhé\n%end 1 1 1\n');
    const cut = bytes.indexOf(0xa9);
    expect(parse(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual([reply(1, ['hé'])]);
  });

  /** Chunks pushed with a set: the panes that printed, in order, and the other messages. */
  const collect = (chunks: (string | Buffer)[]) => {
    const parser = new ControlParser();
    const printed = new Set<string>();
    const messages = chunks.flatMap((chunk) => parser.push(chunk, printed));
    return { printed: [...printed], messages: messages.map((m) => (m.kind === 'output' ? { ...m, data: m.data.toString('utf8') } : m)) };
  };
  it.each<[string, (string | Buffer)[], string[], unknown[]]>([
    ['nothing', [''], [], []],
    ['an output line: its pane', ['%output %1 hello\\015\\012\n'], ['%1'], []],
    ['output with ANSI escapes and CRLF', ['%output %2 \\033[1mB\\033[0m\r\n'], ['%2'], []],
    ['output with trailing spaces, split across chunks', ['%outp', 'ut %13 a  ', '\n'], ['%13'], []],
    ['output with nothing after the pane', ['%output %5\n'], ['%5'], []],
    ['extended output', ['%extended-output %6 12 : a\\134b\n'], ['%6'], []],
    ['a pane many times: once', ['%output %1 a\n%extended-output %1 0 : b\n%output %1 c\n'], ['%1'], []],
    ['a large pane number', ['%output %1234567 x\n'], ['%1234567'], []],
    ['a pane name not of tmux\'s form: a message', ['%output %1x y\n%output % z\n'], [], [out('%1x', 'y'), out('%', 'z')]],
    ['an unfinished line waits', ['%output %3 not yet'], [], []],
    ['a terminal escape in the data does not end the line', ['%output %3 \x1b[2J\x1b]52;c;eA==\x07\n'], ['%3'], []],
    ['a flood between two replies', ['%begin 1 2 1\nx\n%end 1 2 1\n%output %1 a\n%output %2 b\n%output %1 c\n%begin 1 3 1\n%end 1 3 1\n'],
      ['%1', '%2'], [reply(2, ['x']), reply(3, [])]],
    ['output-looking lines inside a reply are its data', ['%begin 1 4 1\n%output %9 q\n%end 1 4 1\n'], [], [reply(4, ['%output %9 q'])]],
  ])('collecting the panes that printed: %s', (_name, chunks, printed, messages) => {
    expect(collect(chunks)).toEqual({ printed, messages });
  });

  it('a malformed %begin is only a notification', () => {
    expect(parse('%begin x\n%output %1 y\n')).toEqual([{ kind: 'notification', name: 'begin', args: 'x' }, out('%1', 'y')]);
  });
});
