/**
 * Plans with order (SPEC 10.6), in real tmux with the scripted agent: lane-b `after: [lane-a]` starts
 * only once lane-a is done; lane-c blocks itself on a decision and holds lane-d (`after: [lane-c]`) and
 * nothing else — lane-d waits with no pane and no lease, `status --json` saying for whom; `swarm answer
 * lane-c` ends the block at once, and lane-d starts when lane-c is done.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const lanesWithPanes = (s: TestSwarm) => execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{@swarm_lane}'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const at = (s: TestSwarm, event: string, lane: string) => Date.parse(String(s.events(event).find((e) => e.lane === lane)?.ts ?? 'NaN'));

describe('after: in real tmux', () => {
  it('lane-b starts after lane-a is done; lane-c blocked holds only lane-d; swarm answer lane-c unblocks it at once', { timeout: 90_000 }, async () => {
    const unblocked = 'until grep -q \'"event":"unblocked"\' "$SWARM_PLAN/journal.jsonl"; do sleep 0.1; done';
    const s = (t = makeSwarm({
      lanes: [
        // lane-a works on while lane-c is blocked (until lane-c is answered): the block holds it not.
        { name: 'lane-a', agent: { AGENT_G1: 'ready,sh=WAIT,done' } },
        { name: 'lane-b', agent: { AGENT_G1: 'ready,done' }, after: ['lane-a'] },
        { name: 'lane-c', agent: { AGENT_G1: 'ready,block,sh=WAIT,done' } },
        { name: 'lane-d', agent: { AGENT_G1: 'ready,done' }, after: ['lane-c'] },
      ],
    }));
    const { writeFileSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(s.root, 'wait.sh'), `${unblocked}\n`);
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replaceAll('sh=WAIT', `sh=${join(s.root, 'wait.sh')}`));
    const up = s.up(['--timeout', '80s']);
    await waitFor(() => s.events('escalation').some((e) => e.lane === 'lane-c') || null, { timeout: 30_000, what: 'lane-c blocked' });
    // lane-c's block holds lane-d alone: lane-a works; lane-b waits for lane-a, lane-d for lane-c, with no pane.
    const status = JSON.parse((await s.run(['status', s.file, '--json'])).stdout) as { lanes: { name: string; state: string; waiting_for?: string[] }[] };
    expect(status.lanes.map((l) => [l.name, l.state, l.waiting_for ?? null])).toEqual([
      ['lane-a', 'working', null], ['lane-b', 'waiting', ['lane-a']], ['lane-c', 'blocked', null], ['lane-d', 'waiting', ['lane-c']],
    ]);
    expect(lanesWithPanes(s).filter((l) => l === 'lane-b' || l === 'lane-d')).toEqual([]);
    if (process.env.ORDER_DEBUG) console.log(JSON.stringify(s.events('stopped_short')), JSON.stringify(s.events('plan_done')));
    const answered = Date.now();
    const answer = await s.run(['answer', 'lane-c', 'use v2', '--file', s.file]);
    expect(answer.code, answer.stderr).toBe(0);
    const [unblock] = await s.waitEvent('unblocked', 1, 10_000);
    expect(unblock).toMatchObject({ lane: 'lane-c', class: 'decision', by: 'answer' });
    expect(Date.now() - answered).toBeLessThan(10_000);
    const result = await up;
    expect(result.all).toContain('plan done');
    // Each dependent started only after its lane was done.
    expect(at(s, 'lane_started', 'lane-b')).toBeGreaterThanOrEqual(at(s, 'lane_result', 'lane-a'));
    expect(at(s, 'lane_started', 'lane-d')).toBeGreaterThanOrEqual(at(s, 'lane_result', 'lane-c'));
    expect(s.events('dependencies_done').map((e) => e.lane).sort()).toEqual(['lane-b', 'lane-d']);
  });
});
