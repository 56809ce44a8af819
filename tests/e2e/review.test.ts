/**
 * Review by another vendor (SPEC 10.6), in real tmux: lane-a (on an anthropic account) reports done;
 * its gate passes, and a reviewer on an openai account — never the lane's, never the lead's — reads
 * the checkout and says `changes`; lane-a is told, fixes, reports done again; a fresh reviewer says
 * `approved`, and only then is lane-a done.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('review by another vendor in real tmux', () => {
  it('changes, then the lane fixes and reports done, then a fresh reviewer approves: done only then', { timeout: 90_000 }, async () => {
    const s = (t = makeSwarm({
      lanes: [{ name: 'lane-a', account: 'a2', agent: { AGENT_G1: 'ready,done,sh=FIX,done' }, review: '{ command: "sh REVIEW" }' }],
    }));
    const fix = join(s.root, 'fix.sh');
    const review = join(s.root, 'review.sh');
    const seen = join(s.root, 'reviewers.log');
    // The lane fixes what the review asked for once it is told (its mailbox), then reports done again.
    writeFileSync(fix, 'until grep -q "asks for changes" "$SWARM_MAILBOX" 2>/dev/null; do sleep 0.1; done\necho fixed > fixed.txt\n');
    // The reviewer: who it is, where, with what; approved once fixed.txt is there, else changes.
    writeFileSync(review, [
      `echo "$SWARM_LANE g$SWARM_GENERATION role=$SWARM_ROLE of=$SWARM_REVIEW_OF account=$SWARM_ACCOUNT cwd=$(pwd)" >> ${seen}`,
      // The first reviewer waits to be looked at (status --json) before it speaks.
      `[ "$SWARM_GENERATION" = 1 ] && until [ -f ${join(s.root, 'go')} ]; do sleep 0.1; done`,
      'if [ -f fixed.txt ]; then swarm notify lead approved; else swarm notify lead "changes add fixed.txt: the task asks for it"; fi',
    ].join('\n'));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('sh=FIX', `sh=${fix}`).replace('sh REVIEW', `sh ${review}`));
    const up = s.up(['--timeout', '80s']);
    // While it reviews: an entry of its own in status --json, and a row under its lane in the table.
    const entry = await waitFor(async () => {
      const status = JSON.parse((await s.run(['status', s.file, '--json'])).stdout || '{"lanes":[]}') as { lanes: Record<string, unknown>[] };
      return status.lanes.find((l) => l.role === 'reviewer' && l.state === 'working') ?? null;
    }, { timeout: 30_000, what: 'the reviewer in status --json' });
    expect(entry).toMatchObject({ name: 'lane-a.review', review_of: 'lane-a', round: 1, generation: 1, account: expect.stringMatching(/^o[12]$/) });
    expect((await s.run(['status', s.file])).stdout).toMatch(/lane-a\s+g1\s+a2\s+working.*in review \(round 1\)\nlane-a\.review\s+g1\s+o[12]\s+reviewing/);
    writeFileSync(join(s.root, 'go'), '');
    const result = await up;
    expect(result.all).toContain('plan done');
    const reviewers = readFileSync(seen, 'utf8').trim().split('\n');
    expect(reviewers).toHaveLength(2);
    const checkout = join(s.root, 'wt-lane-a');
    reviewers.forEach((line, i) => expect(line).toMatch(new RegExp(`^lane-a\\.review g${i + 1} role=reviewer of=lane-a account=o[12] cwd=${checkout}$`)));
    const verdicts = s.events('review_verdict');
    expect(verdicts.map((v) => [v.round, v.verdict, v.reviewer_generation])).toEqual([[1, 'changes', 1], [2, 'approved', 2]]);
    expect(verdicts[0]!.what).toBe('add fixed.txt: the task asks for it');
    // Done only after approval; each reviewer's account released.
    const at = (e: Record<string, unknown> | undefined) => Date.parse(String(e?.ts));
    expect(at(s.events('lane_result').find((e) => e.result === 'done'))).toBeGreaterThanOrEqual(at(verdicts[1]));
    const released = s.events('lease_released').map((e) => e.account);
    for (const v of verdicts) expect(released).toContain(v.account);
  });
});
