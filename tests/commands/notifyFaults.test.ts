/**
 * `swarm notify` when the plan's files refuse the write (issue 10 item 15): the report is tried again
 * for a while (SWARM_WRITE_RETRY_MS, default 10 s) and lands once the file is writable; past that, exit 5
 * with the path and what to do, so the agent knows its report did not land. The refusal is made with
 * `chattr +i` (tests run as root, so a mode does not stop a write); skipped where chattr does not work.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spoolPath, swarm, testPlan, type TestPlan } from '../helpers/swarm.js';
import { chattr, immutableFiles } from '../helpers/chattr.js';


let t: TestPlan;
let inboxPath = '';
beforeEach(() => {
  t = testPlan();
  inboxPath = spoolPath(t.plan, 'lane-a');
  execFileSync('mkdir', ['-p', join(inboxPath, '..')]);
  writeFileSync(inboxPath, '');
});
afterEach(() => {
  if (existsSync(inboxPath)) chattr('-i', inboxPath);
  t.cleanup();
});

const immutable = immutableFiles();

describe.skipIf(!immutable)('swarm notify with an immutable inbox', () => {
  it('past the retry budget: exit 5, says the message was not queued, names the file and the fix', async () => {
    chattr('+i', inboxPath);
    const run = await swarm(['notify', 'lead', 'done\ncapacity=ok 70% @acct-lane-a'], { env: { ...t.agentEnv('lane-a'), SWARM_WRITE_RETRY_MS: '300' } });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain(`swarm notify: your message to lead was NOT queued: cannot write ${inboxPath}: EPERM`);
    expect(run.stderr).toContain(`chattr -i ${inboxPath}`);
    expect(run.stderr).not.toContain('internal error');
    expect(readFileSync(inboxPath, 'utf8')).toBe('');
  });

  it('writable again within the budget: the report lands, exit 0', async () => {
    chattr('+i', inboxPath);
    const running = swarm(['notify', 'lead', 'done\ncapacity=ok 70% @acct-lane-a'], { env: t.agentEnv('lane-a') });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the refusal lasts a while; notify keeps trying
    chattr('-i', inboxPath);
    const run = await running;
    expect(run).toMatchObject({ code: 0, stdout: 'swarm: queued for lead' });
    expect(run.stderr).toBe(`swarm notify: cannot write ${inboxPath}: EPERM (operation not permitted); trying again for up to 10 s`);
    expect(readFileSync(inboxPath, 'utf8')).toContain('"text":"done\\ncapacity=ok 70% @acct-lane-a"');
  });
});
