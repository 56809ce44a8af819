import { describe, expect, it } from 'vitest';
import { RELEASE_STEP, initialRows, recordReport, renderTable, rowsFromNext, tableDoing, tableNext } from '../../src/sim/leadTable.js';

const ESC = '\x1b';

describe('recordReport', () => {
  const rows = initialRows(['lane-a', 'lane-b', 'lane-a']);

  it('starts with one row per lane, nothing heard', () => {
    expect(rows).toEqual([
      { lane: 'lane-a', last: '-', capacity: '-', at: '-' },
      { lane: 'lane-b', last: '-', capacity: '-', at: '-' },
    ]);
  });

  it.each([
    ['plan ready', 'plan ready\ncapacity=ok 92% @s1 context=3%', 'plan ready', 'capacity=ok 92% @s1 context=3%'],
    ['done, CRLF and trailing spaces', 'done  \r\ncapacity=ok 80% @s1  \r\n', 'done', 'capacity=ok 80% @s1'],
    ['a handoff', 'handoff /p/h/lane-a-g1.yaml\ncapacity=critical 8% @s1', 'handoff /p/h/lane-a-g1.yaml', 'capacity=critical 8% @s1'],
    ['a blocked report over lines', 'blocked decision gate fails\nmore\ncapacity=ok 50% @s1', 'blocked decision gate fails', 'capacity=ok 50% @s1'],
    ['ANSI escapes', `${ESC}[1mdone${ESC}[0m\ncapacity=ok 1% @s1`, 'done', 'capacity=ok 1% @s1'],
    ['upper case', 'DONE\nCAPACITY=OK 70% @s1', 'DONE', 'CAPACITY=OK 70% @s1'],
    ['a note', 'I am thinking', 'note: I am thinking', '-'],
    ['no capacity line', 'done', 'done', '-'],
    ['empty', '', '-', '-'],
    ['whitespace only', '   \n ', '-', '-'],
    ['a pipe cannot break the table', 'note | with | pipes', 'note: note / with / pipes', '-'],
  ])('%s', (_name, text, last, capacity) => {
    const after = recordReport(rows, 'lane-b', text, 'T');
    expect(after[1]).toEqual({ lane: 'lane-b', last, capacity, at: 'T' });
    expect(after[0]).toEqual(rows[0]);
  });

  it('adds a row for a lane it did not know', () => {
    expect(recordReport(rows, 'lane-z', 'done', 'T').map((r) => r.lane)).toEqual(['lane-a', 'lane-b', 'lane-z']);
  });
});

describe('the table as text and as a packet', () => {
  const rows = recordReport(initialRows(['lane-a', 'lane-b']), 'lane-a', 'done\ncapacity=ok 80% @s1', '2026-01-01T00:00:00Z');

  it('renders Markdown', () => {
    expect(renderTable(rows, 'Lead table')).toBe([
      '# Lead table',
      '',
      '| lane | last report | capacity | at |',
      '|---|---|---|---|',
      '| lane-a | done | capacity=ok 80% @s1 | 2026-01-01T00:00:00Z |',
      '| lane-b | - | - | - |',
      '',
    ].join('\n'));
  });

  it('carries the rows through the packet’s next, with the release last', () => {
    const next = tableNext(rows);
    expect(next).toEqual(['lane lane-a: done | capacity=ok 80% @s1 | 2026-01-01T00:00:00Z', 'lane lane-b: - | - | -', RELEASE_STEP]);
    expect(rowsFromNext(next)).toEqual(rows);
    expect(rowsFromNext(['  lane lane-a: done | c | t  ', '', 'nothing', 'lane bad name: x | y | z'])).toEqual([{ lane: 'lane-a', last: 'done', capacity: 'c', at: 't' }]);
  });

  it('sums the table up for doing', () => {
    expect(tableDoing('demo', rows)).toBe('leading plan demo: 2 lane(s), 1 done; watching reports and answering none it need not');
  });
});
