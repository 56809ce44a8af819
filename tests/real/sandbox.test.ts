/**
 * A sandboxed Codex lane (SPEC 10.3, issue 23), with the published Codex 0.171.0's own Linux sandbox
 * (`codex sandbox`: Landlock, seccomp and a pid namespace of its own) on PATH (`npm run test:real`),
 * inside lane-a's real tmux pane. The sandbox gets exactly the flags swarm gives a Codex lane under
 * `approvals.codex: { sandbox: workspace-write }` (kinds/codex/launch.ts): from inside, the lane's
 * `swarm notify` is known as lane-a by its spool, it commits in its worktree, and it can write
 * neither lane-b's spool nor the plan's journal. The swarm lives outside /tmp: the sandbox lets every
 * command write all of /tmp. Not part of `npm test`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMailbox } from '../../src/core/protocol/mailbox.js';
import { gitDirs } from '../../src/adapters/git.js';
import { codexApprovalFlags } from '../../src/kinds/codex/launch.js';
import { git } from '../helpers/swarm.js';
import { AGENT, makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

/** Outside /tmp (see above) and $TMPDIR, wherever the project is checked out; removed after. */
const BASE = mkdtempSync('/var/tmp/swarm-sandbox-tests-');
let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
  rmSync(BASE, { recursive: true, force: true });
});

/** makeSwarm with its folder under BASE (it makes it with the system's temporary folder). */
function swarmOutsideTmp(): TestSwarm {
  mkdirSync(BASE, { recursive: true });
  const before = process.env.TMPDIR;
  process.env.TMPDIR = BASE;
  try {
    return makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2', command: 'placeholder-a' }, { name: 'lane-b', account: 'a3' }] });
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('a Codex lane under workspace-write, in the real Codex sandbox (tmux)', () => {
  it('reports as itself by its spool, commits in its worktree, and can write no other spool nor the journal', { timeout: 120_000 }, async () => {
    const s = (t = swarmOutsideTmp());
    const checkout = join(s.root, 'wt-lane-a');
    const spool = join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g1');
    const otherSpool = join(s.plan, '.swarm', 'spool', 'r1', 'lane-b-g1', 'records.jsonl');
    // The flags swarm gives this lane (the spool and the worktree's git folders writable), as Codex's sandbox takes them.
    const flags = codexApprovalFlags({ approval: 'never', sandbox: 'workspace-write' }, [spool, ...gitDirs(checkout)]).argv;
    const roots = flags[flags.indexOf('-c') + 1]!;
    expect(roots).toContain(join(s.root, 'repo', '.git'));
    const out = join(s.root, 'sandboxed.out');
    const home = join(s.root, 'codex-home');
    mkdirSync(home, { recursive: true });
    const inside = [
      'echo "pid=$$"',
      'swarm notify lead "note: from the codex sandbox"; echo "notify=$?"',
      'echo work > work.txt && git add work.txt && git -c user.email=l@a -c user.name=lane-a commit -qm "lane-a work" && echo "commit=0"',
      `printf '%s\\n' '{"kind":"message","to":"lead","text":"done"}' >> ${shellQuote(otherSpool)}; echo "other-spool=$?"`,
      `echo '{}' >> "$SWARM_PLAN/journal.jsonl"; echo "journal=$?"`,
    ].join('\n');
    writeFileSync(join(s.root, 'lane-a.sh'), [
      `HOME=${shellQuote(home)} codex sandbox -c 'sandbox_mode="workspace-write"' -c ${shellQuote(roots)} -- sh -c ${shellQuote(inside)} > ${shellQuote(out)} 2>&1`,
      `echo "rc=$?" >> ${shellQuote(out)}`,
      `AGENT_G1=ready,done exec '${process.execPath}' '${AGENT}'`,
      '',
    ].join('\n'));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('command: "placeholder-a"', `command: "sh ${join(s.root, 'lane-a.sh')}"`));
    const journalBefore = () => (existsSync(join(s.plan, 'journal.jsonl')) ? readFileSync(join(s.plan, 'journal.jsonl'), 'utf8') : '');

    const up = s.up(['--timeout', '90s']);
    await waitFor(() => (existsSync(out) && readFileSync(out, 'utf8').includes('rc=')) || null, { timeout: 60_000, what: 'lane-a\'s sandboxed commands' });
    const said = readFileSync(out, 'utf8');
    expect(said).toMatch(/^pid=\d$/m); // a pid namespace of its own: no ancestor to know it by
    expect(said).toContain('swarm: queued for lead');
    expect(said).toContain('notify=0');
    expect(said).toContain('commit=0');
    expect(said).toMatch(/other-spool=[1-9]/);
    expect(said).toMatch(/journal=[1-9]/);
    expect(said).toContain('Read-only file system');
    expect(git(checkout, 'log', '-1', '--format=%s')).toBe('lane-a work');
    expect(journalBefore()).not.toMatch(/^\{\}$/m);
    expect(existsSync(otherSpool) ? readFileSync(otherSpool, 'utf8') : '').not.toContain('"text":"done"');

    const mailbox = join(s.plan, '.swarm', 'mailbox', 'lead.md');
    await waitFor(() => (existsSync(mailbox) && readFileSync(mailbox, 'utf8').includes('from the codex sandbox')) || null, { timeout: 15_000, what: 'the note in the lead\'s mailbox' });
    expect(parseMailbox(readFileSync(mailbox, 'utf8')).filter((m) => m.text.includes('from the codex sandbox'))).toEqual([expect.objectContaining({ from: 'lane-a', authority: 'lane' })]);
    expect(s.events('fenced')).toEqual([]);
    const run = await up;
    expect(run.all).toContain('plan done');
  });

  it('hands off from the sandbox: its packet (in its spool) published, its sandboxed successor accepting, the record written by swarm', { timeout: 120_000 }, async () => {
    const s = (t = swarmOutsideTmp());
    const home = join(s.root, 'codex-home');
    mkdirSync(home, { recursive: true });
    const out = (g: number) => join(s.root, `g${g}.out`);
    // Each generation runs its commands in the sandbox with the roots swarm gives it (its own spool).
    const sandboxed = (g: number, inside: string) => {
      const checkout = join(s.root, 'wt-lane-a');
      const flags = codexApprovalFlags({ approval: 'never', sandbox: 'workspace-write' }, [join(s.plan, '.swarm', 'spool', 'r1', `lane-a-g${g}`), ...gitDirs(checkout)]).argv;
      return `HOME=${shellQuote(home)} codex sandbox -c 'sandbox_mode="workspace-write"' -c ${shellQuote(flags[flags.indexOf('-c') + 1]!)} -- sh -c ${shellQuote(inside)} > ${shellQuote(out(g))} 2>&1`;
    };
    writeFileSync(join(s.root, 'lane-a.sh'), [
      'if [ "$SWARM_GENERATION" = 1 ]; then',
      `  ${sandboxed(1, 'p=$(swarm packet write --reason capacity_low --doing "step 1" --next "finish the task") || exit 1; echo "packet=$p"; swarm notify lead "handoff $p"; echo "notify=$?"')}`,
      '  exec sleep 600',
      'fi',
      sandboxed(2, 'swarm accept > /dev/null; echo "accept=$?"'),
      `AGENT_G2=ready,done exec '${process.execPath}' '${AGENT}'`,
      '',
    ].join('\n'));
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('command: "placeholder-a"', `command: "sh ${join(s.root, 'lane-a.sh')}"`));

    const run = await s.up(['--timeout', '90s']);
    expect(run.all).toContain('plan done');
    const spooled = /^packet=(.+)$/m.exec(readFileSync(out(1), 'utf8'))?.[1] ?? '';
    expect(spooled.startsWith(join(s.plan, '.swarm', 'spool', 'r1', 'lane-a-g1', 'packets'))).toBe(true);
    const published = join(s.plan, 'analysis_results', 'handoff', basename(spooled));
    expect(s.events('packet_published')).toMatchObject([{ lane: 'lane-a', from: spooled, packet: published }]);
    expect(readFileSync(out(2), 'utf8')).toContain('accept=0');
    expect(s.events('packet_accepted')).toMatchObject([{ lane: 'lane-a', generation: 2, packet: published }]);
    expect(JSON.parse(readFileSync(`${published}.accepted.json`, 'utf8'))).toMatchObject({ by: { lane: 'lane-a', generation: 2 } });
    expect(s.events('fenced')).toEqual([]);
  });
});
