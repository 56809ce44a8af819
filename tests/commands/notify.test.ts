import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { swarm, tempDir, testPlan, type TestPlan, claimAsUp, spoolRecords } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan();
});
afterEach(() => t.cleanup());

const inbox = () => spoolRecords(t.plan);

describe('swarm notify', () => {
  it('queues a lane report for the lead with no lead record yet, exit 0', async () => {
    const run = await swarm(['notify', 'lead', 'plan ready\ncapacity=ok 64% @acct-lane-a'], { env: t.agentEnv('lane-a') });
    expect(run).toMatchObject({ code: 0, stdout: 'swarm: queued for lead' });
    expect(inbox()).toMatchObject([{ kind: 'message', from: 'lane-a', to: 'lead', role: 'lane', generation: 1, text: 'plan ready\ncapacity=ok 64% @acct-lane-a' }]);
  });

  it('records a relative handoff path as absolute, resolved against the sender', async () => {
    const run = await swarm(['notify', 'lead', 'handoff plans/p1/analysis_results/handoff/x.yaml capacity=critical 8% @a'], { cwd: t.root, env: t.agentEnv('lane-a') });
    expect(run.code).toBe(0);
    expect(inbox()[0]!.text).toBe(`handoff ${join(t.root, 'plans/p1/analysis_results/handoff/x.yaml')} capacity=critical 8% @a`);
  });

  it('keeps the reported capacity as the account reading for `swarm capacity`', async () => {
    await swarm(['notify', 'lead', 'done\ncapacity=low 20% @acct-lane-a context=33%'], { env: t.agentEnv('lane-a') });
    const cached = JSON.parse(readFileSync(join(t.plan, '.swarm', 'capacity', 'acct-lane-a.json'), 'utf8'));
    expect(cached).toMatchObject({ state: 'low', remaining_pct: 20, context_pct: 33, source: 'report' });
  });

  it("keeps a line naming another account as no account's reading (it is still queued, as sent)", async () => {
    const text = 'PR open x\r\ncapacity=critical 3% @acct-lane-b  ';
    const run = await swarm(['notify', 'lead', text], { env: t.agentEnv('lane-a') });
    expect(run.code).toBe(0);
    expect(inbox()[0]!.text).toBe(text);
    const cached = join(t.plan, '.swarm', 'capacity');
    expect(existsSync(cached) ? readdirSync(cached) : []).toEqual([]);
  });

  it("keeps a line naming no account as the sender's own account's reading", async () => {
    await swarm(['notify', 'lead', 'done\ncapacity=critical 4%'], { env: t.agentEnv('lane-a') });
    const cached = JSON.parse(readFileSync(join(t.plan, '.swarm', 'capacity', 'acct-lane-a.json'), 'utf8'));
    expect(cached).toMatchObject({ account: 'acct-lane-a', state: 'critical', remaining_pct: 4, source: 'report' });
  });

  it.each([
    [['notify'], 'swarm notify needs an address and a message'],
    [['notify', 'lead'], 'swarm notify needs an address and a message'],
    [['notify', 'lead', '   '], 'swarm notify: the message is empty'],
    [['notify', 'a b', 'hi'], 'not an address: "a b" (a lane name, lead or all)'],
    [['notify', 'lead', 'done\ncapacity=ok 140% @w'], 'swarm notify:'],
    [['notify', 'lead', 'hi', '--epoch', 'x'], '--epoch must be a whole number ≥ 1, got "x"'],
  ])('refuses %j with exit 2', async (args, message) => {
    const run = await swarm(args, { env: t.agentEnv('lane-a') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('refuses a SWARM_PLAN that is no plan (no PLAN.md, no .swarm/) and creates nothing there, exit 2 (issue 10, item 21)', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const run = await swarm(['notify', 'lead', 'done'], { env: t.agentEnv('lane-a', { SWARM_PLAN: dir }) });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`swarm notify: SWARM_PLAN=${dir} is no plan folder (no PLAN.md, no .swarm/)`);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('takes a plan folder with no PLAN.md once swarm has made its .swarm/ there', async () => {
    rmSync(join(t.plan, 'PLAN.md'));
    mkdirSync(join(t.plan, '.swarm'));
    expect((await swarm(['notify', 'lead', 'done'], { env: t.agentEnv('lane-a') })).code).toBe(0);
  });

  it('with no SWARM_PLAN: says it runs in a pane, exit 2, and suggests no variables to set', async () => {
    const run = await swarm(['notify', 'lead', 'done'], { env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('swarm notify runs inside a swarm pane: SWARM_PLAN not set');
    expect(run.stderr).not.toContain('export');
  });

  it('outside every pane, whatever the environment says (SPEC 10.3): fenced, exit 3, journaled, nothing queued', async () => {
    const run = await swarm(['notify', 'lead', 'done'], { env: t.agentEnv('lane-a'), pane: false });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('fenced: swarm notify ran outside every pane swarm started for this plan (its environment says lane-a, which grants nothing)');
    expect(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8')).toContain('"event":"fenced"');
    expect(spoolRecords(t.plan)).toEqual([]);
  });

  it('fences `notify all` from a caller that is not the current lead: nothing queued, journal fenced, exit 3', async () => {
    expect((claimAsUp(t.plan)).code).toBe(0);
    const run = await swarm(['notify', 'all', 'stop everything'], { env: t.agentEnv('lane-a') });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('fenced');
    const journal = readFileSync(join(t.plan, 'journal.jsonl'), 'utf8');
    expect(journal).toContain('"event":"fenced"');
    expect(inbox().filter((r) => r.kind === 'message')).toEqual([]);
  });

  it('fences a lead notice carrying an older epoch, and lets the current epoch through', async () => {
    claimAsUp(t.plan);
    const stale = await swarm(['notify', 'lane-a', 'carry on'], { env: t.agentEnv('lead', { SWARM_EPOCH: '0' }) });
    expect(stale.code).toBe(3);
    const fresh = await swarm(['notify', 'all', 'carry on'], { env: t.agentEnv('lead') });
    expect(fresh.code).toBe(0);
  });

  it('a lane\'s `notify all` with no lead record is refused as a lane\'s, not with "no lead record yet"', async () => {
    const run = await swarm(['notify', 'all', 'stop everything'], { env: t.agentEnv('lane-a') });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('fenced: lane-a is a lane: only the current lead may notify all');
    expect(run.stderr).toContain('a lane reports to the lead (swarm notify lead <text>)');
    expect(run.stderr).not.toContain('no lead record yet');
    expect(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8')).toContain('"event":"fenced"');
    expect(spoolRecords(t.plan)).toEqual([]);
  });

  it('`notify all` with no lead record is refused (it is the current lead’s alone)', async () => {
    const run = await swarm(['notify', 'all', 'hello'], { env: t.agentEnv('lead') });
    expect(run.code).toBe(3);
  });

  it('50 concurrent writers never interleave: every line is whole JSON', async () => {
    const text = `note ${'x'.repeat(3000)}`;
    const runs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => swarm(['notify', 'lead', `${text} ${i}`], { env: t.agentEnv(`lane-${i}`) })),
    );
    expect(runs.every((r) => r.code === 0)).toBe(true);
    const records = inbox();
    expect(records).toHaveLength(50);
    expect(new Set(records.map((r) => r.from)).size).toBe(50);
    for (const r of records) expect(String(r.text)).toMatch(/^note x{3000} \d+$/);
  });
});

describe('swarm notify: the limits on asks (SPEC 10.6)', () => {
  const journal = () => readFileSync(join(t.plan, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const as = (lane: string) => ({ env: t.agentEnv(lane) });

  it('takes max_asks (3) open asks, refuses the fourth with exit 2 saying why, and takes one again once answered', async () => {
    for (const n of [1, 2, 3]) expect((await swarm(['notify', n === 3 ? 'lead' : 'lane-b', `ask question ${n}`], as('lane-a'))).code).toBe(0);
    // A report is no ask: it always goes.
    expect((await swarm(['notify', 'lead', 'plan ready\ncapacity=ok @acct-lane-a'], as('lane-a'))).code).toBe(0);
    const refused = await swarm(['notify', 'lane-c', 'ask one more'], as('lane-a'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('swarm notify: your ask to lane-c was NOT queued: lane-a has 3 asks open (2 to lane-b, 1 to lead), the most max_asks allows (3)');
    expect(inbox().filter((r) => r.kind === 'message' && r.text === 'ask one more')).toEqual([]);
    expect(journal()).toContainEqual(expect.objectContaining({ event: 'ask_refused', lane: 'lane-a', to: 'lane-c' }));

    expect((await swarm(['notify', 'lane-a', 'answer both: 42'], as('lane-b'))).code).toBe(0);
    expect((await swarm(['notify', 'lane-c', 'ask one more'], as('lane-a'))).code).toBe(0);
  });

  it("counts a lane's asks across its generations: a successor inherits its predecessor's open asks", async () => {
    for (const n of [1, 2, 3]) expect((await swarm(['notify', 'lane-b', `ask question ${n}`], as('lane-a'))).code).toBe(0);
    const successor = await swarm(['notify', 'lane-b', 'ask again'], { env: t.agentEnv('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'acct-other' }) });
    expect(successor.code).toBe(2);
    expect(successor.stderr).toContain('lane-a has 3 asks open (3 to lane-b)');
  });

  it('follows max_asks as the running swarm wrote it (settings.json)', async () => {
    mkdirSync(join(t.plan, '.swarm'), { recursive: true });
    writeFileSync(join(t.plan, '.swarm', 'settings.json'), JSON.stringify({ maxAsks: 1, askMs: 1_800_000 }));
    expect((await swarm(['notify', 'lane-b', 'ask first'], as('lane-a'))).code).toBe(0);
    const refused = await swarm(['notify', 'lead', 'ask second'], as('lane-a'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the most max_asks allows (1)');
  });

  it('goes one level deep: a lane asked may ask the lead or its asker, no other lane, until it answers', async () => {
    expect((await swarm(['notify', 'lane-b', 'ask which port?'], as('lane-a'))).code).toBe(0);
    const deeper = await swarm(['notify', 'lane-c', 'ask what does lane-a mean?'], as('lane-b'));
    expect(deeper.code).toBe(2);
    expect(deeper.stderr).toContain('lane-a is waiting for your answer: answer first (swarm notify lane-a "answer …")');
    expect((await swarm(['notify', 'lead', 'ask which port is ours?'], as('lane-b'))).code).toBe(0);
    expect((await swarm(['notify', 'lane-a', 'ask for which service?'], as('lane-b'))).code).toBe(0);
    expect((await swarm(['notify', 'lane-a', 'answer 8080'], as('lane-b'))).code).toBe(0);
    expect((await swarm(['notify', 'lane-c', 'ask now may I?'], as('lane-b'))).code).toBe(0);
  });
});
