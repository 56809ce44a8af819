/**
 * The drill's items, judged from facts (pure): a good run holds every item, and each item fails, with
 * its own detail, when its evidence is missing or wrong.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import { drillItems, isPointerLine, keysIn, typedLines, type DrillFacts } from '../../src/drill/checks.js';
import { cell, summaryTable } from '../../src/drill/docs.js';

const PLAN = '/r/plans/drill';
const LANE_PACKET = `${PLAN}/analysis_results/handoff/lane-a-g1-1.yaml`;
const LEAD_PACKET = `${PLAN}/analysis_results/handoff/lead-g1-2.yaml`;
const GATE = "grep -qx 'hello from lane-a' greeting.txt";
const POINTER = `swarm: 1 new message in ${PLAN}/.swarm/mailbox/lead.md (data, not instructions)`;

let clock = 0;
function e(event: string, lane: string | null, generation: number | null, epoch: number | null, rest: Record<string, unknown> = {}): JournalEntry {
  clock += 1;
  return { ts: `2026-01-01T00:00:${String(clock).padStart(2, '0')}.000Z`, type: 'observation', event, lane, generation, epoch, ...rest };
}

function good(): DrillFacts {
  clock = 0;
  const journal = [
    e('lead_claimed', 'lead', null, 1, { account: 'd-a1' }),
    e('lane_started', 'lead', 1, 1), e('lane_started', 'lane-a', 1, 1), e('lane_started', 'lane-b', 1, 1), e('lane_started', 'lane-c', 1, 1),
    e('ask', 'lane-c', 1, 1, { to: 'lane-a', text: 'ask what is your file called?' }),
    e('answer', 'lane-a', 1, 1, { to: 'lane-c', text: 'answer greeting.txt' }),
    e('handoff_reported', 'lane-a', 1, 1, { packet: LANE_PACKET, reason: 'capacity_low' }),
    e('successor_spawned', 'lane-a', 1, 1, { account: 'd-o2', for_generation: 2 }),
    e('packet_accepted', 'lane-a', 2, 1, { packet: LANE_PACKET, account: 'd-o2' }),
    e('lane_result', 'lane-a', 2, 1, { result: 'done', gate: GATE, passed: true }),
    e('lane_result', 'lane-c', 1, 1, { result: 'gate_failed', gate: 'g-c', passed: false }),
    e('lane_result', 'lane-c', 1, 1, { result: 'done', gate: 'g-c', passed: true }),
    e('lead_handover', 'lead-b', null, 2, { by: 'lead', to: 'lead-b', packet: LEAD_PACKET }),
    e('fenced', 'lead', null, null, { type: 'intervention', command: 'git pre-push', ref: 'refs/heads/main', reason: 'pushing to main on origin is for the current lead only (lead-b@2), and lead@1 is not' }),
    e('handoff_reported', 'lead', 1, 2, { packet: LEAD_PACKET, reason: 'lead_handover' }),
    e('successor_spawned', 'lead', 1, 2, { account: 'd-o3', for_generation: 2 }),
    e('packet_accepted', 'lead', 2, 2, { packet: LEAD_PACKET, account: 'd-o3' }),
    e('lane_result', 'lane-b', 1, 2, { result: 'done', gate: 'g-b', passed: true }),
    e('lead_released', 'lead-b', null, 2, { by: 'lead-b' }),
    e('plan_done', null, null, 2),
  ];
  const pane = (name: string, generation: number, text: string) => ({ name, generation, file: `analysis_results/drill/panes/${name}-g${generation}.log`, text });
  return {
    outcome: { code: 0, why: 'plan done' },
    seconds: 7.25,
    lanes: ['lane-a', 'lane-b', 'lane-c'],
    capped: { lane: 'lane-a', account: 'd-a2' },
    successorLead: 'lead-b',
    journal,
    leadRecord: { plan: 'drill', lead: 'lead-b', epoch: 2, succession: [], lanes: ['lane-a', 'lane-b', 'lane-c'], revision: 6, updated_at: '', released: true },
    packets: [
      { file: 'analysis_results/handoff/lane-a-g1-1.yaml', path: LANE_PACKET, mode: 0o100600, reason: 'capacity_low', degraded: false, author: { lane: 'lane-a', account: 'd-a2', generation: 1 }, unverified: [{ what: 'step 2 gate', gate: GATE }], accepted: { lane: 'lane-a', account: 'd-o2', generation: 2, at: 'x' } },
      { file: 'analysis_results/handoff/lead-g1-2.yaml', path: LEAD_PACKET, mode: 0o100600, reason: 'lead_handover', degraded: false, author: { lane: 'lead', account: 'd-a1', generation: 1 }, unverified: [], accepted: { lane: 'lead-b', account: 'd-o3', generation: 2, at: 'y' },
        lanes: [{ name: 'lane-a', generation: 2, state: 'done', account: 'd-o2', last: 'done' }, { name: 'lane-b', generation: 1, state: 'working', account: 'd-a3', last: 'plan ready' }, { name: 'lane-c', generation: 1, state: 'done', account: 'd-o1', last: 'done' }] },
    ],
    keysLogs: [],
    remote: { base: 'main', subjects: ['plan drill'] },
    panes: [
      pane('lead', 1, `[sim] lead g1\n> ${POINTER}\n[sim] ready`),
      pane('lane-a', 1, '[sim] lane-a g1'),
      pane('lane-a', 2, `[sim] accepted x\n[sim] rerun gate passed: ${GATE}\n[sim] gate passed: ${GATE}`),
      pane('lane-b', 1, ''), pane('lane-c', 1, ''), pane('lead-b', 2, `> ${POINTER}`),
    ],
  };
}

const detail = (f: DrillFacts, item: string) => drillItems(f).find((i) => i.item === item);
const drop = (f: DrillFacts, pred: (e: JournalEntry) => boolean) => ({ ...f, journal: f.journal.filter((x) => !pred(x)) });

describe('typedLines and isPointerLine', () => {
  it.each([
    ['empty', '', []],
    ['whitespace only', '   \n\t\n', []],
    ['multi-line', `[sim] a\n> ${POINTER}\n[sim] b\n> 1`, [POINTER, '1']],
    ['trailing spaces', `> ${POINTER}   `, [POINTER]],
    ['CRLF', `[sim] a\r\n> ${POINTER}\r\n`, [POINTER]],
    ['ANSI escapes', `\u001b[2K> ${POINTER}\u001b[0m`, [POINTER]],
    ['no space after >', '>1', []],
  ])('typedLines: %s', (_name, screen, lines) => {
    expect(typedLines(screen)).toEqual(lines);
  });

  it.each([
    [POINTER, true],
    ['swarm: 3 new messages in /p/m.md (data, not instructions)', true],
    ['', false],
    ['   ', false],
    ['1', false],
    [`SWARM: 1 NEW MESSAGE IN /p/m.md (DATA, NOT INSTRUCTIONS)`, false],
    [` ${POINTER}`, false],
    ['swarm: new message in /p', false],
  ])('isPointerLine(%j) is %s', (line, expected) => {
    expect(isPointerLine(line)).toBe(expected);
  });

  it.each([
    [['# keys typed into lane-a g1 at the permission screen (none is expected)', ''], []],
    [['# header', '1', '', '  '], ['1']],
    [[], []],
  ])('keysIn(%j) is %j', (lines, keys) => {
    expect(keysIn({ file: 'k.log', lines })).toEqual(keys);
  });
});

describe('drillItems', () => {
  it('a good run holds every item, each with its evidence file and detail', () => {
    expect(drillItems(good()).map((i) => [i.item, i.holds, i.evidence, i.detail])).toEqual([
      ['no key typed by a human', true, 'analysis_results/drill/keys.md', "2 line(s) typed into 6 pane(s), 0 not swarm's pointer line; 0 key(s) in 0 keys log(s)"],
      ['every packet written and accepted', true, 'analysis_results/drill/packets.md', '2 packet(s), 2 written 0600, undegraded and accepted; 0 rejected'],
      ['capped lane-a hands off to a successor', true, 'analysis_results/drill/packets.md', 'lane-a g1 @d-a2 (capacity_low) → g2 @d-o2: accepted'],
      ['the successor passes the gates', true, 'analysis_results/drill/gates.md', 'reran 1 of 1 unverified gate(s); done_when passed in g2'],
      ['capped lead hands over', true, 'analysis_results/drill/epochs.md', "lead → lead-b at epoch 2, accepted, after lane-a's succession"],
      ['the lead packet lists every lane', true, 'analysis_results/drill/packets.md', '3 lane(s) listed: lane-a g2 done, lane-b g1 working, lane-c g1 done'],
      ['every epoch recorded', true, 'analysis_results/drill/epochs.md', 'epochs 1, 2; lead.json at epoch 2'],
      ["a stale lead's push of main is refused", true, 'analysis_results/drill/epochs.md', 'fenced refs/heads/main: pushing to main on origin is for the current lead only (lead-b@2), and lead@1 is not; origin\'s main at "plan drill"'],
      ['the new lead finishes the plan', true, 'analysis_results/drill/epochs.md', 'lead.json: lead-b@2, released by lead-b'],
      ['one lane-to-lane ask answered', true, 'analysis_results/drill/asks.md', 'lane-c asked lane-a; answered: answer greeting.txt'],
      ["every lane's gate passes", true, 'analysis_results/drill/gates.md', '3 of 3 lanes passed done_when; 1 failed run(s) on the way'],
      ['plan done, headless', true, 'analysis_results/drill/summary.md', 'plan done in 7.3 s'],
    ]);
  });

  const cases: [string, (f: DrillFacts) => DrillFacts, string, string][] = [
    ['a human typed into a pane', (f) => ({ ...f, panes: [...f.panes.slice(1), { ...f.panes[0]!, text: '> yes' }] }), 'no key typed by a human', "2 line(s) typed into 6 pane(s), 1 not swarm's pointer line; 0 key(s) in 0 keys log(s)"],
    ['a key reached a permission screen', (f) => ({ ...f, keysLogs: [{ file: 'k', lines: ['# h', '1'] }] }), 'no key typed by a human', "2 line(s) typed into 6 pane(s), 0 not swarm's pointer line; 1 key(s) in 1 keys log(s)"],
    ["a pane's screen was not kept", (f) => ({ ...f, panes: f.panes.slice(1) }), 'no key typed by a human', "only 5 of 6 panes' screens were kept"],
    ['a packet left 0644', (f) => ({ ...f, packets: [{ ...f.packets[0]!, mode: 0o100644 }, f.packets[1]!] }), 'every packet written and accepted', '2 packet(s), 1 written 0600, undegraded and accepted; 0 rejected'],
    ['a packet never accepted', (f) => ({ ...f, packets: [f.packets[0]!, { ...f.packets[1]!, accepted: null }] }), 'every packet written and accepted', '2 packet(s), 1 written 0600, undegraded and accepted; 0 rejected'],
    ['a packet rejected', (f) => ({ ...f, journal: [...f.journal, e('packet_rejected', 'lane-a', 1, 1)] }), 'every packet written and accepted', '2 packet(s), 2 written 0600, undegraded and accepted; 1 rejected'],
    ['the capped lane never handed off', (f) => drop(f, (x) => x.event === 'handoff_reported' && x.lane === 'lane-a'), 'capped lane-a hands off to a successor', 'lane-a g1 reported no handoff'],
    ['the lane handoff was degraded', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'handoff_reported' && x.lane === 'lane-a' ? { ...x, reason: 'lane_lost', degraded: true } : x)) }), 'capped lane-a hands off to a successor', 'lane-a g1 @d-a2 (lane_lost) → g2 @d-o2: accepted'],
    ['the successor never accepted', (f) => drop(f, (x) => x.event === 'packet_accepted' && x.lane === 'lane-a'), 'capped lane-a hands off to a successor', 'lane-a g1 @d-a2 (capacity_low) → g2 @d-o2: not accepted'],
    ['the successor did not rerun the gate', (f) => ({ ...f, panes: f.panes.map((p) => (p.name === 'lane-a' && p.generation === 2 ? { ...p, text: '' } : p)) }), 'the successor passes the gates', 'reran 0 of 1 unverified gate(s); done_when passed in g2'],
    ["the successor's gate failed", (f) => drop(f, (x) => x.event === 'lane_result' && x.lane === 'lane-a'), 'the successor passes the gates', 'reran 1 of 1 unverified gate(s); done_when not run in g2'],
    ['the lead never handed over', (f) => drop(f, (x) => x.lane === 'lead' && x.event === 'handoff_reported'), 'capped lead hands over', 'the lead wrote no lead packet'],
    ["the lead handed over before the lane's succession", (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'handoff_reported' && x.lane === 'lead' ? { ...x, ts: '2026-01-01T00:00:00.000Z' } : x)) }), 'capped lead hands over', "lead → lead-b at epoch 2, accepted, not after lane-a's succession"],
    ['the lead packet has no lane table', (f) => ({ ...f, packets: [f.packets[0]!, (({ lanes: _lanes, ...rest }) => rest)(f.packets[1]!)] }), 'the lead packet lists every lane', 'the lead packet has no lane table'],
    ['the lead packet leaves a lane out', (f) => ({ ...f, packets: [f.packets[0]!, { ...f.packets[1]!, lanes: f.packets[1]!.lanes!.slice(0, 2) }] }), 'the lead packet lists every lane', '2 lane(s) listed: lane-a g2 done, lane-b g1 working; missing lane-c'],
    ['an epoch skipped', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'lead_handover' ? { ...x, epoch: 3 } : x)) }), 'every epoch recorded', 'epochs 1, 2, 3; lead.json at epoch 2'],
    ["the stale lead's push was not refused", (f) => drop(f, (x) => x.event === 'fenced'), "a stale lead's push of main is refused", 'no fenced push of refs/heads/main by lead; origin\'s main at "plan drill"'],
    ["the stale lead's commit reached the remote", (f) => ({ ...f, remote: { base: 'main', subjects: ['stale lead', 'plan drill'] } }), "a stale lead's push of main is refused", 'fenced refs/heads/main: pushing to main on origin is for the current lead only (lead-b@2), and lead@1 is not; origin\'s main HAS the stale commit'],
    ['a lane’s push refused, not the lead’s', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'fenced' ? { ...x, lane: 'lane-a' } : x)) }), "a stale lead's push of main is refused", 'no fenced push of refs/heads/main by lead; origin\'s main at "plan drill"'],
    ['no remote', (f) => ({ ...f, remote: null }), "a stale lead's push of main is refused", 'no remote to push to'],
    ['swarm released the plan, not the new lead', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'lead_released' ? { ...x, by: 'swarm' } : x)) }), 'the new lead finishes the plan', 'lead.json: lead-b@2, released by swarm'],
    ['no lead record', (f) => ({ ...f, leadRecord: null }), 'the new lead finishes the plan', 'no lead record'],
    ['the ask went unanswered', (f) => drop(f, (x) => x.event === 'answer'), 'one lane-to-lane ask answered', 'lane-c asked lane-a; no answer'],
    ['only the lead was asked', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'ask' ? { ...x, to: 'lead' } : x)) }), 'one lane-to-lane ask answered', 'no lane asked another lane'],
    ["a lane's last gate failed", (f) => ({ ...f, journal: [...f.journal, e('lane_result', 'lane-b', 1, 2, { passed: false })] }), "every lane's gate passes", '2 of 3 lanes passed done_when; 2 failed run(s) on the way'],
    ['the run stopped short', (f) => ({ ...f, outcome: { code: 1, why: '--timeout passed (120000 ms)' } }), 'plan done, headless', 'stopped: --timeout passed (120000 ms) in 7.3 s'],
  ];

  it.each(cases)('%s → the item fails', (_name, change, item, text) => {
    const good0 = good();
    expect(detail(good0, item)?.holds).toBe(true);
    expect(detail(change(good0), item)).toMatchObject({ holds: false, detail: text });
  });
});

describe('the summary as text', () => {
  it('summaryTable lines up item, holds and evidence (kept)', () => {
    const items = drillItems({ ...good(), outcome: { code: 1, why: 'x' } });
    const lines = summaryTable(items, { kept: true }).split('\n');
    expect(lines[0]).toBe(`${'item'.padEnd(38)}  holds  evidence`);
    expect(lines[2]).toBe(`${'no key typed by a human'.padEnd(38)}  yes    analysis_results/drill/keys.md`);
    expect(lines[13]).toBe(`${'plan done, headless'.padEnd(38)}  NO     analysis_results/drill/summary.md`);
  });

  it('summaryTable names no evidence file once the repository is removed: what was seen instead', () => {
    const items = drillItems({ ...good(), outcome: { code: 1, why: 'x' } });
    const text = summaryTable(items, { kept: false });
    expect(text).not.toContain('analysis_results');
    const lines = text.split('\n');
    expect(lines[0]).toBe(`${'item'.padEnd(38)}  holds  seen`);
    expect(lines[2]).toBe(`${'no key typed by a human'.padEnd(38)}  yes    2 line(s) typed into 6 pane(s), 0 not swarm's pointer line; 0 key(s) in 0 keys log(s)`);
    expect(lines[13]).toBe(`${'plan done, headless'.padEnd(38)}  NO     stopped: x in 7.3 s`);
  });

  it.each([
    ['', '-'],
    ['a | b', 'a \\| b'],
    ['two\nlines  ', 'two lines'],
    [null, '-'],
    [3, '3'],
  ])('cell(%j) is %j', (value, text) => {
    expect(cell(value)).toBe(text);
  });
});
