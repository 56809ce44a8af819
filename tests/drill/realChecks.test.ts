import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import type { PacketFact } from '../../src/drill/checks.js';
import { realItems, type RealFacts } from '../../src/drill/realChecks.js';

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
