/**
 * A configuration that is not known good never half-starts a swarm (issue 10, items 16, 17, 21):
 * `swarm up --headless` exits 2 before it claims the lead, leases an account or starts tmux.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm, tmuxServerRuns } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});


/** `swarm up --headless` on the swarm; a run that starts anything is stopped by its --timeout. */
async function up(s: TestSwarm): Promise<{ code: number; stderr: string }> {
  const r = await execa('node', [CLI, 'up', s.file, '--headless', '--timeout', '8s'], { env: s.env, extendEnv: false, reject: false, cwd: join(s.root, 'repo'), timeout: 60_000 });
  return { code: r.exitCode ?? -1, stderr: r.stderr };
}

function expectNothingStarted(s: TestSwarm): void {
  expect(existsSync(join(s.plan, 'lead.json'))).toBe(false);
  expect(existsSync(join(s.plan, '.swarm', 'leases'))).toBe(false);
  expect(tmuxServerRuns(s.socket)).toBe(false);
}

describe('swarm up on a configuration that is not known good', () => {
  it('refuses a kind file with errors before it starts anything (exit 2)', async () => {
    const s = (t = makeSwarm({
      accounts: [{ id: 'a1', vendor: 'x' }, { id: 'a2', kind: 'mine', vendor: 'y' }],
      lanes: [{ name: 'lane-a', account: 'a2', agent: { AGENT_G1: 'ready' } }],
    }));
    mkdirSync(join(s.root, 'repo', 'panes'));
    writeFileSync(join(s.root, 'repo', 'panes', 'mine.yaml'), 'kind: mine\nscreens:\n  login: ["not (logged"]\n');
    const r = await up(s);
    expect(r.stderr).toContain('panes/mine.yaml:3:11: "screens.login[0]" is not a valid regular expression (Unterminated group)');
    expect(r.code).toBe(2);
    expectNothingStarted(s);
  });

  it('refuses a swarm.yaml that is a FIFO at once, without hanging (exit 2)', async () => {
    const s = (t = makeSwarm({ lanes: [] }));
    rmSync(s.file);
    execFileSync('mkfifo', [s.file]);
    const r = await execa('node', [CLI, 'validate', s.file], { env: s.env, extendEnv: false, reject: false, timeout: 10_000 });
    expect(r.timedOut).toBe(false);
    expect(r.stderr).toContain('is not a regular file (a FIFO): a swarm.yaml must be a plain file');
    expect(r.exitCode).toBe(2);
    expectNothingStarted(s);
  });

  it('refuses a lane on a command-kind account without a command: before it starts anything (exit 2)', async () => {
    const s = (t = makeSwarm({
      accounts: [{ id: 'a1', vendor: 'x' }, { id: 'a2', vendor: 'y' }],
      lanes: [{ name: 'lane-a', account: 'a2' }],
    }));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace(/( {4}account: a2\n) {4}command: .*\n/, '$1'));
    const r = await up(s);
    expect(r.stderr).toMatch(/swarm\.yaml:\d+:\d+: lane "lane-a" runs on account "a2" of kind "command", which has no launch of its own/);
    expect(r.code).toBe(2);
    expectNothingStarted(s);
  });
});

describe('a lane without a command: in a pool with command-kind accounts', () => {
  it('is never given one of them: it starts on an account whose kind launches itself', async () => {
    const s = (t = makeSwarm({
      accounts: [{ id: 'a1', vendor: 'x' }, { id: 'a2', vendor: 'x' }, { id: 'a3', kind: 'sim', vendor: 'y' }],
      lanes: [{ name: 'lane-a' }],
    }));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace(/( {2}- name: lane-a\n(?: {4}.*\n)*?) {4}command: .*\n/, '$1'));
    expect(readFileSync(s.file, 'utf8')).not.toMatch(/lane-a[^]*command:/);
    const child = s.up(['--timeout', '60s']);
    const started = await waitFor(() => s.events('lane_started').find((e) => e.lane === 'lane-a') ?? s.events('start_failed')[0], { what: 'lane-a started or failed' });
    child.kill('SIGTERM');
    expect(started).toMatchObject({ event: 'lane_started', lane: 'lane-a', account: 'a3' });
    expect(s.events('start_failed')).toEqual([]);
  });
});
