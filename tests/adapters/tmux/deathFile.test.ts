import { describe, expect, it } from 'vitest';
import { parseDeathLines } from '../../../src/adapters/tmux/deathFile.js';

const line = (pane: string, status: string): string => `{"kind":"pane_died","pane":"${pane}","status":${status},"ts":"2026-01-01T00:00:00Z"}`;

describe('parseDeathLines', () => {
  it.each<[string, string, { paneId: string; status: number | null; signal: number | null }[], number]>([
    ['empty', '', [], 0],
    ['whitespace only, no newline', '   ', [], 0],
    ['a blank line', '\n', [], 1],
    ['one death', `${line('%3', '3')}\n`, [{ paneId: '%3', status: 3, signal: null }], line('%3', '3').length + 1],
    ['killed by a signal, from an older swarm (no signal field)', `${line('%4', 'null')}\n`, [{ paneId: '%4', status: null, signal: null }], line('%4', 'null').length + 1],
    ['killed by signal 9', `${line('%4', 'null').replace('"ts"', '"signal":9,"ts"')}\n`, [{ paneId: '%4', status: null, signal: 9 }], line('%4', 'null').length + 12],
    ['a torn last line waits', `${line('%3', '3')}\n{"kind":"pane_di`, [{ paneId: '%3', status: 3, signal: null }], line('%3', '3').length + 1],
    ['multi-line, CRLF', `${line('%1', '0')}\r\n${line('%2', '1')}\r\n`, [{ paneId: '%1', status: 0, signal: null }, { paneId: '%2', status: 1, signal: null }], 2 * (line('%1', '0').length + 2)],
    ['trailing spaces', `${line('%5', '2')}   \n`, [{ paneId: '%5', status: 2, signal: null }], line('%5', '2').length + 4],
    ['not JSON', 'garbage\n', [], 8],
    ['another kind', '{"kind":"pane_exited","pane":"%1","status":0}\n', [], 46],
    ['no pane id', '{"kind":"pane_died","pane":"","status":0}\n', [], 42],
    ['an ANSI-coloured line', `\u001b[31m${line('%6', '1')}\n`, [], line('%6', '1').length + 6],
    ['upper case kind', `${line('%7', '1').replace('pane_died', 'PANE_DIED')}\n`, [], line('%7', '1').length + 1],
  ])('%s', (_name, text, records, consumed) => {
    expect(parseDeathLines(Buffer.from(text))).toEqual({ records, consumed });
  });
});
