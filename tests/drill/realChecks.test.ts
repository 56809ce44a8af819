import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import type { PacketFact } from '../../src/drill/checks.js';
import { PAUSE, PAUSED } from '../../src/drill/mock/brain.js';
import type { MockAction, MockEntry } from '../../src/drill/mock/types.js';
import { realItems, resumedBy, type MockRequest, type RealFacts, type ResumeFacts } from '../../src/drill/realChecks.js';

const packet = (lane: string, account: string, reason: string, degraded: boolean, by: string | null): PacketFact => ({
  file: `${lane}.yaml`, path: `/p/${lane}.yaml`, mode: 0o600, reason, degraded, unverified: [],
  author: { lane, account, generation: 1 },
  accepted: by === null ? null : { lane, account: by, generation: 2, at: 't' },
});
const e = (event: string, lane: string, extra: Record<string, unknown> = {}): JournalEntry => ({ ts: 't', epoch: 1, type: 'observation', event, lane, ...extra }) as JournalEntry;

function facts(over: Partial<RealFacts> = {}): RealFacts {
  return {
    outcome: { code: 0, why: 'every lane done or blocked' }, seconds: 40, lanes: ['lc', 'lo', 'll', 'lp', 'lr'],
    capped: { lane: '', account: '' }, successorLead: '', leadRecord: null, keysLogs: [], panes: [], remote: null,
    order: [], reviewed: [], vendors: {}, leadAccount: '',
    spend: { total: { cost_usd: null, tokens: { input: null, output: null, cache_read: null, cache_write: null } }, generations: [], lanes: [], accounts: [], vendors: [], cumulative: [] },
    journal: [
      e('lane_result', 'lc', { result: 'done', passed: true, generation: 2 }),
      e('lane_result', 'lo', { result: 'done', passed: true, generation: 2 }),
      e('packet_published', 'lo', { generation: 1, from: '/p/.swarm/spool/r1/lo-g1/packets/lo.yaml', packet: '/p/lo.yaml' }),
      e('lane_started', 'lp', { account: 'c4' }),
      e('escalation', 'lp', { class: 'permission', what: 'a permission screen' }),
      e('lane_started', 'lr', { account: 'c5' }),
      e('review_requested', 'lr', { round: 1 }),
      e('review_verdict', 'lr', { round: 1, verdict: 'approved', account: 'o4', reviewer: 'lr.review', reviewer_generation: 1 }),
      e('lease_released', 'lr', { account: 'o4', reviewer: 'lr.review', reviewer_generation: 1 }),
      e('lane_result', 'lr', { result: 'done', passed: true, generation: 1 }),
    ],
    packets: [packet('lc', 'c1', 'capacity_critical', false, 'o2'), packet('lo', 'o1', 'capacity_critical', false, 'c2'), packet('ll', 'c3', 'usage_limit', true, 'o3')],
    laneStates: { lc: 'done', lo: 'done', ll: 'done', lp: 'blocked', lr: 'done' },
    kinds: { c1: 'claude', c2: 'claude', c3: 'claude', c4: 'claude', c5: 'claude', o1: 'codex', o2: 'codex', o3: 'codex', o4: 'codex' },
    requests: [
      { vendor: 'claude', account: 'c3', path: '/v1/messages', status: 429 },
      { vendor: 'claude', account: 'c4', path: '/v1/messages', status: 200, action: { kind: 'shell', command: 'git push origin HEAD' } },
      { vendor: 'codex', account: 'o4', path: '/v1/responses', status: 200, action: { kind: 'shell', command: 'git -C /w/wt-lr diff main...HEAD' } },
      { vendor: 'codex', account: 'o4', path: '/v1/responses', status: 200, action: { kind: 'shell', command: 'swarm notify lead approved' } },
    ],
    limited: ['c3'],
    resume: null,
    ...over,
  };
}
const ROLES = { claudeQuota: 'lc', codexQuota: 'lo', rateLimited: 'll', permission: 'lp', reviewed: 'lr' };
const holds = (f: RealFacts) => realItems(f, ROLES).map((i) => i.holds);

describe('realItems', () => {
  it('every item holds on a full run', () => expect(holds(facts())).toEqual([true, true, true, true, true]));

  it.each([
    ['the successor on the same vendor', { packets: [packet('lc', 'c1', 'capacity_critical', false, 'c2'), ...facts().packets.slice(1)] }, 0],
    ['a degraded packet instead of the lane’s own', { packets: [packet('lc', 'c1', 'capacity_critical', true, 'o2'), ...facts().packets.slice(1)] }, 0],
    ['the codex lane not done', { laneStates: { ...facts().laneStates, lo: 'working' } }, 1],
    ['the codex lane\'s packet not written sandboxed (never published from its spool)', { journal: facts().journal.filter((x) => x.event !== 'packet_published') }, 1],
    ['the limited account not marked', { limited: [] }, 2],
    ['no 429 from the mock', { requests: facts().requests.slice(1) }, 2],
    ['the blocked command ran after all (its result reached the mock)', { requests: [...facts().requests, { vendor: 'claude' as const, account: 'c4', path: '/v1/messages', status: 200, action: { kind: 'say' as const, text: 'pushed' } }] }, 3],
    ['another lane unfinished', { laneStates: { ...facts().laneStates, ll: 'blocked' } }, 3],
    ['the reviewer on a claude account', { kinds: { ...facts().kinds, o4: 'claude' } }, 4],
    ['a verdict swarm ignored (why) is no approval', { journal: facts().journal.map((x) => (x.event === 'review_verdict' ? { ...x, why: 'stale' } : x)) }, 4],
    ['changes, not approved', { journal: facts().journal.map((x) => (x.event === 'review_verdict' ? { ...x, verdict: 'changes' } : x)) }, 4],
    ['the reviewer never read the diff', { requests: facts().requests.filter((r) => !(r.action?.kind === 'shell' && r.action.command.startsWith('git -C'))) }, 4],
    ['done before the approval', { journal: [...facts().journal.filter((x) => !(x.lane === 'lr' && x.event === 'lane_result')).slice(0, -3), e('lane_result', 'lr', { result: 'done', passed: true }), ...facts().journal.filter((x) => x.lane === 'lr' && x.event !== 'lane_result').slice(-3)] }, 4],
    ['the reviewer\'s lease kept', { journal: facts().journal.filter((x) => x.event !== 'lease_released') }, 4],
  ])('%s: that item does not hold', (_name, over, index) => {
    const got = holds(facts(over as Partial<RealFacts>));
    expect(got[index]).toBe(false);
  });

  it('only the roles asked for', () => expect(realItems(facts(), { claudeQuota: 'lc' }).map((i) => i.item)).toEqual(['claude quota: lc hands off to codex, done']));
});

describe('the resume item (SPEC 10.8): the tmux server killed, each lane resumes its own session', () => {
  const FIRST = 'You are rc in swarm p. Read your prompt file /p/.swarm/prompts/rc-g1.md ($SWARM_PROMPT_FILE) and follow it.';
  const POINTER = 'You are rc g1 in swarm p, resumed in your own session: … go on with your task and report as before.';
  const STEP = `sh -c 'echo hi > a.txt && echo "${PAUSE}"'`;
  /** The conversation up to the pause: the prompt file read, a capacity reading, the step. */
  const upToPause: MockEntry[] = [
    { role: 'user', text: FIRST },
    { role: 'tool_call', id: '1', command: 'cat /p/.swarm/prompts/rc-g1.md' }, { role: 'tool_result', id: '1', output: 'task', isError: false },
    { role: 'tool_call', id: '2', command: 'swarm capacity --self --json' }, { role: 'tool_result', id: '2', output: '{}', isError: false },
    { role: 'tool_call', id: '3', command: STEP }, { role: 'tool_result', id: '3', output: `${PAUSE}\n`, isError: false },
  ];
  const carried: MockEntry[] = [...upToPause, { role: 'assistant', text: PAUSED }, { role: 'user', text: POINTER }];
  /** Claude Code's system prompt carries swarm's protocol brief (`--append-system-prompt-file`); Codex's does not. */
  const turn = (vendor: 'claude' | 'codex', account: string, entries: MockEntry[], action: MockAction, protocol = vendor === 'claude'): MockRequest =>
    ({ vendor, account, path: vendor === 'claude' ? '/v1/messages' : '/v1/responses', status: 200, entries, action, protocol });
  const requests = (over: { next?: MockEntry[]; after?: MockRequest[]; nextProtocol?: boolean } = {}): MockRequest[] => [
    turn('claude', 'c6', upToPause.slice(0, 1), { kind: 'shell', command: 'cat /p/.swarm/prompts/rc-g1.md' }),
    turn('codex', 'o5', upToPause, { kind: 'say', text: PAUSED }),
    turn('claude', 'c6', upToPause, { kind: 'say', text: PAUSED }),
    // the kill: index 3
    turn('claude', 'c6', over.next ?? carried, { kind: 'shell', command: 'swarm capacity --self --json' }, over.nextProtocol ?? true),
    turn('codex', 'o5', carried, { kind: 'shell', command: 'swarm capacity --self --json' }),
    ...(over.after ?? []),
  ];
  const resumeFacts = (over: Partial<ResumeFacts> = {}): ResumeFacts => ({
    journal: [
      e('session_resumed', 'rc', { account: 'c6', generation: 1, session_id: 'sess-c', paneId: '%4' }),
      e('session_resumed', 'rx', { account: 'o5', generation: 1, session_id: 'sess-x', paneId: '%5' }),
      e('lane_result', 'rc', { result: 'done', passed: true, generation: 1 }),
      e('lane_result', 'rx', { result: 'done', passed: true, generation: 1 }),
    ],
    lanes: [{ name: 'rc', account: 'c6', kind: 'claude' }, { name: 'rx', account: 'o5', kind: 'codex' }],
    laneStates: { rc: 'done', rx: 'done' },
    told: { rc: 'sess-c', rx: 'sess-x' },
    notKilled: null,
    killedAt: 3,
    argv: {
      rc: { first: 'claude --session-id sess-c --settings {} -- You are rc', resumed: `claude --resume sess-c --settings {} -- ${POINTER}` },
      rx: { first: 'node /c/codex --no-daemon -c notify=[] You are rx', resumed: `node /c/codex --no-daemon -c notify=[] resume sess-x ${POINTER}` },
    },
    outcomes: [],
    panes: '/p/panes',
    ...over,
  });
  const judged = (r: Partial<ResumeFacts> | null, reqs = requests()) => realItems(facts({ resume: r === null ? null : resumeFacts(r), requests: reqs }), { resumed: ['rc', 'rx'] });

  it('both hold on a good run; the detail says what the resumed CLI sent', () => {
    const items = judged({});
    expect(items.map((i) => [i.item, i.holds])).toEqual([
      ['the tmux server killed: rc resumes its own session', true],
      ['the tmux server killed: rx resumes its own session', true],
    ]);
    expect(items[0]!.detail).toContain('next request carried 9 entries: the earlier 3 tool call(s) and reply yes');
    expect(items[0]!.evidence).toBe('analysis_results/drill/resume.md');
  });

  it.each([
    ['no session_resumed (a successor instead)', { journal: resumeFacts().journal.filter((x) => !(x.event === 'session_resumed' && x.lane === 'rc')) }],
    ['resumed on another account', { journal: resumeFacts().journal.map((x) => (x.event === 'session_resumed' && x.lane === 'rc' ? { ...x, account: 'c7' } : x)) }],
    ['another session than the one told', { told: { rc: 'sess-other', rx: 'sess-x' } }],
    ['its pane started a fresh session (no --resume <id>)', { argv: { ...resumeFacts().argv, rc: { first: 'claude --session-id sess-c', resumed: `claude --settings {} -- ${POINTER} (session sess-c)` } } }],
    ['its pane never read', { argv: { ...resumeFacts().argv, rc: { first: null, resumed: null } } }],
    ['the lane not done', { laneStates: { rc: 'working', rx: 'done' } }],
    ['a degraded packet after all', { journal: [...resumeFacts().journal, e('degraded_handoff', 'rc')] }],
    ['the resume failed', { journal: [...resumeFacts().journal, e('resume_failed', 'rc', { why: 'exited' })] }],
  ])('%s: the claude lane\'s item does not hold, the codex lane\'s does', (_name, over) => {
    expect(judged(over as Partial<ResumeFacts>).map((i) => i.holds)).toEqual([false, true]);
  });

  it('the server never killed (the lanes never paused): neither holds, and the detail says why', () => {
    expect(judged({ notKilled: 'rc never paused' }).map((i) => [i.holds, i.detail])).toEqual([
      [false, 'the server was not killed: rc never paused'], [false, 'the server was not killed: rc never paused'],
    ]);
  });

  it.each([
    ['only the pointer line (a fresh session)', [{ role: 'user' as const, text: POINTER }]],
    ['the earlier tool calls, not the reply that ended the turn', [...upToPause, { role: 'user' as const, text: POINTER }]],
    ['the reply, not the earlier tool calls', [{ role: 'user' as const, text: FIRST }, { role: 'assistant' as const, text: PAUSED }, { role: 'user' as const, text: POINTER }]],
  ])('its next request carried %s: it does not hold', (_name, next) => {
    const items = judged({}, requests({ next }));
    expect(items.map((i) => i.holds)).toEqual([false, true]);
    expect(items[0]!.detail).toMatch(/and reply NO/);
  });

  it('swarm\'s protocol brief gone from the resumed system prompt (claude --resume without --append-system-prompt-file): it does not hold', () => {
    const items = judged({}, requests({ nextProtocol: false }));
    expect(items.map((i) => i.holds)).toEqual([false, true]);
    expect(items[0]!.detail).toContain("swarm's protocol in its system prompt LOST");
    expect(judged({})[0]!.detail).toContain("swarm's protocol in its system prompt kept");
    expect(judged({})[1]!.detail).not.toContain('protocol');
  });

  it('the step run again after the resume: it does not hold', () => {
    expect(judged({}, requests({ after: [turn('claude', 'c6', carried, { kind: 'shell', command: STEP })] })).map((i) => i.holds)).toEqual([false, true]);
  });

  it('no request after the kill, or the resume swarm never ran: it does not hold', () => {
    expect(judged({}, requests().slice(0, 3)).map((i) => i.holds)).toEqual([false, false]);
    expect(judged(null).map((i) => [i.holds, i.detail])).toEqual([[false, 'the resume swarm did not run'], [false, 'the resume swarm did not run']]);
  });

  it.each([
    ["claude --resume 'sess-c' --settings {}", 'claude', true],
    ["/bin/sh -c exec /usr/bin/env -i ${X+\"X=$X\"} claude --resume sess-c -- 'the pointer'", 'claude', true],
    ['codex --no-daemon resume sess-c the pointer', 'codex', true],
    ['claude --session-id sess-c', 'claude', false],
    ['codex --no-daemon --resume sess-c', 'codex', false],
    ['claude --resume sess-other', 'claude', false],
  ] as const)('resumedBy(%j, %s): %s', (argv, kind, yes) => expect(resumedBy(argv, kind, 'sess-c')).toBe(yes));
});
