/**
 * `swarm up`'s preflight (SPEC 10.2), with this build's CLI on real tmux: a run that begins is first
 * checked by doctor; a problem (here a signed-out claude profile) refuses the start with exit 4 and
 * doctor's lines, nothing started; `--force` starts it anyway; a `swarm up` that re-adopts the open
 * run is never refused (a run that begins once doctor agrees: tests/e2e/init.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

const BIN = join(ROOT, 'tests', 'fixtures', 'bin-argv');

let t: TestSwarm | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  for (const c of cleanups.splice(0)) c();
});

const serverUp = (socket: string): boolean => {
  try {
    execFileSync('tmux', ['-L', socket, 'list-sessions'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('swarm up: the preflight', () => {
  it('a signed-out profile refuses a new run (exit 4, doctor\'s lines, nothing started); --force starts it; a re-adopt is not checked', async () => {
    const profiles = tempDir('swarm-preflight-');
    cleanups.push(profiles.cleanup);
    const signedOut = join(profiles.dir, 'c1');
    mkdirSync(signedOut, { recursive: true });
    t = makeSwarm({
      lanes: [{ name: 'a', command: null, account: 'c1' }],
      accounts: [{ id: 'l1', kind: 'command', vendor: 'lead-v' }, { id: 'c1', kind: 'claude', vendor: 'anthropic', env: { CLAUDE_CONFIG_DIR: signedOut } }],
    });
    const s = t;
    const env = { PATH: `${BIN}:${process.env.PATH ?? ''}` };

    const refused = await s.up(['--timeout', '20s'], env); // (were the preflight skipped, the run would end here)
    expect(refused.exitCode).toBe(4);
    expect(refused.all).toContain('the preflight found 1 problem(s)');
    expect(refused.all).toMatch(/c1 \(claude\): signed out/);
    expect(refused.all).toContain('swarm up --force');
    expect(s.events('run_started')).toEqual([]);
    expect(existsSync(join(s.plan, '.swarm', 'state.json'))).toBe(false);
    expect(serverUp(s.socket)).toBe(false);

    // --force: the run begins although doctor would refuse it.
    const forced = s.up(['--force'], env);
    await s.waitEvent('run_started', 1, 30_000);
    await s.waitEvent('lead_claimed', 1, 30_000);
    // The lanes are in the saved state once one has started (a run stopped before that is no open run
    // to re-adopt: the next `swarm up` begins one, preflight and all).
    await s.waitEvent('lane_started', 1, 30_000);
    forced.kill('SIGTERM'); // detached: the panes keep running, the run stays open
    await forced;

    // Re-adopting the open run is no start of a run: no preflight, although the profile is still signed out.
    const again = s.up([], env);
    await Promise.race([
      s.waitEvent('readopted', 1, 30_000),
      again.then((r) => { throw new Error(`swarm up exited ${r.exitCode} before re-adopting: ${r.all}`); }),
    ]);
    expect(again.exitCode).toBe(null);
    again.kill('SIGTERM');
    await again;
    expect((await s.run(['down', s.file])).code).toBe(0);
    // A run that begins once doctor agrees (trust written after a refusal): tests/e2e/init.test.ts.
  }, 120_000);
});
