import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { swarm, testPlan, type TestPlan, claimAsUp } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan();
});
afterEach(() => t.cleanup());

const record = () => JSON.parse(readFileSync(join(t.plan, 'lead.json'), 'utf8')) as Record<string, unknown>;
/** The engine's memory as it records the lead: its lane's state, its account, limited accounts, ask timeouts. */
const engineState = (lead: { state: string; account?: string }, extra: { limited?: Record<string, string | null>; askTimeouts?: number } = {}) => {
  mkdirSync(join(t.plan, '.swarm'), { recursive: true });
  const lanes = { lead: { name: 'lead', role: 'lead', generation: 1, account: lead.account ?? 'acct-lead', state: lead.state } };
  writeFileSync(join(t.plan, '.swarm', 'state.json'), JSON.stringify({ version: 1, lanes, order: ['lead'], timers: [], pending: [], leadName: 'lead', leadAgent: 'lead', epoch: 1, limited: extra.limited ?? {}, askTimeouts: extra.askTimeouts ?? 0 }));
};
const journal = () => readFileSync(join(t.plan, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('swarm lead', () => {
  it('claims epoch 1, then hands over to epoch 2 and fences the old lead', async () => {
    const claim = claimAsUp(t.plan, { succession: ['lead-b', 'lane-a'] });
    expect(claim.code).toBe(0);
    expect(record()).toMatchObject({ plan: 'p1', lead: 'lead', epoch: 1, succession: ['lead-b', 'lane-a'], revision: 1 });

    const handover = await swarm(['lead', 'handover', 'lead-b', '--packet', 'x.yaml'], { cwd: t.root, env: t.agentEnv('lead') });
    expect(handover.code).toBe(0);
    expect(record()).toMatchObject({ lead: 'lead-b', epoch: 2, revision: 2 });
    expect(journal().map((e) => e.event)).toEqual(['lead_claimed', 'lead_handover']);
    expect(journal()[1]).toMatchObject({ epoch: 2, to: 'lead-b', packet: join(t.root, 'x.yaml') });

    // The old lead, still at epoch 1, is refused and the refusal journaled.
    const stale = await swarm(['lead', 'release'], { env: t.agentEnv('lead') });
    expect(stale.code).toBe(3);
    expect(journal().at(-1)).toMatchObject({ event: 'fenced', lane: 'lead' });

    const release = await swarm(['lead', 'release'], { env: t.agentEnv('lead-b', { SWARM_ROLE: 'lead', SWARM_EPOCH: '2' }) });
    expect(release.code).toBe(0);
    expect(record()).toMatchObject({ released: true, epoch: 2 });
  });

  it('a succession entry takes over a lost lead with epoch + 1; one acting on a stale epoch is fenced', async () => {
    claimAsUp(t.plan, { succession: ['lane-a'] });
    engineState({ state: 'lost' });
    const take = await swarm(['lead', 'takeover'], { env: t.agentEnv('lane-a') });
    expect(take.code).toBe(0);
    expect(record()).toMatchObject({ lead: 'lane-a', epoch: 2 });
    const again = await swarm(['lead', 'takeover'], { env: t.agentEnv('lane-b') });
    expect(again.code).toBe(3);
  });

  it('a lane promoted in place passes the epoch it learned with --epoch', async () => {
    claimAsUp(t.plan, { succession: ['lane-a'] });
    engineState({ state: 'lost' });
    await swarm(['lead', 'takeover'], { env: t.agentEnv('lane-a') });
    const run = await swarm(['notify', 'all', 'I lead now', '--epoch', '2'], { env: t.agentEnv('lane-a') });
    expect(run.code).toBe(0);
  });

  it.each<[string, () => void, string]>([
    ['a healthy lead', () => engineState({ state: 'working' }), 'lead lead is working as the engine last recorded it'],
    ['no engine ever ran (no .swarm/state.json)', () => undefined, 'no engine has recorded how the lead is'],
  ])('a succession entry cannot take the lead from %s: fenced with the reason, exit 3 (issue 10, item 8)', async (_name, arrange, reason) => {
    claimAsUp(t.plan, { succession: ['lane-a'] });
    arrange();
    const take = await swarm(['lead', 'takeover'], { env: t.agentEnv('lane-a') });
    expect(take.code).toBe(3);
    expect(take.stderr).toContain(reason);
    expect(record()).toMatchObject({ lead: 'lead', epoch: 1, revision: 1 });
    expect(journal().at(-1)).toMatchObject({ event: 'fenced', lane: 'lane-a', command: 'lead takeover', reason: expect.stringContaining(reason) });
    expect((await swarm(['notify', 'all', 'still leading'], { env: t.agentEnv('lead') })).code).toBe(0);
  });

  it.each<[string, () => void]>([
    ['its account is limited', () => engineState({ state: 'working', account: 'acct-lead' }, { limited: { 'acct-lead': null } })],
    ['two asks to it timed out', () => engineState({ state: 'working' }, { askTimeouts: 2 })],
  ])('a succession entry takes over a lead when %s', async (_name, arrange) => {
    claimAsUp(t.plan, { succession: ['lane-a'] });
    arrange();
    expect((await swarm(['lead', 'takeover'], { env: t.agentEnv('lane-a') })).code).toBe(0);
    expect(record()).toMatchObject({ lead: 'lane-a', epoch: 2 });
  });

  it('swarm lead claim is swarm up\'s alone (SPEC 10.3): from the lead\'s own pane, from a plain shell, before and after a claim, fenced (exit 3) and nothing changed', async () => {
    for (const options of [{ env: t.agentEnv('lead') }, { env: { SWARM_PLAN: t.plan }, pane: false as const }]) {
      const run = await swarm(['lead', 'claim'], options);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('fenced: the lead is claimed by swarm up alone');
    }
    expect(existsSync(join(t.plan, 'lead.json'))).toBe(false);
    claimAsUp(t.plan);
    const before = record();
    expect((await swarm(['lead', 'claim'], { env: t.agentEnv('lead-x') })).code).toBe(3);
    expect(record()).toEqual(before);
    expect(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8').match(/"event":"fenced"/g)).toHaveLength(3);
  });

  it.each([
    [['lead'], 'unknown action ""'],
    [['lead', 'crown'], 'unknown action "crown"'],
    [['lead', 'handover'], 'needs one successor'],
    [['lead', 'handover', 'lead-b'], 'needs --packet'],
    [['lead', 'claim', '--bogus'], 'unknown option "--bogus"'],
  ])('refuses %j with exit 2', async (args, message) => {
    claimAsUp(t.plan);
    const run = await swarm(args, { env: t.agentEnv('lead') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
