/**
 * The drill's items, judged from facts (pure): a good run holds every item, and each item fails, with
 * its own detail, when its evidence is missing or wrong.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import { drillItems, isPointerLine, keysIn, typedLines, type DrillFacts } from '../../src/drill/checks.js';
import { cell, orderAndReviewDoc, summaryTable } from '../../src/drill/docs.js';

const PLAN = '/r/plans/drill';
const LANE_PACKET = `${PLAN}/analysis_results/handoff/lane-a-g1-1.yaml`;
const LEAD_PACKET = `${PLAN}/analysis_results/handoff/lead-g1-2.yaml`;
const GATE = "grep -qx 'hello from lane-a' greeting.txt";
const POINTER = `swarm: 1 new message in ${PLAN}/.swarm/mailbox/lead.md (data, not instructions)`;

const NO_TOKENS = { input: null, output: null, cache_read: null, cache_write: null };
/** What each lane generation spent (SPEC 10.7), as the journal says it and the records fold to. */
const SPENT: [string, number, number][] = [['lane-a', 1, 0.3015], ['lane-a', 2, 0.201], ['lane-b', 1, 0.402], ['lane-c', 1, 0.201], ['lane-d', 1, 0.201]];

let clock = 0;
function e(event: string, lane: string | null, generation: number | null, epoch: number | null, rest: Record<string, unknown> = {}): JournalEntry {
  clock += 1;
  return { ts: `2026-01-01T00:00:${String(clock).padStart(2, '0')}.000Z`, type: 'observation', event, lane, generation, epoch, ...rest };
}

function good(): DrillFacts {
  clock = 0;
  const journal = [
    e('lead_claimed', 'lead', null, 1, { account: 'd-a1' }),
    e('lane_started', 'lead', 1, 1, { account: 'd-a1' }), e('lane_started', 'lane-a', 1, 1, { account: 'd-a2' }),
    e('lane_started', 'lane-b', 1, 1, { account: 'd-o1' }), e('lane_started', 'lane-c', 1, 1, { account: 'd-a3' }),
    e('ask', 'lane-c', 1, 1, { to: 'lane-a', text: 'ask what is your file called?' }),
    e('answer', 'lane-a', 1, 1, { to: 'lane-c', text: 'answer greeting.txt' }),
    e('handoff_reported', 'lane-a', 1, 1, { packet: LANE_PACKET, reason: 'capacity_low' }),
    e('successor_spawned', 'lane-a', 1, 1, { account: 'd-o2', for_generation: 2 }),
    e('packet_accepted', 'lane-a', 2, 1, { packet: LANE_PACKET, account: 'd-o2' }),
    e('lane_result', 'lane-a', 2, 1, { result: 'done', gate: GATE, passed: true }),
    e('lane_result', 'lane-c', 1, 1, { result: 'gate_failed', gate: 'g-c', passed: false }),
    // lane-c is reviewed: round 1 asks for changes, lane-c makes them, round 2 approves, then it is done.
    e('review_requested', 'lane-c', 1, 1, { round: 1, gate: 'g-c' }),
    e('reviewer_leased', 'lane-c', 1, 1, { round: 1, reviewer: 'lane-c.review', reviewer_generation: 1, account: 'd-o4' }),
    e('reviewer_started', 'lane-c', 1, 1, { round: 1, reviewer: 'lane-c.review', reviewer_generation: 1, account: 'd-o4', paneId: '%7' }),
    e('review_verdict', 'lane-c', 1, 1, { round: 1, reviewer: 'lane-c.review', reviewer_generation: 1, account: 'd-o4', verdict: 'changes', what: "name lane-d's file" }),
    e('lease_released', 'lane-c', 1, 1, { account: 'd-o4', reviewer: 'lane-c.review', reviewer_generation: 1 }),
    e('review_requested', 'lane-c', 1, 1, { round: 2, gate: 'g-c' }),
    e('reviewer_leased', 'lane-c', 1, 1, { round: 2, reviewer: 'lane-c.review', reviewer_generation: 2, account: 'd-o4' }),
    e('reviewer_started', 'lane-c', 1, 1, { round: 2, reviewer: 'lane-c.review', reviewer_generation: 2, account: 'd-o4', paneId: '%9' }),
    e('review_verdict', 'lane-c', 1, 1, { round: 2, reviewer: 'lane-c.review', reviewer_generation: 2, account: 'd-o4', verdict: 'approved' }),
    e('lease_released', 'lane-c', 1, 1, { account: 'd-o4', reviewer: 'lane-c.review', reviewer_generation: 2 }),
    e('lane_result', 'lane-c', 1, 1, { result: 'done', gate: 'g-c', passed: true }),
    e('lead_handover', 'lead-b', null, 2, { by: 'lead', to: 'lead-b', packet: LEAD_PACKET }),
    e('fenced', 'lead', null, null, { type: 'intervention', command: 'git pre-push', ref: 'refs/heads/main', reason: 'pushing to main on origin is for the current lead only (lead-b@2), and lead@1 is not' }),
    e('handoff_reported', 'lead', 1, 2, { packet: LEAD_PACKET, reason: 'lead_handover' }),
    e('successor_spawned', 'lead', 1, 2, { account: 'd-o3', for_generation: 2 }),
    e('packet_accepted', 'lead', 2, 2, { packet: LEAD_PACKET, account: 'd-o3' }),
    e('lane_result', 'lane-b', 1, 2, { result: 'done', gate: 'g-b', passed: true }),
    // lane-d is after lane-b: it starts once lane-b is done.
    e('dependencies_done', 'lane-d', null, 2, { after: ['lane-b'] }),
    e('lane_started', 'lane-d', 1, 2, { account: 'd-a4' }),
    e('lane_result', 'lane-d', 1, 2, { result: 'done', gate: 'g-d', passed: true }),
    e('lead_released', 'lead-b', null, 2, { by: 'lead-b' }),
    ...SPENT.map(([lane, generation, cost]) => e('generation_spent', lane, generation, 2, { cost_usd: cost, end: 'done' })),
    e('plan_done', null, null, 2),
  ];
  const pane = (name: string, generation: number, text: string) => ({ name, generation, file: `analysis_results/drill/panes/${name}-g${generation}.log`, text });
  return {
    outcome: { code: 0, why: 'plan done' },
    seconds: 7.25,
    lanes: ['lane-a', 'lane-b', 'lane-c', 'lane-d'],
    capped: { lane: 'lane-a', account: 'd-a2' },
    successorLead: 'lead-b',
    journal,
    leadRecord: { plan: 'drill', lead: 'lead-b', epoch: 2, succession: [], lanes: ['lane-a', 'lane-b', 'lane-c', 'lane-d'], revision: 6, updated_at: '', released: true },
    packets: [
      { file: 'analysis_results/handoff/lane-a-g1-1.yaml', path: LANE_PACKET, mode: 0o100600, reason: 'capacity_low', degraded: false, author: { lane: 'lane-a', account: 'd-a2', generation: 1 }, unverified: [{ what: 'step 2 gate', gate: GATE }], accepted: { lane: 'lane-a', account: 'd-o2', generation: 2, at: 'x' } },
      { file: 'analysis_results/handoff/lead-g1-2.yaml', path: LEAD_PACKET, mode: 0o100600, reason: 'lead_handover', degraded: false, author: { lane: 'lead', account: 'd-a1', generation: 1 }, unverified: [], accepted: { lane: 'lead-b', account: 'd-o3', generation: 2, at: 'y' },
        lanes: [{ name: 'lane-a', generation: 2, state: 'done', account: 'd-o2', last: 'done' }, { name: 'lane-b', generation: 1, state: 'working', account: 'd-a3', last: 'plan ready' }, { name: 'lane-c', generation: 1, state: 'done', account: 'd-o1', last: 'done' }, { name: 'lane-d', generation: 1, state: 'waiting', account: null, last: null }] },
    ],
    keysLogs: [],
    remote: { base: 'main', subjects: ['plan drill'] },
    order: [{ lane: 'lane-d', after: ['lane-b'] }],
    reviewed: ['lane-c'],
    vendors: Object.fromEntries(['a1', 'a2', 'a3', 'a4', 'o1', 'o2', 'o3', 'o4'].map((n) => [`d-${n}`, n.startsWith('a') ? 'anthropic-sim' : 'openai-sim'])),
    leadAccount: 'd-a1',
    spend: {
      total: { cost_usd: 1.3065, tokens: NO_TOKENS },
      generations: SPENT.map(([lane, generation, cost]) => ({
        lane, agent: lane, generation, session_id: 's', account: 'd-a2', vendor: 'anthropic-sim', started: null, ended: 'x', end: 'done' as const,
        turns: 3, tokens: NO_TOKENS, cost_usd: cost, context_pct_at_end: null, capacity_start: null, capacity_end: null,
      })),
      lanes: [], accounts: [], vendors: [], cumulative: [],
    },
    panes: [
      pane('lead', 1, `[sim] lead g1\n> ${POINTER}\n[sim] ready`),
      pane('lane-a', 1, '[sim] lane-a g1'),
      pane('lane-a', 2, `[sim] accepted x\n[sim] rerun gate passed: ${GATE}\n[sim] gate passed: ${GATE}`),
      pane('lane-b', 1, ''), pane('lane-c', 1, ''), pane('lead-b', 2, `> ${POINTER}`), pane('lane-d', 1, ''),
      pane('lane-c.review', 1, '[sim] verdict on lane-c: changes'), pane('lane-c.review', 2, '[sim] verdict on lane-c: approved'),
    ],
  };
}

const detail = (f: DrillFacts, item: string) => drillItems(f).find((i) => i.item === item);
const drop = (f: DrillFacts, pred: (e: JournalEntry) => boolean) => ({ ...f, journal: f.journal.filter((x) => !pred(x)) });
/** The journal with the entry `moved` put just before the entry `before`. */
function moveBefore(journal: JournalEntry[], moved: (e: JournalEntry) => boolean, before: (e: JournalEntry) => boolean): JournalEntry[] {
  const entry = journal.find(moved)!;
  return journal.filter((x) => x !== entry).flatMap((x) => (before(x) ? [entry, x] : [x]));
}
/** lane-c's verdict of `round` changed (and the vendors, when given). */
const verdict = (f: DrillFacts, round: number, change: Record<string, unknown>, vendors = f.vendors): DrillFacts =>
  ({ ...f, vendors, journal: f.journal.map((x) => (x.event === 'review_verdict' && x.round === round ? { ...x, ...change } : x)) });

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
      ['no key typed by a human', true, 'analysis_results/drill/keys.md', "2 line(s) typed into 9 pane(s), 0 not swarm's pointer line; 0 key(s) in 0 keys log(s)"],
      ['every packet written and accepted', true, 'analysis_results/drill/packets.md', '2 packet(s), 2 written 0600, undegraded and accepted; 0 rejected'],
      ['capped lane-a hands off to a successor', true, 'analysis_results/drill/packets.md', 'lane-a g1 @d-a2 (capacity_low) → g2 @d-o2: accepted'],
      ['the successor passes the gates', true, 'analysis_results/drill/gates.md', 'reran 1 of 1 unverified gate(s); done_when passed in g2'],
      ['capped lead hands over', true, 'analysis_results/drill/epochs.md', "lead → lead-b at epoch 2, accepted, after lane-a's succession"],
      ['the lead packet lists every lane', true, 'analysis_results/drill/packets.md', '4 lane(s) listed: lane-a g2 done, lane-b g1 working, lane-c g1 done, lane-d g1 waiting'],
      ['every epoch recorded', true, 'analysis_results/drill/epochs.md', 'epochs 1, 2; lead.json at epoch 2'],
      ["a stale lead's push of main is refused", true, 'analysis_results/drill/epochs.md', 'fenced refs/heads/main: pushing to main on origin is for the current lead only (lead-b@2), and lead@1 is not; origin\'s main at "plan drill"'],
      ['the new lead finishes the plan', true, 'analysis_results/drill/epochs.md', 'lead.json: lead-b@2, released by lead-b'],
      ['one lane-to-lane ask answered', true, 'analysis_results/drill/asks.md', 'lane-c asked lane-a; answered: answer greeting.txt'],
      ['a dependent lane starts only after its dependencies are done', true, 'analysis_results/drill/order-and-review.md', 'lane-d started after lane-b was done'],
      ['a reviewed lane is done only once another vendor approves', true, 'analysis_results/drill/order-and-review.md', 'lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim), round 2 approved by g2 @d-o4 (openai-sim); done after approval'],
      ["every lane's gate passes", true, 'analysis_results/drill/gates.md', '4 of 4 lanes passed done_when; 1 failed run(s) on the way'],
      ['plan done, headless', true, 'analysis_results/drill/summary.md', 'plan done in 7.3 s'],
      ["each generation's spend kept to the cent", true, 'analysis_results/drill/spend.md', '$1.31 over 5 generation(s); 5 ended, each journaled with the cost its records add up to'],
    ]);
  });

  const cases: [string, (f: DrillFacts) => DrillFacts, string, string][] = [
    ['the engine journaled another cost than the records add up to', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'generation_spent' && x.lane === 'lane-b' ? { ...x, cost_usd: 0.8 } : x)) }), "each generation's spend kept to the cent", "the engine's ledger and the agents' records differ for lane-b g1"],
    ['a generation that ended was never journaled', (f) => drop(f, (x) => x.event === 'generation_spent' && x.lane === 'lane-d'), "each generation's spend kept to the cent", "the engine's ledger and the agents' records differ for lane-d g1"],
    ['no agent told a cost', (f) => ({ ...f, spend: { ...f.spend, total: { cost_usd: null, tokens: NO_TOKENS } } }), "each generation's spend kept to the cent", 'no cost over 5 generation(s); 5 ended, each journaled with the cost its records add up to'],
    ['a lane told no usage', (f) => ({ ...f, spend: { ...f.spend, generations: f.spend.generations.filter((g) => g.lane !== 'lane-d') } }), "each generation's spend kept to the cent", 'no usage told by lane-d'],
    ['a human typed into a pane', (f) => ({ ...f, panes: [...f.panes.slice(1), { ...f.panes[0]!, text: '> yes' }] }), 'no key typed by a human', "2 line(s) typed into 9 pane(s), 1 not swarm's pointer line; 0 key(s) in 0 keys log(s)"],
    ['a key reached a permission screen', (f) => ({ ...f, keysLogs: [{ file: 'k', lines: ['# h', '1'] }] }), 'no key typed by a human', "2 line(s) typed into 9 pane(s), 0 not swarm's pointer line; 1 key(s) in 1 keys log(s)"],
    ["a pane's screen was not kept", (f) => ({ ...f, panes: f.panes.filter((p) => !p.name.endsWith('.review')).slice(1) }), 'no key typed by a human', "only 6 of 7 panes' screens were kept"],
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
    ['the lead packet leaves a lane out', (f) => ({ ...f, packets: [f.packets[0]!, { ...f.packets[1]!, lanes: f.packets[1]!.lanes!.slice(0, 2) }] }), 'the lead packet lists every lane', '2 lane(s) listed: lane-a g2 done, lane-b g1 working; missing lane-c, lane-d'],
    ['an epoch skipped', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'lead_handover' ? { ...x, epoch: 3 } : x)) }), 'every epoch recorded', 'epochs 1, 2, 3; lead.json at epoch 2'],
    ["the stale lead's push was not refused", (f) => drop(f, (x) => x.event === 'fenced'), "a stale lead's push of main is refused", 'no fenced push of refs/heads/main by lead; origin\'s main at "plan drill"'],
    ["the stale lead's commit reached the remote", (f) => ({ ...f, remote: { base: 'main', subjects: ['stale lead', 'plan drill'] } }), "a stale lead's push of main is refused", 'fenced refs/heads/main: pushing to main on origin is for the current lead only (lead-b@2), and lead@1 is not; origin\'s main HAS the stale commit'],
    ['a lane’s push refused, not the lead’s', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'fenced' ? { ...x, lane: 'lane-a' } : x)) }), "a stale lead's push of main is refused", 'no fenced push of refs/heads/main by lead; origin\'s main at "plan drill"'],
    ['no remote', (f) => ({ ...f, remote: null }), "a stale lead's push of main is refused", 'no remote to push to'],
    ['swarm released the plan, not the new lead', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'lead_released' ? { ...x, by: 'swarm' } : x)) }), 'the new lead finishes the plan', 'lead.json: lead-b@2, released by swarm'],
    ['no lead record', (f) => ({ ...f, leadRecord: null }), 'the new lead finishes the plan', 'no lead record'],
    ['the ask went unanswered', (f) => drop(f, (x) => x.event === 'answer'), 'one lane-to-lane ask answered', 'lane-c asked lane-a; no answer'],
    ['only the lead was asked', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'ask' ? { ...x, to: 'lead' } : x)) }), 'one lane-to-lane ask answered', 'no lane asked another lane'],
    ['lane-d started before lane-b was done', (f) => ({ ...f, journal: f.journal.map((x) => (x.event === 'lane_started' && x.lane === 'lane-d' ? { ...x, ts: '2026-01-01T00:00:09.500Z' } : x)) }), 'a dependent lane starts only after its dependencies are done', 'lane-d started before lane-b was done'],
    ['lane-d started though lane-b was never done', (f) => drop(f, (x) => x.event === 'lane_result' && x.lane === 'lane-b'), 'a dependent lane starts only after its dependencies are done', 'lane-d started though lane-b was never done'],
    ['lane-d never started', (f) => drop(f, (x) => x.event === 'lane_started' && x.lane === 'lane-d'), 'a dependent lane starts only after its dependencies are done', 'lane-d never started'],
    ['no dependencies_done journaled', (f) => drop(f, (x) => x.event === 'dependencies_done'), 'a dependent lane starts only after its dependencies are done', 'lane-d started after lane-b was done; no dependencies_done journaled'],
    ['no lane is after another', (f) => ({ ...f, order: [] }), 'a dependent lane starts only after its dependencies are done', 'no lane is after another'],
    ['the only verdict is changes', (f) => drop(f, (x) => x.event === 'review_verdict' && x.round === 2), 'a reviewed lane is done only once another vendor approves', 'lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim); done with no approval; the last verdict (round 1) is changes'],
    ['no verdict at all', (f) => drop(f, (x) => x.event === 'review_verdict'), 'a reviewed lane is done only once another vendor approves', 'lane-c: no verdict; done with no approval'],
    ["a verdict from the lane's own vendor", (f) => verdict(f, 1, { account: 'd-a4' }), 'a reviewed lane is done only once another vendor approves', "lane-c: round 1 changes by lane-c.review g1 @d-a4 (anthropic-sim), round 2 approved by g2 @d-o4 (openai-sim); done after approval; round 1's reviewer @d-a4 is of the lane's own vendor anthropic-sim (lane-c @d-a3)"],
    ["a verdict from the vendor the lane moved to", (f) => ({ ...f, journal: moveBefore([...f.journal, e('successor_spawned', 'lane-c', 1, 1, { account: 'd-o2', for_generation: 2 })], (x) => x.event === 'successor_spawned' && x.lane === 'lane-c', (x) => x.event === 'review_requested' && x.round === 2) }), 'a reviewed lane is done only once another vendor approves', "lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim), round 2 approved by g2 @d-o4 (openai-sim); done after approval; round 2's reviewer @d-o4 is of the lane's own vendor openai-sim (lane-c @d-o2)"],
    ["a verdict on the lead's account", (f) => verdict(f, 2, { account: 'd-a1' }, { ...f.vendors, 'd-a1': 'openai-sim' }), 'a reviewed lane is done only once another vendor approves', "lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim), round 2 approved by g2 @d-a1 (openai-sim); done after approval; round 2's reviewer @d-a1 is on the lead's account"],
    ["a verdict on the new lead's account", (f) => { const g = verdict(f, 2, { account: 'd-o3' }); return { ...g, journal: moveBefore(g.journal, (x) => x.event === 'successor_spawned' && x.lane === 'lead', (x) => x.event === 'review_requested' && x.round === 2) }; }, 'a reviewed lane is done only once another vendor approves', "lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim), round 2 approved by g2 @d-o3 (openai-sim); done after approval; round 2's reviewer @d-o3 is on the lead's account"],
    ['done before approval', (f) => ({ ...f, journal: moveBefore(f.journal, (x) => x.event === 'lane_result' && x.lane === 'lane-c' && x.passed === true, (x) => x.event === 'review_verdict' && x.round === 2) }), 'a reviewed lane is done only once another vendor approves', 'lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim), round 2 approved by g2 @d-o4 (openai-sim); done before approval'],
    ['not done after the approval', (f) => drop(f, (x) => x.event === 'lane_result' && x.lane === 'lane-c' && x.passed === true), 'a reviewed lane is done only once another vendor approves', 'lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim), round 2 approved by g2 @d-o4 (openai-sim); not done'],
    ['an ignored verdict (with why) is no approval', (f) => verdict(f, 2, { why: 'reviewer g2 is not the one in flight' }), 'a reviewed lane is done only once another vendor approves', 'lane-c: round 1 changes by lane-c.review g1 @d-o4 (openai-sim); done with no approval; the last verdict (round 1) is changes'],
    ['no lane is reviewed', (f) => ({ ...f, reviewed: [] }), 'a reviewed lane is done only once another vendor approves', 'no lane is reviewed'],
    ["a lane's last gate failed", (f) => ({ ...f, journal: [...f.journal, e('lane_result', 'lane-b', 1, 2, { passed: false })] }), "every lane's gate passes", '3 of 4 lanes passed done_when; 2 failed run(s) on the way'],
    ['the run stopped short', (f) => ({ ...f, outcome: { code: 1, why: '--timeout passed (120000 ms)' } }), 'plan done, headless', 'stopped: --timeout passed (120000 ms) in 7.3 s'],
  ];

  it.each(cases)('%s → the item fails', (_name, change, item, text) => {
    const good0 = good();
    expect(detail(good0, item)?.holds).toBe(true);
    expect(detail(change(good0), item)).toMatchObject({ holds: false, detail: text });
  });

  const ORDER_AND_REVIEW = ['a dependent lane starts only after its dependencies are done', 'a reviewed lane is done only once another vendor approves'];
  // A lane never done fails the gates item too, as it should.
  const alsoGates = new Set(['lane-d started though lane-b was never done', 'not done after the approval']);
  it.each(cases.filter(([, , item]) => ORDER_AND_REVIEW.includes(item)))('%s → no other item fails', (name, change, item) => {
    expect(drillItems(change(good())).filter((i) => !i.holds).map((i) => i.item)).toEqual([item, ...(alsoGates.has(name) ? ["every lane's gate passes"] : [])]);
  });
});

describe('the summary as text', () => {
  it('summaryTable lines up item, holds and evidence (kept)', () => {
    const items = drillItems({ ...good(), outcome: { code: 1, why: 'x' } });
    const lines = summaryTable(items, { kept: true }).split('\n');
    expect(lines[0]).toBe(`${'item'.padEnd(60)}  holds  evidence`);
    expect(lines[2]).toBe(`${'no key typed by a human'.padEnd(60)}  yes    analysis_results/drill/keys.md`);
    expect(lines[15]).toBe(`${'plan done, headless'.padEnd(60)}  NO     analysis_results/drill/summary.md`);
  });

  it('summaryTable names no evidence file once the repository is removed: what was seen instead', () => {
    const items = drillItems({ ...good(), outcome: { code: 1, why: 'x' } });
    const text = summaryTable(items, { kept: false });
    expect(text).not.toContain('analysis_results');
    const lines = text.split('\n');
    expect(lines[0]).toBe(`${'item'.padEnd(60)}  holds  seen`);
    expect(lines[2]).toBe(`${'no key typed by a human'.padEnd(60)}  yes    2 line(s) typed into 9 pane(s), 0 not swarm's pointer line; 0 key(s) in 0 keys log(s)`);
    expect(lines[15]).toBe(`${'plan done, headless'.padEnd(60)}  NO     stopped: x in 7.3 s`);
  });

  it('order-and-review.md: the dependent lane with its times, each review round with reviewer, account, vendor, verdict and changes', () => {
    const text = orderAndReviewDoc(good());
    expect(text).toContain('| lane-d | lane-b | 2026-01-01T00:00:29.000Z | 2026-01-01T00:00:30.000Z | 2026-01-01T00:00:31.000Z | d-a4 |');
    expect(text).toContain("| lane-c | 1 | lane-c.review g1 | d-o4 | openai-sim | d-a3 (anthropic-sim) | no | changes | name lane-d's file | 2026-01-01T00:00:16.000Z |");
    expect(text).toContain('| lane-c | 2 | lane-c.review g2 | d-o4 | openai-sim | d-a3 (anthropic-sim) | no | approved | - | 2026-01-01T00:00:21.000Z |');
    expect(text).toContain('| lane-c | 2026-01-01T00:00:23.000Z |');
    expect(text).toContain('No verdict was ignored.');
    const f = good();
    const ignored = orderAndReviewDoc({ ...f, journal: [...f.journal, e('review_verdict', 'lane-c', 1, 2, { why: 'no review is running' })] });
    expect(ignored).toMatch(/^Verdicts swarm ignored \(not counted\): \S+ lane-c: no review is running\.$/m);
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
