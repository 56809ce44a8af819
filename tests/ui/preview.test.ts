/** The preview's text: a pane's last lines as plain text, and the store keeping them per lane. */
import { describe, expect, it } from 'vitest';
import { PREVIEW_KEPT, previewLines } from '../../src/ui/preview.js';
import { createSwarmStore, setPreview } from '../../src/ui/store.js';

describe('previewLines: the last lines of a screen, plain text', () => {
  it.each<[string, string, string[]]>([
    ['empty', '', []],
    ['blank lines only', '\n  \n\t\n', []],
    ['one line', 'working on it', ['working on it']],
    ['multi-line, newest last', 'a\nb\nc', ['a', 'b', 'c']],
    ['trailing spaces dropped, leading kept', '  indented   \nnext  ', ['  indented', 'next']],
    ['CRLF', 'one\r\ntwo\r\n', ['one', 'two']],
    ['a lone CR ends a line', 'one\rtwo', ['one', 'two']],
    ['blank lines between are left out', 'a\n\n\nb\n\n', ['a', 'b']],
    ['colours', '\u001b[32m● Reading\u001b[0m file', ['● Reading file']],
    ['a 256-colour and a truecolour code', '\u001b[38;5;208mx\u001b[38;2;1;2;3my\u001b[m', ['xy']],
    ['cursor moves and clears', '\u001b[2J\u001b[H\u001b[?25lhi\u001b[K', ['hi']],
    ['a title (OSC) ended by BEL and by ST', '\u001b]0;title\u0007a\u001b]2;t\u001b\\b', ['ab']],
    ['a link (OSC 8)', '\u001b]8;;http://x\u0007link\u001b]8;;\u0007', ['link']],
    ['an 8-bit CSI', '\u009b31mred', ['red']],
    ['bell, backspace, NUL and DEL dropped', 'a\u0007b\u0008c\u0000d\u007f', ['abcd']],
    ['a lone ESC at the end', 'text\u001b', ['text']],
    ['tabs to the next stop of 8', 'a\tb\n\tc', ['a       b', '        c']],
    ['wide characters kept', '漢字 ✓ 👍', ['漢字 ✓ 👍']],
  ])('%s', (_name, screen, expected) => {
    expect(previewLines(screen)).toEqual(expected);
  });

  it('keeps the last `count` lines that show anything', () => {
    const screen = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    expect(previewLines(screen, 3)).toEqual(['line 27', 'line 28', 'line 29']);
    expect(previewLines(screen)).toHaveLength(PREVIEW_KEPT);
    expect(previewLines(screen, 0)).toEqual([]);
  });

  it('leaves no control character in any line, whatever the screen held', () => {
    const all = Array.from({ length: 0xa0 }, (_, c) => String.fromCharCode(c)).join('x');
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    for (const line of previewLines(all, 100)) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

describe('setPreview: the store keeps each lane\'s last lines', () => {
  const store = () => createSwarmStore({ name: 'demo', plan: '/p', session: 's', backend: 'tmux', startedAt: 0, lead: { name: 'lead', epoch: 1, account: null, state: 'working' }, lanes: [] });

  it('sets a lane\'s preview; the same lines again change nothing (no frame for them)', () => {
    const s = store();
    let changes = 0;
    s.subscribe(() => { changes += 1; });
    setPreview(s, 'lane-a', { paneId: '%3', lines: ['a', 'b'] });
    setPreview(s, 'lane-a', { paneId: '%3', lines: ['a', 'b'] });
    expect(changes).toBe(1);
    setPreview(s, 'lane-b', { paneId: '%4', lines: ['c'] });
    setPreview(s, 'lane-a', { paneId: '%5', lines: ['a', 'b'] }); // another pane (a successor): news
    setPreview(s, 'lane-a', { paneId: '%5', lines: ['a'] });
    expect(changes).toBe(4);
    expect(s.getState().previews).toEqual({ 'lane-a': { paneId: '%5', lines: ['a'] }, 'lane-b': { paneId: '%4', lines: ['c'] } });
  });
});
