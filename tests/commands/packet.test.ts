import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, swarm, testPlan, type TestPlan, claimAsUp, spoolPath, spoolRecords } from '../helpers/swarm.js';
import { chattr, immutableFiles } from '../helpers/chattr.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan({ contract: 'c-7' });
});
afterEach(() => t.cleanup());

const write = (extra: string[] = [], env: Record<string, string> = {}) =>
  swarm(['packet', 'write', '--reason', 'capacity_critical', '--doing', 'step 2: parser', '--next', 'finish the parser', '--next', 'run npm test', ...extra], {
    cwd: t.root,
    env: t.agentEnv('lane-a', env),
  });

const successor = (extra: Record<string, string> = {}) => t.agentEnv('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'acct-2', ...extra });

describe('swarm packet write', () => {
  it('writes a 0600 packet in a 0700 folder from the checkout’s git state and prints its absolute path', async () => {
    writeFileSync(join(t.root, 'src', 'app.txt'), 'changed\n');
    const run = await write(['--done', 'step 1', '--verified', 'unit tests=npm test passed', '--unverified', 'e2e=npm run e2e', '--deadend', 'regex parser: too slow', '--decision', 'use yaml@2', '--ask', 'lane-b: flag name?', '--step', '2']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const path = run.stdout.trim();
    expect(path).toMatch(new RegExp(`^${join(t.plan, 'analysis_results', 'handoff')}/lane-a-g1-\\d{8}T\\d{6}Z\\.yaml$`));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    const text = readFileSync(path, 'utf8');
    for (const piece of ['schema: dwp-handoff/v1', 'plan: p1', 'contract: c-7', 'reason: capacity_critical', 'branch: main', `head: ${git(t.root, 'rev-parse', 'HEAD')}`, '- src/app.txt', 'step: 2', 'evidence: npm test passed', 'gate: npm run e2e', 'lane: lane-a', 'degraded: false']) {
      expect(text).toContain(piece);
    }
  });

  it.each([
    [['--doing', 'x', '--next', 'y'], '--reason must be one of capacity_critical, capacity_low, context_pressure, usage_limit, lead_handover, lane_lost; got ""'],
    [['--reason', 'tired', '--doing', 'x', '--next', 'y'], 'got "tired"'],
    [['--reason', 'capacity_low', '--next', 'y'], '--doing is required'],
    [['--reason', 'capacity_low', '--doing', 'x'], 'at least one --next is required'],
    [['--reason', 'capacity_low', '--doing', 'x', '--next', '  '], 'at least one --next is required'],
    [['--reason', 'capacity_low', '--doing', 'x', '--next', 'y', '--verified', 'no-equals'], '--verified takes WHAT=EVIDENCE, got "no-equals"'],
    [['--reason', 'capacity_low', '--doing', 'x', '--next', 'y', '--colour'], 'unknown option "--colour"'],
  ])('refuses %j with exit 2', async (args, message) => {
    const run = await swarm(['packet', 'write', ...args], { cwd: t.root, env: t.agentEnv('lane-a') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('refuses to write a secret value, naming the field but not the value', async () => {
    const run = await write(['--done', 'used token ghp_abcdefghijklmnopqrstuvwxyz0123456789'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('done[0]');
    expect(run.stderr).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(existsSync(join(t.plan, 'analysis_results', 'handoff'))).toBe(false);
  });
});

describe('swarm packet write --lead (SPEC 10.5)', () => {
  /** The engine's saved state with the lead and two lanes, as a running swarm leaves it. */
  function savedState(): void {
    const lane = (name: string, role: 'lead' | 'lane', generation: number, account: string, state: string, last: string | null) => ({
      name, role, generation, account, paneId: null, state, phase: null, phaseSince: null, blocked: null, capacity: null,
      capacityState: 'unknown', remainingPct: null, contextPct: null, last, startedAt: 0, lastActivity: 0, quickExits: 0,
      nearGeneration: null, stallNudged: false, gate: null, handoff: null,
    });
    mkdirSync(join(t.plan, '.swarm'), { recursive: true });
    writeFileSync(join(t.plan, '.swarm', 'state.json'), JSON.stringify({
      version: 1, order: ['lead', 'lane-a', 'lane-b'], timers: [], pending: [],
      lanes: {
        lead: lane('lead', 'lead', 1, 'acct-1', 'working', null),
        'lane-a': lane('lane-a', 'lane', 2, 'o1', 'working', 'PR open https://example.test/pr/4'),
        'lane-b': lane('lane-b', 'lane', 1, 'a2', 'done', 'done'),
      },
    }));
  }
  const lead = (extra: string[]) => swarm(['packet', 'write', '--reason', 'lead_handover', '--doing', 'merging lane-a', '--next', 're-check lane-a', ...extra], {
    cwd: t.root, env: t.agentEnv('lead', { SWARM_ROLE: 'lead' }),
  });

  it('fills the lanes from the engine state and takes the open asks, release order and pending merges', async () => {
    savedState();
    const run = await lead(['--lead', '--open-ask', 'lane-b: which flag name?', '--release-order', 'lane-b', '--release-order', 'lane-a', '--pending-merge', 'lane-a PR 4 into main']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(run.stdout.trim(), 'utf8');
    for (const piece of ['lanes:', '- name: lane-a', 'generation: 2', 'state: working', 'account: o1', 'last: PR open https://example.test/pr/4', '- name: lane-b', 'open_asks:', '- "lane-b: which flag name?"', 'release_order:', 'pending_merges:', '- lane-a PR 4 into main']) {
      expect(text).toContain(piece);
    }
    expect(text).not.toContain('- name: lead');
    // It reads back as a lead packet: the brief's own sections (tests/core/packet/brief.test.ts).
    const { parsePacket } = await import('../../src/core/packet/packet.js');
    const parsed = parsePacket(text);
    expect(parsed.ok && parsed.packet.lanes?.map((l) => l.name)).toEqual(['lane-a', 'lane-b']);
  });

  it('a lane packet has none of it; the lead-only flags need --lead; a lane may not write a lead packet', async () => {
    const plain = await write();
    expect(readFileSync(plain.stdout.trim(), 'utf8')).not.toMatch(/^(lanes|open_asks|release_order|pending_merges):/m);
    const noLead = await lead(['--open-ask', 'x']);
    expect(noLead.code).toBe(2);
    expect(noLead.stderr).toContain('--open-ask belongs to a lead packet: add --lead');
    const byLane = await write(['--lead']);
    expect(byLane.code).toBe(2);
    expect(byLane.stderr).toContain("--lead writes the lead's packet, and lane-a is a lane");
  });

  it('with no saved state the lanes are an empty list, still a lead packet', async () => {
    const run = await lead(['--lead']);
    expect(run.code).toBe(0);
    expect(readFileSync(run.stdout.trim(), 'utf8')).toContain('lanes: []');
  });
});

describe('swarm accept', () => {
  it('accepts a matching packet once: writes the record, tells swarm, prints the resume brief', async () => {
    const path = (await write(['--unverified', 'e2e=npm run e2e'])).stdout.trim();
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('npm run e2e');
    expect(run.stdout).toContain('finish the parser');
    const record = JSON.parse(readFileSync(`${path}.accepted.json`, 'utf8'));
    expect(record).toMatchObject({ packet: path, by: { lane: 'lane-a', account: 'acct-2', generation: 2 } });
    expect(JSON.stringify(spoolRecords(t.plan))).toContain('"kind":"accept"');
    // Idempotent for the same successor; refused for another.
    expect((await swarm(['accept', path], { cwd: t.root, env: successor() })).code).toBe(0);
    const other = await swarm(['accept', path], { cwd: t.root, env: successor({ SWARM_ACCOUNT: 'acct-3' }) });
    expect(other.code).toBe(0);
    expect(JSON.parse(readFileSync(`${path}.accepted.json`, 'utf8'))).toMatchObject({ by: { account: 'acct-2' } });
  });

  it('takes the packet from $SWARM_PACKET when no argument is given', async () => {
    const path = (await write()).stdout.trim();
    const run = await swarm(['accept'], { cwd: t.root, env: successor({ SWARM_PACKET: path }) });
    expect(run.code).toBe(0);
  });

  it('prints every mismatch, writes nothing and exits 3 when the checkout moved on', async () => {
    const path = (await write()).stdout.trim();
    writeFileSync(join(t.root, 'src', 'new.txt'), 'x\n');
    git(t.root, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(t.plan, 'PLAN.md'), '---\ncontract: c-8\n---\n# Plan\n');
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('contract: expected "c-8"');
    expect(run.stderr).toContain('where.branch: expected "other"');
    expect(run.stderr).toContain('where.uncommitted differs from the checkout');
    expect(existsSync(`${path}.accepted.json`)).toBe(false);
  });

  it('a new commit changes the head: refused', async () => {
    const path = (await write()).stdout.trim();
    writeFileSync(join(t.root, 'src', 'app.txt'), 'two\n');
    git(t.root, 'commit', '-qam', 'more');
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('where.head: expected');
  });

  it('a missing packet is a mismatch with the path named, exit 3', async () => {
    const run = await swarm(['accept', join(t.plan, 'nope.yaml')], { cwd: t.root, env: successor() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no packet at');
  });

  it('a degraded packet says so first in the brief', async () => {
    const path = (await write()).stdout.trim();
    const text = readFileSync(path, 'utf8').replace('degraded: false', 'degraded: true');
    writeFileSync(path, text);
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('[DEGRADED: handoff not written]')).toBe(true);
  });
});

describe.skipIf(!immutableFiles())('swarm accept while the plan\'s files refuse writes (chaos seed 1041)', () => {
  let spool = '';
  beforeEach(() => {
    spool = spoolPath(t.plan, 'lane-a', 2);
    mkdirSync(dirname(spool), { recursive: true });
    writeFileSync(spool, '');
  });
  afterEach(() => {
    chattr('-i', spool);
  });

  it('keeps trying while refused: writable again within the budget, the packet is accepted and swarm told, exit 0', async () => {
    const path = (await write()).stdout.trim();
    chattr('+i', spool);
    const running = swarm(['accept', path], { cwd: t.root, env: successor() });
    await waitFor(() => existsSync(`${path}.accepted.json`) || null, { what: 'the acceptance record written, the spool still refused' });
    chattr('-i', spool);
    const run = await running;
    expect(run.code).toBe(0);
    // Said once why it waited, then nothing more: it landed.
    expect(run.stderr).toBe(`swarm accept: cannot write ${spool}: EPERM (operation not permitted); trying again for up to 10 s`);
    expect(readFileSync(spool, 'utf8')).toContain('"kind":"accept"');
  });

  it('past the budget: exit 5, says it was not accepted and what to do; accept again once writable: exit 0', async () => {
    const path = (await write()).stdout.trim();
    chattr('+i', spool);
    const refused = await swarm(['accept', path], { cwd: t.root, env: successor({ SWARM_WRITE_RETRY_MS: '300' }) });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`swarm accept: ${basename(path)} was NOT accepted (swarm was not told): cannot write ${spool}: EPERM`);
    expect(refused.stderr).toContain('run swarm accept again');
    expect(refused.stderr).not.toContain('internal error');
    chattr('-i', spool);
    expect((await swarm(['accept', path], { cwd: t.root, env: successor() })).code).toBe(0);
    expect(readFileSync(spool, 'utf8')).toContain('"kind":"accept"');
  });
});

describe('swarm accept checks where the packet is and who accepts it (issue 10, items 6 and 21)', () => {
  const refused = async (path: string, env = successor()) => {
    const run = await swarm(['accept', path], { cwd: t.root, env });
    expect(run.code).toBe(3);
    expect(existsSync(`${path}.accepted.json`)).toBe(false);
    return run.stderr;
  };

  it('refuses a packet outside the plan, and writes no record beside it', async () => {
    const path = (await write()).stdout.trim();
    const outside = join(t.root, 'elsewhere.yaml');
    copyFileSync(path, outside);
    chmodSync(outside, 0o600);
    expect(await refused(outside)).toContain("packet is outside the plan's analysis_results/handoff/");
  });

  it('refuses a packet of mode 0644', async () => {
    const path = (await write()).stdout.trim();
    chmodSync(path, 0o644);
    expect(await refused(path)).toContain('packet mode is 0644, expected 0600');
  });

  it('refuses a packet reached through a handoff folder that is a symlink to a folder outside the plan', async () => {
    const path = (await write()).stdout.trim();
    const handoff = dirname(path);
    const outside = join(t.root, 'outside-handoff');
    renameSync(handoff, outside);
    symlinkSync(outside, handoff);
    expect(await refused(path)).toContain("packet is outside the plan's analysis_results/handoff/");
    expect(existsSync(`${join(outside, basename(path))}.accepted.json`)).toBe(false);
  });

  it('refuses a 10 MB file as over 64 KiB, not as empty', async () => {
    const path = (await write()).stdout.trim();
    writeFileSync(path, `doing: ${'x'.repeat(10 * 1024 * 1024)}\n`);
    const stderr = await refused(path);
    expect(stderr).toContain('packet is 10485768 bytes, expected at most 65536 (64 KiB)');
    expect(stderr).not.toContain('empty');
  });

  it('only the successor generation of the lane may accept: not the lead, not the author, not another lane', async () => {
    const path = (await write()).stdout.trim();
    expect(await refused(path, t.agentEnv('lead', { SWARM_GENERATION: '2' }))).toContain('only lane-a g2 (its successor) may accept it');
    expect(await refused(path, t.agentEnv('lane-a'))).toContain('you are lane-a g1');
    expect(await refused(path, t.agentEnv('lane-b', { SWARM_GENERATION: '2' }))).toContain('you are lane-b g2');
    expect(await refused(path, successor({ SWARM_GENERATION: '3' }))).toContain('you are lane-a g3');
    const run = await swarm(['accept', path], { cwd: t.root, env: successor() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('a lead packet is accepted by the successor lead the record names, and by no one else', async () => {
    claimAsUp(t.plan, { succession: ['lead-b'] });
    const leadEnv = t.agentEnv('lead');
    const written = await swarm(['packet', 'write', '--reason', 'lead_handover', '--doing', 'leading', '--next', 'keep leading'], { cwd: t.root, env: leadEnv });
    const path = written.stdout.trim();
    expect(written.code).toBe(0);
    expect((await swarm(['lead', 'handover', 'lead-b', '--packet', path], { cwd: t.root, env: leadEnv })).code).toBe(0);
    expect(await refused(path, leadEnv)).toContain('you are lead g1');
    expect(await refused(path, t.agentEnv('lane-a', { SWARM_GENERATION: '2' }))).toContain('a lead packet');
    expect(await refused(path, t.agentEnv('lead-c', { SWARM_GENERATION: '2', SWARM_EPOCH: '2' }))).toContain('lead-b');
    const run = await swarm(['accept', path], { cwd: t.root, env: t.agentEnv('lead-b', { SWARM_GENERATION: '2', SWARM_EPOCH: '2' }) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it("a lane's packet is not the lead's to accept, even for a lead at the author's next generation", async () => {
    claimAsUp(t.plan);
    const path = (await write()).stdout.trim();
    expect(await refused(path, t.agentEnv('lead', { SWARM_GENERATION: '2' }))).toContain('only lane-a g2 (its successor) may accept it');
  });
});

describe('swarm packet write refuses what validation would reject (issue 10, item 7)', () => {
  it('refuses a packet over 64 KiB at write, with its size, and writes nothing', async () => {
    const run = await write(['--done', 'y'.repeat(70_000)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the packet would be \d+ bytes, over the 65536 bytes \(64 KiB\)/);
    const dir = join(t.plan, 'analysis_results', 'handoff');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('refuses a handoff folder that is a symlink to a folder outside the plan, and writes nothing there', async () => {
    const outside = join(t.root, 'outside-handoff');
    mkdirSync(outside, { mode: 0o755 });
    mkdirSync(join(t.plan, 'analysis_results'));
    symlinkSync(outside, join(t.plan, 'analysis_results', 'handoff'));
    const run = await write();
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('is a symlink');
    expect(readdirSync(outside)).toEqual([]);
    expect(statSync(outside).mode & 0o777).toBe(0o755);
  });

  it('refuses an analysis_results folder that is a symlink', async () => {
    const outside = join(t.root, 'outside-results');
    mkdirSync(outside);
    symlinkSync(outside, join(t.plan, 'analysis_results'));
    const run = await write();
    expect(run.code).toBe(3);
    expect(readdirSync(outside)).toEqual([]);
  });
});
