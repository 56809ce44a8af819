import { describe, expect, it } from 'vitest';
import type { InboxRecord } from '../../../src/core/protocol/inbox.js';
import type { JournalEntry } from '../../../src/core/protocol/journal.js';
import { pickRun, recordsOfRun, runsOf } from '../../../src/core/report/runs.js';

const e = (min: number, event: string, extra: Record<string, unknown> = {}): JournalEntry =>
  ({ ts: `2026-12-01T10:${String(min).padStart(2, '0')}:00.000Z`, type: 'observation', event, lane: null, generation: null, epoch: 1, ...extra });

describe('runs of a journal', () => {
  it('cut at each run_started; each ends at plan_done, else swarm_down, else its last event; what follows its end is not its', () => {
    const journal = [
      e(0, 'run_started', { run: 1 }), e(1, 'lane_started'), e(2, 'plan_done'), e(3, 'agent_exited'), e(4, 'swarm_down'),
      e(10, 'run_started', { run: 2 }), e(11, 'stopped_short'), e(12, 'lane_started'),
      e(20, 'run_started', { run: 3 }), e(21, 'escalation'), e(22, 'swarm_down'), e(23, 'agent_exited'),
    ];
    const runs = runsOf(journal);
    expect(runs.map((r) => r.summary)).toEqual([
      { run: 1, started: journal[0]!.ts, ended: journal[2]!.ts, outcome: 'done' },
      { run: 2, started: journal[5]!.ts, ended: journal[7]!.ts, outcome: 'stopped_short' },
      { run: 3, started: journal[8]!.ts, ended: journal[10]!.ts, outcome: 'down' },
    ]);
    expect(runs[0]!.entries.map((x) => x.event)).toEqual(['run_started', 'lane_started', 'plan_done']);
    expect(runs[2]!.entries.map((x) => x.event)).toEqual(['run_started', 'escalation', 'swarm_down']);
  });

  it('a journal from before runs were numbered is one run; lines before the first run_started are the first run', () => {
    expect(runsOf([e(0, 'lead_claimed'), e(1, 'lane_started')]).map((r) => r.summary)).toEqual([{ run: 1, started: e(0, 'x').ts, ended: e(1, 'x').ts, outcome: 'unfinished' }]);
    const mixed = runsOf([e(0, 'lead_claimed'), e(1, 'run_started', { run: 2 }), e(2, 'lane_started')]);
    expect(mixed.map((r) => [r.summary.run, r.entries.length])).toEqual([[1, 1], [2, 2]]);
  });

  it('picks the last run, a numbered one, or all; says which runs there are when asked for another', () => {
    const journal = [e(0, 'run_started', { run: 1 }), e(1, 'plan_done'), e(5, 'run_started', { run: 2 }), e(6, 'lane_started')];
    expect(pickRun(journal, 'last')).toMatchObject({ ok: true, run: 2, entries: [journal[2], journal[3]] });
    expect(pickRun(journal, 1)).toMatchObject({ ok: true, run: 1, entries: [journal[0], journal[1]] });
    expect(pickRun(journal, 'all')).toMatchObject({ ok: true, run: 'all', entries: journal });
    expect(pickRun(journal, 7)).toEqual({ ok: false, error: 'no run 7 in the journal (runs: 1, 2)' });
    expect(pickRun([], 'last')).toEqual({ ok: true, run: 'all', entries: [], runs: [] });
    expect(pickRun([], 1)).toEqual({ ok: false, error: 'no run 1: the journal holds no run yet' });
  });

  it('inbox records go with the run they name, else with the run whose time they fall in', () => {
    const r = (min: number, run?: number): InboxRecord => ({ kind: 'message', ts: e(min, 'x').ts, from: 'lane-a', to: 'lead', text: 't', ...(run === undefined ? {} : { run }) }) as InboxRecord;
    const records = [r(1), r(6), r(7, 1), r(8, 2), r(30)];
    const [one, two] = runsOf([e(0, 'run_started', { run: 1 }), e(2, 'plan_done'), e(5, 'run_started', { run: 2 }), e(9, 'swarm_down')]).map((x) => x.summary);
    expect(recordsOfRun(records, one!)).toEqual([records[0], records[2]]);
    expect(recordsOfRun(records, two!)).toEqual([records[1], records[3]]);
    expect(recordsOfRun(records, null)).toEqual(records);
  });
});
