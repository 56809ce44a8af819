/**
 * A lane promoted in place (SPEC 10.5), in real tmux with a bare remote: the lead's pane is killed
 * (prefix+x, as a user would) while lane-a works; `succession: [lane-a]`. lane-a's agent is told to
 * hand off its lane work, does, and once its successor (lane-a g2, on another account, in the same
 * checkout) has accepted, it leads from its own pane as lead-lane-a at epoch 2: `swarm lead show`
 * says so, its push of HEAD:main goes and it releases the plan; lane-a g2's push of main and its
 * `swarm lead release` are refused. One pane per lane at the end, the lead's pane relabelled.
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

/** A script line: wait until the journal has `event`. */
const until = (event: string) => `until grep -q '"event":"${event}"' "$SWARM_PLAN/journal.jsonl"; do sleep 0.1; done`;

const panes = (s: TestSwarm) => execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{pane_id} #{@swarm_lane} #{@swarm_generation} #{@swarm_account} #{pane_dead}'], { encoding: 'utf8' })
  .split('\n').filter((l) => /^%\d+ \S+ \d+/.test(l));

describe('a lane promoted in place (tmux, a bare remote)', () => {
  it.each([
    ['', false],
    [', and after a kill -9 of swarm up the restart finds the lead in that pane', true],
  ])('the lead\'s pane killed: lane-a hands off its lane work, then leads from its own pane at epoch 2; its successor cannot act as lead%s', { timeout: 120_000 }, async (_what, restart) => {
    const s = (t = makeSwarm({
      lead: {}, succession: ['lane-a'], lanes: [{ name: 'lane-a', account: 'a2' }], extra: 'base: main',
      timeouts: '{ accept: 30s, packet: 20s, stall: 10m, ask: 30s, release: 90s }',
    }));
    const { remote, out, script, said } = bareRemote(s);
    // lane-a g1: works, is promoted, hands off (the fixture's `handoff`), then leads.
    const promoted = script('promoted.sh', [`touch '${join(out, 'a-ready')}'`, until('lane_promoted')]);
    const leads = script('leads.sh', [
      until('pane_adopted'),
      tried(out, 'show', 'swarm lead show'),
      tried(out, 'lead-commit', 'git commit -q --allow-empty -m "the promoted lead"'),
      tried(out, 'lead-push', 'git push origin HEAD:main'),
      `until [ -e '${join(out, 'g2-done')}' ]; do sleep 0.1; done`,
      until('all_lanes_done'),
      tried(out, 'lead-release', 'swarm lead release'),
    ]);
    // lane-a g2: the lane's successor, in the same checkout, under the lane's name: no lead.
    const successor = script('successor.sh', [
      until('pane_adopted'),
      `until [ -e '${join(out, 'lead-push')}' ] && grep -q rc= '${join(out, 'lead-push')}'; do sleep 0.1; done`,
      tried(out, 'g2-commit', 'git commit -q --allow-empty -m "lane-a g2 work"'),
      tried(out, 'g2-push', 'git push origin HEAD:main'),
      tried(out, 'g2-release', 'swarm lead release'),
      `touch '${join(out, 'g2-done')}'`,
    ]);
    writeFileSync(s.file, readFileSync(s.file, 'utf8')
      .replace(/(name: lane-a[\s\S]*?command: ")/, `$1AGENT_G1='ready,sh=${promoted},handoff,sh=${leads}' AGENT_G2='ready,sh=${successor},done' `));

    let up = s.up(['--timeout', '100s']);
    await waitFor(() => existsSync(join(out, 'a-ready')) || null, { timeout: 30_000, what: 'lane-a working' });
    const state = () => JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { lanes: Record<string, { state: string }> };
    await waitFor(() => state().lanes['lane-a']?.state === 'working' || null, { timeout: 20_000, what: 'lane-a working, as swarm saw it' });
    const lead = panes(s).find((p) => p.split(' ')[1] === 'lead')!.split(' ')[0]!;
    execFileSync('tmux', ['-L', s.socket, 'kill-pane', '-t', lead]);

    const [adopted] = await s.waitEvent('pane_adopted', 1, 60_000);
    expect(adopted).toMatchObject({ lane: 'lead-lane-a', generation: 2, from: 'lane-a g1', account: 'a2', epoch: 2 });
    if (restart) {
      up.kill('SIGKILL');
      await up;
      up = s.up(['--timeout', '100s']);
    }
    const result = await up;
    expect(result.all).toContain('plan done');

    expect(s.events('lane_promoted')).toMatchObject([{ lane: 'lane-a', generation: 1, as: 'lead-lane-a', epoch: 2 }]);
    expect(said('show')).toMatch(/lead lead-lane-a@2, lane-a g1 promoted in place/);
    expect(said('show')).toContain('rc=0');
    // The promoted lead's push of main goes; the lane's successor's push and release are refused.
    expect(said('lead-push')).toContain('rc=0');
    expect(execFileSync('git', ['log', '-1', '--format=%s', 'main'], { cwd: remote, encoding: 'utf8' }).trim()).toBe('the promoted lead');
    expect(said('g2-push')).toMatch(/swarm: refused refs\/heads\/main: pushing to main on origin is for the current lead only \(lead-lane-a@2\)/);
    expect(said('g2-release')).toMatch(/not the lead of plan p \(lead is lead-lane-a@2\)/);
    expect(said('g2-release')).toContain('rc=3');
    expect(said('lead-release')).toContain('rc=0');
    expect(s.events('lead_released')).toMatchObject([{ lane: 'lead-lane-a', by: 'lead-lane-a' }]);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-lane-a', epoch: 2, released: true, promoted_from: { lane: 'lane-a', generation: 1 } });
    // The lead's spent pane gone, lane-a g1's pane the lead's now; one live pane per lane.
    const live = panes(s).filter((p) => p.endsWith(' 0')).map((p) => p.split(' ').slice(1, 4).join(' ')).sort();
    expect(live).toEqual([expect.stringMatching(/^lane-a 2 o\d$/), 'lead-lane-a 2 a2']);
    expect(s.agentLog().filter((l) => l.startsWith('lane-a g1 ')).at(-1)).toBe('lane-a g1 idle');
    // No successor lead was ever started: the promoted agent is the lead, before and after a restart.
    expect(s.events('successor_spawned').filter((e) => e.lane === 'lead')).toEqual([]);
    expect(s.events('lead_accepted')).toHaveLength(1);
    if (restart) expect(s.events('readopted').length).toBeGreaterThanOrEqual(1);
  });
});
