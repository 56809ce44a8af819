/**
 * A sandboxed agent's commands (SPEC 10.3): a sandbox (Codex's workspace-write) runs the agent's
 * commands in a pid namespace of their own, where no ancestor — and so no pane — is visible. Such a
 * command is known by the spool its pane was given (SWARM_SPOOL), the one folder the sandbox lets it
 * write. Here the namespace is made with `unshare -p` inside lane-a's real tmux pane (the real Codex
 * sandbox: tests/real/sandbox.test.ts); a shell outside every pane, in swarm's own namespace, naming
 * the same spool, is fenced as before.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMailbox } from '../../src/core/protocol/mailbox.js';
import { swarm } from '../helpers/swarm.js';
import { AGENT, makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const unshareWorks = (() => {
  try {
    execFileSync('unshare', ['-p', '-f', '--mount-proc', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const title = unshareWorks ? 'a command in a pid namespace of its own, from a lane pane (tmux)' : 'a sandboxed command: SKIPPED, `unshare -p` is not permitted here (run the tests as root)';
describe.skipIf(!unshareWorks)(title, () => {
  it('is known as its lane by its spool; the same spool named from a shell outside every pane is fenced', { timeout: 90_000 }, async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2', command: 'placeholder-a' }] }));
    const out = join(s.root, 'sandboxed');
    const go = join(s.root, 'go');
    writeFileSync(join(s.root, 'lane-a.sh'), [
      // No ancestor visible: the namespace's first process is this shell (pid 1).
      `unshare -p -f --mount-proc sh -c 'echo "pid=$$"; swarm notify lead "note: from a sandbox"; echo "rc=$?"' > '${out}' 2>&1`,
      `until [ -e '${go}' ]; do sleep 0.1; done`,
      `AGENT_G1=ready,done exec '${process.execPath}' '${AGENT}'`,
      '',
    ].join('\n'));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('command: "placeholder-a"', `command: "sh ${join(s.root, 'lane-a.sh')}"`));

    const up = s.up(['--timeout', '60s']);
    await waitFor(() => (existsSync(out) && readFileSync(out, 'utf8').includes('rc=')) || null, { timeout: 30_000, what: 'lane-a\'s sandboxed notify' });
    const said = readFileSync(out, 'utf8');
    expect(said).toContain('pid=1');
    expect(said).toContain('swarm: queued for lead');
    expect(said).toContain('rc=0');
    // Read by the engine as lane-a's (its spool), and put in the lead's mailbox under lane-a's name.
    const mailbox = join(s.plan, '.swarm', 'mailbox', 'lead.md');
    await waitFor(() => (existsSync(mailbox) && readFileSync(mailbox, 'utf8').includes('note: from a sandbox')) || null, { timeout: 15_000, what: 'the note in the lead\'s mailbox' });
    expect(parseMailbox(readFileSync(mailbox, 'utf8')).filter((m) => m.text.includes('note: from a sandbox'))).toEqual([expect.objectContaining({ from: 'lane-a', authority: 'lane' })]);
    expect(s.events('fenced')).toEqual([]);

    // The same spool, named by a shell of swarm's own namespace outside every pane: nobody's.
    const spool = join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g1');
    const outside = await swarm(['notify', 'lead', 'done'], { env: { ...s.env, SWARM_PLAN: s.plan, SWARM_LANE: 'lane-a', SWARM_SPOOL: spool }, pane: false });
    expect(outside.code, outside.stderr).toBe(3);
    expect(outside.stderr).toContain('fenced: swarm notify ran outside every pane swarm started for this plan');
    expect(s.events('lane_result')).toEqual([]);

    writeFileSync(go, '');
    const run = await up;
    expect(run.all).toContain('plan done');
    expect(s.events('lane_result').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
  });

  // A sandbox lets its agent write its spool alone: its packet goes there and the engine publishes it;
  // its successor's acceptance is its spool's record, and the engine writes the record file.
  it('hands off from a sandbox: the packet written to its spool is published, the sandboxed successor accepts, the record is written by swarm', { timeout: 90_000 }, async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2', command: 'placeholder-a' }] }));
    const out = (g: number) => join(s.root, `g${g}.out`);
    writeFileSync(join(s.root, 'lane-a.sh'), [
      'if [ "$SWARM_GENERATION" = 1 ]; then',
      `  unshare -p -f --mount-proc sh -c 'p=$(swarm packet write --reason capacity_low --doing "step 1" --next "finish the task") || exit 1; echo "packet=$p"; swarm notify lead "handoff $p"; echo "notify=$?"' > '${out(1)}' 2>&1`,
      '  exec sleep 600',
      'fi',
      `unshare -p -f --mount-proc sh -c 'swarm accept > /dev/null; echo "accept=$?"' > '${out(2)}' 2>&1`,
      `AGENT_G2=ready,done exec '${process.execPath}' '${AGENT}'`,
      '',
    ].join('\n'));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('command: "placeholder-a"', `command: "sh ${join(s.root, 'lane-a.sh')}"`));

    const run = await s.up(['--timeout', '60s']);
    expect(run.all).toContain('plan done');
    const g1 = readFileSync(out(1), 'utf8');
    const spooled = /^packet=(.+)$/m.exec(g1)?.[1];
    expect(spooled).toBe(join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g1', 'packets', basename(spooled!)));
    expect(g1).toContain('notify=0');
    const published = join(s.plan, 'analysis_results', 'handoff', basename(spooled!));
    expect(s.events('packet_published')).toMatchObject([{ lane: 'lane-a', generation: 1, from: spooled, packet: published }]);
    expect(statSync(published).mode & 0o777).toBe(0o600);
    expect(readFileSync(published, 'utf8')).toBe(readFileSync(spooled!, 'utf8'));
    expect(s.events('handoff_reported')).toMatchObject([{ lane: 'lane-a', packet: published }]);
    expect(readFileSync(out(2), 'utf8')).toContain('accept=0');
    expect(s.events('packet_accepted')).toMatchObject([{ lane: 'lane-a', generation: 2, packet: published }]);
    expect(JSON.parse(readFileSync(`${published}.accepted.json`, 'utf8'))).toMatchObject({ packet: published, by: { lane: 'lane-a', generation: 2 }, from: { lane: 'lane-a', generation: 1 } });
    expect(s.events('fenced')).toEqual([]);
  });
});
