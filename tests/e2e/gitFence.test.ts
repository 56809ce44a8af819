/**
 * Pushes, tags and base-branch updates by the current lead only (SPEC 10.5), tried with real git
 * from real tmux panes against a local bare remote: the lead commits on main at epoch 1 and hands
 * over to lead-b; then the old lead's commit and push of main are refused (and journaled `fenced`
 * with the ref), the new lead's go; lane-a's push of its own branch goes, its pushes of main and
 * HEAD:main, its `git update-ref refs/heads/main` and its tag are refused, also with SWARM_ROLE=lead
 * and the current epoch in its environment. After a kill -9 of `swarm up` the developer's own push,
 * from outside the panes, goes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bareRemote, tried } from '../helpers/bareRemote.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('the base branch and tags are the current lead’s (tmux, a bare remote)', () => {
  it('refuses the stale lead and the lane, lets the new lead and the lane’s own branch go, and never the developer', { timeout: 120_000 }, async () => {
    const s = (t = makeSwarm({ lead: {}, succession: ['lead-b'], lanes: [{ name: 'lane-a', account: 'a2' }], extra: 'base: main' }));
    const { repo, remote, out, dev, script, said } = bareRemote(s);
    const remoteMain = () => execFileSync('git', ['rev-parse', 'main'], { cwd: remote, encoding: 'utf8' }).trim();
    const log = (sha: string) => execFileSync('git', ['log', '-1', '--format=%s', sha], { cwd: remote, encoding: 'utf8' }).trim();

    const epoch = `$(sed -n 's/.*"epoch": *\\([0-9]*\\).*/\\1/p' "$SWARM_PLAN/lead.json")`;
    const leadCommit = script('lead-commit.sh', [tried(out, 'lead-commit', 'git commit -q --allow-empty -m "lead at epoch 1"')]);
    const stale = script('stale.sh', [
      tried(out, 'stale-commit', 'git commit -q --allow-empty -m "stale lead"'),
      tried(out, 'stale-push', 'git push origin main'),
      `touch '${join(out, 'stale-done')}'`,
    ]);
    const newLead = script('new-lead.sh', [
      `until [ -e '${join(out, 'stale-done')}' ]; do sleep 0.1; done`,
      tried(out, 'new-commit', 'git commit -q --allow-empty -m "lead-b at epoch 2"'),
      tried(out, 'new-push', 'git push origin main'),
    ]);
    const lane = script('lane.sh', [
      `until [ -e '${join(out, 'lead-commit')}' ]; do sleep 0.1; done`,
      tried(out, 'lane-commit', 'git commit -q --allow-empty -m "lane-a work"'),
      tried(out, 'lane-own', 'git push origin HEAD'),
      tried(out, 'lane-head-main', 'git push origin HEAD:main'),
      tried(out, 'lane-main', 'git push origin main'),
      tried(out, 'lane-as-lead', `SWARM_ROLE=lead SWARM_LANE=lead SWARM_EPOCH=${epoch} git push origin HEAD:main`),
      tried(out, 'lane-update-ref', 'git update-ref refs/heads/main HEAD'),
      tried(out, 'lane-tag', 'git tag v-lane'),
      `touch '${join(out, 'lane-done')}'`,
      `until [ -e '${join(s.root, 'go')}' ]; do sleep 0.1; done`,
    ]);
    writeFileSync(s.file, readFileSync(s.file, 'utf8')
      .replace("AGENT_G1='ready'", `AGENT_G1='ready,sh=${leadCommit},handover,sh=${stale}' AGENT_PAUSE_G2='2000' AGENT_G2='sh=${newLead}'`)
      .replace(/(name: lane-a[\s\S]*?command: ")/, `$1AGENT_G1='ready,sh=${lane},done' `));

    const up = s.up(['--timeout', '100s']);
    await waitFor(() => (['stale-done', 'new-push', 'lane-done'].every((f) => existsSync(join(out, f))) && /rc=/.test(readFileSync(join(out, 'new-push'), 'utf8'))) || null, { timeout: 90_000, what: 'the old lead, the new lead and lane-a to try' });

    // The lead at epoch 1 commits on main; once it has handed over, neither its commit nor its push.
    expect(said('lead-commit')).toContain('rc=0');
    expect(said('stale-commit')).toMatch(/swarm: refused refs\/heads\/main: updating main \(git commit\) is for the current lead only \(lead-b@2\), and lead@1 is not; you are no longer the lead/);
    expect(said('stale-commit')).not.toContain('rc=0');
    expect(said('stale-push')).toMatch(/swarm: refused refs\/heads\/main: pushing to main on origin is for the current lead only \(lead-b@2\)/);
    expect(said('stale-push')).not.toContain('rc=0');
    // The new lead's commit and push go: main on the remote is lead-b's, on top of the lead's.
    expect(said('new-commit')).toContain('rc=0');
    expect(said('new-push')).toContain('rc=0');
    expect(log(remoteMain())).toBe('lead-b at epoch 2');
    expect(log(`${remoteMain()}~1`)).toBe('lead at epoch 1');
    // lane-a: its own branch goes; main, by any way and any environment, does not.
    expect(said('lane-commit')).toContain('rc=0');
    expect(said('lane-own')).toContain('rc=0');
    expect(execFileSync('git', ['log', '-1', '--format=%s', 'lane/lane-a'], { cwd: remote, encoding: 'utf8' }).trim()).toBe('lane-a work');
    for (const name of ['lane-head-main', 'lane-main', 'lane-as-lead', 'lane-update-ref']) {
      expect(said(name), name).toMatch(/swarm: refused refs\/heads\/main: .* is for the current lead only \(lead(-b)?@\d\), and lane lane-a is not/);
      expect(said(name), name).not.toContain('rc=0');
    }
    expect(said('lane-tag')).toMatch(/swarm: refused refs\/tags\/v-lane: making tag v-lane is for the current lead only/);
    expect(execFileSync('git', ['tag', '--list'], { cwd: repo, encoding: 'utf8' }).trim()).toBe('');

    // Each refusal journaled `fenced` with its ref, by the agent it came from.
    const fenced = s.events('fenced').map((e) => `${String(e.lane)} ${String(e.command)} ${String(e.ref)}`);
    expect(fenced).toEqual(expect.arrayContaining([
      'lead git reference-transaction refs/heads/main',
      'lead git pre-push refs/heads/main',
      'lane-a git pre-push refs/heads/main',
      'lane-a git reference-transaction refs/heads/main',
      'lane-a git reference-transaction refs/tags/v-lane',
    ]));
    expect(fenced.filter((f) => f.startsWith('lead-b'))).toEqual([]);

    // swarm up killed -9, the panes still up: the developer's own commit and push, outside the panes, go.
    up.kill('SIGKILL');
    await up;
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'the developer'], { cwd: repo, env: dev });
    execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: repo, env: dev });
    expect(log(remoteMain())).toBe('the developer');
    writeFileSync(join(s.root, 'go'), '');
  });
});
