/**
 * Gates travel (SPEC 10.6), in real tmux with scripted agents: lane-a g1 hands off a packet whose
 * unverified gates name PLAN.md's `lint` gate and carry a command of its own. Its successor's first
 * `done` runs `done_when` and `lint` together: lint fails, so the lane is not done and works again; it
 * fixes lint and reports `done` again, and only then is it done. The packet's own command is shown,
 * never run.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('gates travel with the packet', () => {
  it('a successor whose packet left a plan gate unverified is done only once that gate passes too; other gate text never runs', async () => {
    const ran = join('/tmp', `swarm-gates-travel-${process.pid}-ran`);
    const fix = join('/tmp', `swarm-gates-travel-${process.pid}-fix.sh`);
    writeFileSync(fix, 'touch lint-ok\n');
    const s = (t = makeSwarm({
      lanes: [{
        name: 'lane-a', doneWhen: 'test -f done.txt',
        agent: { AGENT_G1: 'ready,handoff', AGENT_UNVERIFIED: `lint clean=lint|cleanup=touch ${ran}`, AGENT_G2: `ready,done,sleep2500,sh=${fix},done` },
      }],
    }));
    writeFileSync(join(s.plan, 'PLAN.md'), '---\ncontract: e2e-1\ngates:\n  lint: test -f lint-ok\n---\n# E2E plan\n');
    const run = await s.up(['--timeout', '60s']);
    expect(run.exitCode, run.all).toBe(0);
    const results = s.events('lane_result').map((e) => [e.generation, e.result, e.gate]);
    expect(results).toEqual([
      [2, 'gate_failed', '(test -f done.txt) && (test -f lint-ok)'],
      [2, 'done', '(test -f done.txt) && (test -f lint-ok)'],
    ]);
    expect(existsSync(ran)).toBe(false);
  }, 90_000);
});
