/**
 * The plan's files refusing writes under a running swarm (issue 10 item 15, SPEC 8 exit 5): an
 * immutable journal, an unwritable `.swarm/` while an agent dies, and an immutable journal before
 * `swarm up` starts. The refusal is made with `chattr +i` (tests run as root, so a file's mode does not
 * stop a write); always undone in afterEach; skipped where chattr does not work.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spoolRecords } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { chattr, immutableFiles } from '../helpers/chattr.js';

const immutable = immutableFiles();

let t: TestSwarm | null = null;
const frozen: string[] = [];
afterEach(async () => {
  for (const path of frozen.splice(0)) if (existsSync(path)) chattr('-i', path);
  await t?.cleanup();
  t = null;
});
const freeze = (path: string) => {
  frozen.push(path);
  expect(chattr('+i', path)).toBe(true);
};

/** Everything `swarm up` printed so far. */
function output(child: ReturnType<TestSwarm['up']>): () => string {
  let text = '';
  child.all?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

describe.skipIf(!immutable)('the plan\'s files refuse writes (tmux)', () => {
  it('an immutable journal mid-run: told once, nothing lost, the plan finishes once it is writable again', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep1500,done' } }] }));
    const child = s.up(['--timeout', '60s']);
    const printed = output(child);
    await s.waitEvent('lane_started', 2);
    await waitFor(() => printed().includes('swarm e2e: plan'), { what: 'swarm up to have started (its first line)' });
    const journal = join(s.plan, 'journal.jsonl');
    freeze(journal);
    await waitFor(() => printed().includes('plan_files_fault'), { timeout: 20_000, what: 'the fault in the headless log' });
    expect(printed()).toContain(`chattr -i ${journal}`);
    chattr('-i', journal);
    const run = await child;
    expect(run.exitCode).toBe(0);
    expect(run.all).toContain('plan done');
    expect(run.all!.match(/plan_files_fault/g)).toHaveLength(1);
    expect(s.events('plan_files_recovered')).toHaveLength(1);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done' }]);
    expect(s.events('plan_done')).toHaveLength(1);
  });

  it('an unwritable .swarm/ while an agent dies: its death is handled once the folder is writable', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep1500,crash', AGENT_G2: 'done' } }] }));
    const child = s.up(['--timeout', '60s']);
    const printed = output(child);
    await s.waitEvent('lane_started', 2);
    await waitFor(() => printed().includes('swarm e2e: plan'), { what: 'swarm up to have started (its first line)' });
    // Both agents' first reports are in (their spools): from here on only lane-a's death comes.
    await waitFor(() => spoolRecords(s.plan).filter((r) => String(r.text ?? '').startsWith('plan ready')).length === 2, { what: 'both agents\' first reports' });
    const dir = join(s.plan, '.swarm');
    freeze(dir);
    await waitFor(() => printed().includes('plan_files_fault'), { timeout: 20_000, what: 'the fault in the headless log' });
    chattr('-i', dir);
    const run = await child;
    expect(run.exitCode).toBe(0);
    expect(s.events('degraded_handoff')).toMatchObject([{ lane: 'lane-a', reason: 'lane_lost' }]);
    expect(s.events('packet_accepted')).toMatchObject([{ lane: 'lane-a', generation: 2 }]);
    expect(s.events('lead_takeover')).toHaveLength(0);
    expect(s.events('plan_files_recovered')).toHaveLength(1);
    expect(run.all!.match(/plan_files_fault/g)).toHaveLength(1);
  });

  it('an immutable journal before swarm up: exit 5 with the path and what to do, nothing started', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
    const journal = join(s.plan, 'journal.jsonl');
    mkdirSync(s.plan, { recursive: true });
    writeFileSync(journal, '');
    freeze(journal);
    const run = await s.up();
    expect(run.exitCode).toBe(5);
    expect(run.all).toContain(`swarm up cannot start: cannot write ${journal}: EPERM`);
    expect(run.all).toContain(`chattr -i ${journal}`);
    expect(run.all).not.toContain('internal error');
    expect(s.agentLog()).toEqual([]);
  });
});
