/**
 * Security (issue 12 §4): a lane cannot act as the lead, and a packet is read as carefully as it is
 * written. Through the built CLI, as an agent in a pane would run it. Covered elsewhere, not repeated
 * here: `notify all` from a non-lead (tests/commands/notify.test.ts), takeover of a healthy lead
 * (tests/commands/lead.test.ts), one packet accepted once and only by its lane's successor
 * (tests/commands/packet.test.ts), `swarm answer` from a pane (tests/e2e/commands.test.ts,
 * tests/core/process/paneCaller.test.ts), packets outside the plan, symlinked folders and modes
 * (tests/commands/packet.test.ts, tests/e2e/badInputs.cases.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { swarm, testPlan, type TestPlan, claimAsUp } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(async () => {
  t = testPlan({ contract: 'c-9' });
  writeFileSync(join(t.root, 'swarm.yaml'), [
    'version: 1', 'name: sec', 'plan: plans/p1', 'backend: tmux',
    'accounts:', '  - { id: a1, kind: command, vendor: x }', '  - { id: a2, kind: command, vendor: x }',
    'lead: { name: lead, account: a1, command: "true" }',
    'lanes:', '  - { name: lane-a, checkout: ".", task: t, account: a2, command: "true" }', '',
  ].join('\n'));
  expect((claimAsUp(t.plan)).code).toBe(0);
});
afterEach(() => t.cleanup());

const record = () => readFileSync(join(t.plan, 'lead.json'), 'utf8');
const inbox = () => (existsSync(join(t.plan, '.swarm', 'inbox.jsonl')) ? readFileSync(join(t.plan, '.swarm', 'inbox.jsonl'), 'utf8') : '');

describe('a lane cannot act as the lead', () => {
  const NOT_LEAD = 'lane-a@1 is not the lead of plan p1 (lead is lead@1); only the current lead acts as lead';
  it.each<[string, string[], string]>([
    ['swarm notify all', ['notify', 'all', 'stop everything'], NOT_LEAD],
    ['swarm notify all with the current epoch', ['notify', 'all', 'stop everything', '--epoch', '1'], NOT_LEAD],
    ['swarm lead release', ['lead', 'release'], NOT_LEAD],
    ['swarm lead handover', ['lead', 'handover', 'lane-a', '--packet', '/dev/null'], NOT_LEAD],
    ['swarm lead claim', ['lead', 'claim'], 'fenced: the lead is claimed by swarm up alone'],
    ['swarm lane add', ['lane', 'add', 'lane-z', '--task', 'anything'], 'fenced'],
  ])('%s from lane-a: fenced (exit 3), the lead record and the inbox unchanged', async (_name, args, says) => {
    const before = { record: record(), inbox: inbox() };
    const run = await swarm(args, { cwd: t.root, env: t.agentEnv('lane-a', { SWARM_CONFIG: join(t.root, 'swarm.yaml') }) });
    expect(run.stderr).toContain(says);
    expect(run.code).toBe(3);
    expect({ record: record(), inbox: inbox() }).toEqual(before);
  });

  it('the same lane-a with SWARM_ROLE=lead and its own name is still no lead: fenced, exit 3', async () => {
    const before = { record: record(), inbox: inbox() };
    const run = await swarm(['notify', 'all', 'I am the lead now'], { cwd: t.root, env: t.agentEnv('lane-a', { SWARM_ROLE: 'lead' }) });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('fenced');
    expect({ record: record(), inbox: inbox() }).toEqual(before);
  });
});

describe('the secret scan on read', () => {
  it('swarm accept refuses a packet that holds a credential, naming the field and not the value (exit 3, no record)', async () => {
    const written = await swarm(['packet', 'write', '--reason', 'capacity_critical', '--doing', 'step 2', '--next', 'finish'], { cwd: t.root, env: t.agentEnv('lane-a') });
    expect(written.code).toBe(0);
    const path = written.stdout.trim();
    const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    writeFileSync(path, readFileSync(path, 'utf8').replace('step 2', `step 2 token ${secret}`), { mode: 0o600 });
    const run = await swarm(['accept', path], { cwd: t.root, env: t.agentEnv('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'a3' }) });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/secret/i);
    expect(run.stderr).not.toContain(secret);
    expect(run.stdout).not.toContain(secret);
    expect(existsSync(`${path}.accepted.json`)).toBe(false);
  });
});
