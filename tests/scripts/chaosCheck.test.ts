/**
 * chaosCheck's invariants on planted plan folders: a clean run passes, and each kind of broken run
 * is flagged — a check that cannot fail proves nothing. `live` is given, so no tmux is asked.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRun, type LivePane, type Refusal } from '../../scripts/chaosCheck.mjs';

type Entry = Record<string, unknown>;
const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const PACKET = 'analysis_results/handoff/lane-a-g1.yaml';

/** A run that kept every invariant: lane-a hands off once, both lanes pass, the plan is done. */
function cleanJournal(): Entry[] {
  return [
    { event: 'lane_started', lane: 'lead', generation: 1 },
    { event: 'lane_started', lane: 'lane-a', generation: 1 },
    { event: 'lane_started', lane: 'lane-b', generation: 1 },
    { event: 'handoff_reported', lane: 'lane-a', generation: 1, packet: PACKET },
    { event: 'packet_accepted', lane: 'lane-a', generation: 2, packet: PACKET },
    { event: 'lane_result', lane: 'lane-a', generation: 2, passed: true },
    { event: 'lane_result', lane: 'lane-b', generation: 1, passed: true },
    { event: 'plan_done', lane: null },
  ];
}
const LIVE: LivePane[] = [{ lane: 'lane-a', generation: 2, pid: 11 }, { lane: 'lane-b', generation: 1, pid: 12 }];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A plan folder holding `journal` (one entry per 100 ms from T0 unless it says its ts), leases and the packet. */
function plant(journal: (Entry | string)[], { leases = [{ lane: 'lane-a', generation: 2 }], packetMode = 0o600 as number | null } = {}): string {
  const plan = mkdtempSync(join(tmpdir(), 'swarm-chaoscheck-'));
  dirs.push(plan);
  const lines = journal.map((e, i) => (typeof e === 'string' ? e : JSON.stringify({ ts: at(i * 100), ...e })));
  writeFileSync(join(plan, 'journal.jsonl'), lines.map((l) => `${l}\n`).join(''));
  mkdirSync(join(plan, '.swarm', 'leases'), { recursive: true });
  for (const [i, lease] of leases.entries()) writeFileSync(join(plan, '.swarm', 'leases', `acct-${i}.json`), JSON.stringify({ account: `acct-${i}`, ...lease }));
  if (packetMode !== null) {
    mkdirSync(join(plan, 'analysis_results', 'handoff'), { recursive: true });
    writeFileSync(join(plan, PACKET), 'packet: 1\n');
    chmodSync(join(plan, PACKET), packetMode);
  }
  return plan;
}

type Run = Parameters<typeof checkRun>[0];
function check(plan: string, over: Partial<Run> = {}): string[] {
  return checkRun({ plan, socket: 'unused', exit: { code: 0 }, samples: [LIVE], snapshots: [], lanes: ['lane-a', 'lane-b'], live: LIVE, ...over }).violations;
}

describe('chaosCheck', () => {
  it('passes a run that kept every invariant, and counts its handoff', () => {
    const plan = plant(cleanJournal());
    expect(check(plan)).toEqual([]);
    expect(checkRun({ plan, socket: 'unused', exit: { code: 0 }, samples: [], snapshots: [], lanes: ['lane-a'], live: LIVE }).handoffs).toBe(1);
  });

  it.each<[string, LivePane[], RegExp]>([
    ['two live agents of one lane and generation', [{ lane: 'lane-a', generation: 1, pid: 1 }, { lane: 'lane-a', generation: 1, pid: 2 }], /two live panes of lane-a g1,g1/],
    ['generations 1 and 3 of one lane alive together', [{ lane: 'lane-a', generation: 1, pid: 1 }, { lane: 'lane-a', generation: 3, pid: 2 }], /live generations 1,3 of lane-a/],
    ['three generations of one lane alive together', [1, 2, 3].map((g) => ({ lane: 'lane-a', generation: g, pid: g })), /live generations 1,2,3 of lane-a/],
  ])('flags %s in a tmux sample', (_, sample, want) => {
    const violations = check(plant(cleanJournal()), { samples: [LIVE, sample] });
    expect(violations).toEqual([expect.stringMatching(want)]);
    expect(violations[0]).toMatch(/^sample 1:/);
  });

  it('lets a spent agent and its successor be alive together (a handoff)', () => {
    expect(check(plant(cleanJournal()), { samples: [[{ lane: 'lane-a', generation: 1, pid: 1 }, { lane: 'lane-a', generation: 2, pid: 2 }]] })).toEqual([]);
  });

  it('flags a lease without a live holder, and not one whose holder lives', () => {
    const plan = plant(cleanJournal(), { leases: [{ lane: 'lane-a', generation: 2 }, { lane: 'lane-b', generation: 3 }] });
    expect(check(plan)).toEqual(['lease acct-1.json (lane-b g3) has no live holder']);
    expect(check(plan, { live: [] })).toHaveLength(2);
  });

  it("flags this plan's lease in the machine's folder without a live holder (SPEC 10.4), never another plan's", () => {
    const plan = plant(cleanJournal(), { leases: [] });
    const machine = join(plan, '..', 'state', 'leases');
    mkdirSync(machine, { recursive: true });
    writeFileSync(join(machine, 'k1.json'), JSON.stringify({ account: 'a1', lane: 'lane-b', generation: 3, plan }));
    writeFileSync(join(machine, 'k2.json'), JSON.stringify({ account: 'x1', lane: 'lane-z', generation: 1, plan: '/another/plan' }));
    const run = (live: LivePane[]) => checkRun({ plan, machineLeases: machine, socket: 'unused', exit: { code: 0 }, samples: [], snapshots: [], lanes: ['lane-a'], live }).violations;
    expect(run(LIVE)).toEqual(['lease machine k1.json (lane-b g3) has no live holder']);
    expect(run([...LIVE, { lane: 'lane-b', generation: 3, pid: 9 }])).toEqual([]);
  });

  it('flags a lease file that is not a lease (an empty file a full disk left) instead of failing the run', () => {
    const plan = plant(cleanJournal(), { leases: [{ lane: 'lane-a', generation: 2 }] });
    writeFileSync(join(plan, '.swarm', 'leases', 'acct-9.json'), '');
    expect(check(plan)).toEqual(['lease acct-9.json is not a lease (""): the account can never be leased again']);
  });

  it('flags a handoff accepted twice, by two generations', () => {
    const journal = cleanJournal();
    journal.splice(5, 0, { event: 'packet_accepted', lane: 'lane-a', generation: 3, packet: PACKET });
    expect(check(plant(journal))).toEqual([`a packet accepted twice: ${PACKET} by lane-a g2 and g3`]);
  });

  it('flags one acceptance journaled twice (chaos seed 2000: a kill after the line, before the state save)', () => {
    const journal = cleanJournal();
    journal.splice(5, 0, { event: 'packet_accepted', lane: 'lane-a', generation: 2, packet: PACKET });
    expect(check(plant(journal))).toEqual([`the acceptance of ${PACKET} by lane-a g2 is journaled 2 times`]);
  });

  it.each<[string, (j: Entry[]) => void, RegExp]>([
    ['ended neither accepted, rejected nor stopped', (j) => j.splice(4, 1), /the handoff of lane-a g1 .* ended neither accepted, rejected nor stopped/],
    ['rejected and reported', (j) => j.splice(4, 1, { event: 'packet_rejected', lane: 'lane-a', generation: 1, packet: PACKET }), /^$/],
    ['stopped at max_generations', (j) => j.splice(4, 1, { event: 'max_generations', lane: 'lane-a', generation: 1 }), /^$/],
  ])('judges a handoff that %s', (_, edit, want) => {
    const journal = cleanJournal();
    edit(journal);
    const violations = check(plant(journal));
    if (want.source === '^$') expect(violations).toEqual([]);
    else expect(violations).toEqual([expect.stringMatching(want)]);
  });

  it.each<[string, number | null, string]>([
    ['readable by others', 0o644, `packet ${PACKET} is mode 644`],
    ['gone', null, `packet ${PACKET} is gone`],
  ])('flags a packet %s', (_, mode, want) => {
    expect(check(plant(cleanJournal(), { packetMode: mode }))).toEqual([want]);
  });

  it.each<[string, (lines: string[]) => string[], string | null]>([
    ['a prefix of it', (l) => l.slice(0, 3), null],
    ['a prefix cut mid-line (the kill came mid-write)', (l) => [...l.slice(0, 3), l[3]!.slice(0, 20)], null],
    ['a line the final journal lost', (l) => [l[0]!, l[2]!], 'the journal read before fault 1 (a kill or a refusal) is not a prefix of the final journal'],
    ['a line the final journal changed', (l) => [l[0]!.replace('lead', 'lane-z')], 'the journal read before fault 1 (a kill or a refusal) is not a prefix of the final journal'],
  ])('judges a journal read before a fault that is %s', (_, cut, want) => {
    const plan = plant(cleanJournal());
    const lines = cleanJournal().map((e, i) => JSON.stringify({ ts: at(i * 100), ...e }));
    const snapshot = cut(lines).map((l, i, all) => (i === all.length - 1 && !l.endsWith('}') ? l : `${l}\n`)).join('');
    expect(check(plan, { snapshots: [snapshot] })).toEqual(want === null ? [] : [want]);
  });

  it('flags an unparsable journal line, a failed exit, no plan_done and a lane that never passed', () => {
    const journal: (Entry | string)[] = cleanJournal().filter((e) => e.event !== 'plan_done' && !(e.event === 'lane_result' && e.lane === 'lane-b'));
    journal.push('{"ts": "cut sho');
    expect(check(plant(journal), { exit: { code: 1, signal: null } })).toEqual([
      'the journal has an unparsable line',
      'the last swarm up exited 1',
      'no plan_done in the journal',
      'lane-b has no passing lane_result',
    ]);
  });
});

describe('chaosCheck across a killed tmux server', () => {
  /** lane-a and lane-b working at g1 when the server dies; `after` is what the resumed run recorded. */
  const lost = (after: Entry[]): Entry[] => [
    { event: 'lane_started', lane: 'lane-a', generation: 1 },
    { event: 'lane_started', lane: 'lane-b', generation: 1 },
    { event: 'host_lost', lane: null, reason: 'tmux control connection closed' },
    ...after,
    { event: 'lane_result', lane: 'lane-a', generation: 2, passed: true },
    { event: 'lane_result', lane: 'lane-b', generation: 2, passed: true },
    { event: 'plan_done', lane: null },
  ];
  const succeeded = (lane: string): Entry[] => [
    { event: 'degraded_handoff', lane, generation: 1, reason: 'lane_lost' },
    { event: 'packet_accepted', lane, generation: 2, packet: `${lane}-g1-degraded.yaml` },
  ];

  it('passes when every lane\'s lost agent is succeeded', () => {
    expect(check(plant(lost([...succeeded('lane-a'), ...succeeded('lane-b')]), { leases: [] }), { hostLost: 1 })).toEqual([]);
  });

  it('flags a lane whose lost agent is never succeeded', () => {
    const journal = lost(succeeded('lane-a')).filter((e) => !(e.event === 'lane_result' && e.lane === 'lane-b'));
    expect(check(plant(journal, { leases: [] }), { hostLost: 1 })).toEqual([
      'after host_lost (journal line 3), the lost agent lane-b g1 was never succeeded',
      'lane-b has no passing lane_result',
    ]);
  });

  it('lets a lane that was done before the server died go unsucceeded', () => {
    const journal: Entry[] = [
      { event: 'lane_started', lane: 'lane-a', generation: 1 },
      { event: 'lane_started', lane: 'lane-b', generation: 1 },
      { event: 'lane_result', lane: 'lane-b', generation: 1, passed: true },
      { event: 'host_lost', lane: null },
      ...succeeded('lane-a'),
      { event: 'lane_result', lane: 'lane-a', generation: 2, passed: true },
      { event: 'plan_done', lane: null },
    ];
    expect(check(plant(journal, { leases: [] }), { hostLost: 1 })).toEqual([]);
  });

  it.each([[0, 1], [2, 1], [1, 0]])('flags %i tmux kills that stopped swarm up against %i host_lost', (kills, entries) => {
    const journal = lost([...succeeded('lane-a'), ...succeeded('lane-b')]).filter((e) => entries > 0 || e.event !== 'host_lost');
    expect(check(plant(journal, { leases: [] }), { hostLost: kills })).toEqual([`${kills} tmux server kills stopped swarm up, but the journal has ${entries} host_lost`]);
  });
});

describe('chaosCheck across refused writes', () => {
  // The journal refused from 1 s to 3 s; swarm met it at 1.2 s and wrote everything at 3.1 s.
  const window: Refusal = { target: 'journal', from: T0 + 1000, to: T0 + 3000 };
  const journal = (during: boolean, since = at(1200)): Entry[] => [
    ...cleanJournal().slice(0, 4).map((e, i) => ({ ...e, ts: at(i * 100) })),
    ...(during ? [{ ts: at(1500), event: 'capacity_verdict', lane: 'lane-a', generation: 1 }] : []),
    { ts: at(3100), event: 'plan_files_recovered', lane: null, since },
    ...cleanJournal().slice(4).map((e, i) => ({ ...e, ts: at(3200 + i * 100) })),
  ];

  it('passes a refusal told once, recovered once, its entries written afterwards', () => {
    expect(check(plant(journal(true)), { refusals: [window], faultsTold: 1 })).toEqual([]);
  });

  it.each<[string, Entry[], Partial<Run>, string]>([
    ['told but never recovered', journal(true).filter((e) => e.event !== 'plan_files_recovered'), { faultsTold: 1 }, 'swarm up told 1 plan_files_fault, the journal has 0 plan_files_recovered'],
    ['told twice for one refusal', journal(true), { faultsTold: 2 }, 'swarm up told 2 plan_files_fault, the journal has 1 plan_files_recovered'],
    ['recovered from a fault outside every window', journal(true, at(9000)), { faultsTold: 1 }, `plan_files_recovered since ${at(9000)} lies in no refusal window`],
    ['recovered with nothing made while refused in the journal', journal(false), { faultsTold: 1 }, 'no journal entry made while the journal was refused appears in it afterwards'],
  ])('flags a refusal %s', (_, entries, over, want) => {
    expect(check(plant(entries), { refusals: [window], ...over })).toEqual([want]);
  });

  it('flags one refusal recovered twice', () => {
    const twice = journal(true);
    twice.splice(5, 0, { ts: at(3150), event: 'plan_files_recovered', lane: null, since: at(2000) });
    expect(check(plant(twice), { refusals: [window], faultsTold: 2 })).toEqual(['the journal refusal was told more than once']);
  });

  it('passes the entry that met the refusal, made a moment before chaos had recorded the refusal\'s start (seed 1040)', () => {
    const met = journal(false, at(990));
    met.splice(4, 0, { ts: at(990), event: 'lease_released', lane: 'lane-b', generation: 2 });
    expect(check(plant(met), { refusals: [window], faultsTold: 1 })).toEqual([]);
  });

  it('passes two refusals one after the other, each recovered once (seed 1044: the state folder, then a full disk)', () => {
    const next: Refusal = { target: 'full-disk', from: T0 + 3200, to: T0 + 5000 };
    const both = journal(true);
    both.splice(6, 0, { ts: at(5100), event: 'plan_files_recovered', lane: null, since: at(3300) });
    expect(check(plant(both), { refusals: [window, next], faultsTold: 2 })).toEqual([]);
    // The same recovery with only the first window: the first refusal told twice.
    expect(check(plant(both), { refusals: [{ ...window, to: T0 + 3400 }], faultsTold: 2 })).toEqual(['the journal refusal was told more than once']);
  });

  it('passes a full disk met twice in its window, each time told once and recovered once', () => {
    const twice = journal(true);
    twice.splice(5, 0, { ts: at(3150), event: 'plan_files_recovered', lane: null, since: at(2000) });
    expect(check(plant(twice), { refusals: [{ ...window, target: 'full-disk' }], faultsTold: 2 })).toEqual([]);
    expect(check(plant(twice), { refusals: [{ ...window, target: 'full-disk' }], faultsTold: 3 })).toEqual(['swarm up told 3 plan_files_fault, the journal has 2 plan_files_recovered']);
  });
});

describe('chaosCheck: a full disk under .swarm/', () => {
  const record = (from: string, text: string, ms: number) => `${JSON.stringify({ kind: 'message', ts: at(ms), from, role: 'lane', to: 'lead', text })}\n`;
  const torn = '{"kind":"message","ts":"2026-12-01T10:00:00.1';
  /** A plan whose spool r1/lane-a-g1 is `inbox` and whose engine read it to `readTo` (default: all of it). */
  function withInbox(inbox: string, journal: Entry[], readTo = Buffer.byteLength(inbox)): string {
    const plan = plant(journal);
    mkdirSync(join(plan, '.swarm', 'spool', 'r1', 'lane-a-g1'), { recursive: true });
    writeFileSync(join(plan, '.swarm', 'spool', 'r1', 'lane-a-g1', 'records.jsonl'), inbox);
    writeFileSync(join(plan, '.swarm', 'state.json'), JSON.stringify({ spools: { 'r1/lane-a-g1': { offset: readTo } } }));
    return plan;
  }
  const first = record('lane-a', 'plan ready', 0);
  const tornAt = Buffer.byteLength(first);

  it('passes torn bytes on their own line (journaled inbox_torn at their offset), blanks, and records all read', () => {
    const inbox = `${first}${torn}\n${' '.repeat(30)}\n${record('lane-b', 'done', 200)}`;
    const journal = [...cleanJournal().slice(0, -1), { event: 'inbox_torn', lane: null, spool: 'r1/lane-a-g1', offset: tornAt, bytes: torn.length }, cleanJournal().at(-1)!];
    expect(check(withInbox(inbox, journal), { fullDisk: true })).toEqual([]);
  });

  it.each<[string, string, Entry[], number | null, string]>([
    ['a record glued to torn bytes', `${first}${torn}${record('lane-b', 'done', 200)}`, [], null, `r1/lane-a-g1 byte ${tornAt}: a record glued to torn bytes`],
    ['a whole record never read', `${first}${record('lane-b', 'done', 200)}`, [], tornAt, `r1/lane-a-g1 byte ${tornAt}: a whole message record of lane-b never read (the engine read to ${tornAt})`],
    ['inbox_torn where a whole record lies', `${first}${record('lane-b', 'done', 200)}`, [{ event: 'inbox_torn', lane: null, spool: 'r1/lane-a-g1', offset: tornAt, bytes: 9 }], null, `inbox_torn in r1/lane-a-g1 at byte ${tornAt}: a whole record lies there, not torn bytes`],
    ['inbox_torn where no line starts', `${first}${torn}\n`, [{ event: 'inbox_torn', lane: null, spool: 'r1/lane-a-g1', offset: tornAt + 3, bytes: 9 }], null, `inbox_torn in r1/lane-a-g1 at byte ${tornAt + 3}: no line starts there`],
  ])('flags %s', (_, inbox, extra, readTo, want) => {
    const journal = [...cleanJournal().slice(0, -1), ...extra, cleanJournal().at(-1)!];
    const violations = check(withInbox(inbox, journal, readTo ?? Buffer.byteLength(inbox)), { fullDisk: true });
    expect(violations).toEqual([expect.stringContaining(want)]);
  });
});

describe('chaosCheck: a report made while no engine ran', () => {
  const down = [{ lane: 'lane-b', generation: 1, kind: 'done' as const }];

  it('passes a done report counted when swarm up came back', () => {
    expect(check(plant(cleanJournal()), { downReports: down })).toEqual([]);
  });

  it('flags a degraded packet and a successor for a lane that reported done', () => {
    const journal = cleanJournal();
    journal.splice(6, 0,
      { event: 'degraded_handoff', lane: 'lane-b', generation: 1, from_generation: 1, reason: 'lane_lost' },
      { event: 'successor_spawned', lane: 'lane-b', generation: 1, for_generation: 2 });
    expect(check(plant(journal), { downReports: down })).toEqual([
      'lane-b g1 reported done while no engine ran, yet got a degraded packet',
      'lane-b g1 reported done while no engine ran, yet a successor g2 followed',
    ]);
  });

  it('flags a degraded packet after a handoff reported while no engine ran; its successor is due', () => {
    const journal = cleanJournal();
    journal.splice(4, 0, { event: 'degraded_handoff', lane: 'lane-a', generation: 1, from_generation: 1, reason: 'lane_lost' });
    expect(check(plant(journal), { downReports: [{ lane: 'lane-a', generation: 1, kind: 'handoff' }] })).toEqual([
      'lane-a g1 reported handoff while no engine ran, yet got a degraded packet',
    ]);
  });
});
