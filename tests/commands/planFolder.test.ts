/** Every agent command refuses a SWARM_PLAN that is no plan folder and writes nothing there (issue 10, item 21). */
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { swarm, tempDir, testPlan, type TestPlan } from '../helpers/swarm.js';

let t: TestPlan;
let elsewhere: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = testPlan();
  elsewhere = tempDir();
});
afterEach(() => {
  elsewhere.cleanup();
  t.cleanup();
});

describe('SWARM_PLAN must be a plan folder', () => {
  it.each([
    [['notify', 'lead', 'done'], 'notify'],
    [['capacity', '--self', '--json'], 'capacity'],
    [['packet', 'write', '--reason', 'capacity_low', '--doing', 'x', '--next', 'y'], 'packet write'],
    [['accept', '/tmp/none.yaml'], 'accept'],
    [['lane', 'add', 'lane-z', '--task', 't'], 'lane add'],
  ])('swarm %j refuses it with exit 2 and creates nothing', async (args, command) => {
    const run = await swarm(args, { env: t.agentEnv(command === 'lane add' ? 'lead' : 'lane-a', { SWARM_PLAN: elsewhere.dir }), cwd: t.root });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`swarm ${command}: SWARM_PLAN=${elsewhere.dir} is no plan folder (no PLAN.md, no .swarm/); nothing was written`);
    expect(readdirSync(elsewhere.dir)).toEqual([]);
  });

  it('swarm lead claim is refused there too (fenced: no command claims the lead) and writes nothing', async () => {
    const run = await swarm(['lead', 'claim'], { env: t.agentEnv('lead', { SWARM_PLAN: elsewhere.dir }), cwd: t.root });
    expect(run.code).toBe(3);
    expect(readdirSync(elsewhere.dir)).toEqual([]);
  });
});
