/**
 * `swarm drill` (SPEC 8, issue 4 part 3): the rehearsal runs in its own temporary repository on its
 * own tmux socket, prints the summary table and exits 0 only when every item holds; --keep leaves the
 * repository and its evidence for inspection.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';
import { tmuxServerRuns } from '../helpers/swarmUp.js';

const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' };
const drill = (args: string[]) => execa('node', [CLI, 'drill', ...args], { env, extendEnv: false, reject: false, timeout: 150_000, stdin: 'ignore' });

const ITEMS = [
  'no key typed by a human',
  'every packet written and accepted',
  'capped lane-a hands off to a successor',
  'the successor passes the gates',
  'capped lead hands over',
  'the lead packet lists every lane',
  'every epoch recorded',
  "a stale lead's push of main is refused",
  'the new lead finishes the plan',
  'one lane-to-lane ask answered',
  'a dependent lane starts only after its dependencies are done',
  'a reviewed lane is done only once another vendor approves',
  "every lane's gate passes",
  'plan done, headless',
];

const kept: string[] = [];
afterAll(() => {
  for (const dir of kept) rmSync(dir, { recursive: true, force: true });
});


describe('swarm drill', () => {
  it('--keep: every item holds, exit 0, the evidence stays in the plan and the tmux server is gone', async () => {
    const result = await drill(['--keep']);
    const out = String(result.stdout);
    const root = /swarm drill: kept (\S+);/.exec(out)?.[1] ?? '';
    if (root) kept.push(root);
    expect(result.exitCode, `${out}\n${String(result.stderr)}`).toBe(0);
    const table = out.split('\n').filter((l) => ITEMS.some((i) => l.startsWith(i)));
    expect(table.map((l) => l.replace(/\s{2,}/g, ' | '))).toEqual(ITEMS.map((i) => expect.stringMatching(new RegExp(`^${i.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| yes \\| analysis_results/drill/[\\w-]+\\.md$`))));
    expect(out).toContain('swarm drill: every item holds');

    const evidence = join(root, 'repo', 'plans', 'drill', 'analysis_results', 'drill');
    for (const file of ['summary.md', 'keys.md', 'packets.md', 'epochs.md', 'asks.md', 'order-and-review.md', 'gates.md']) expect(existsSync(join(evidence, file)), file).toBe(true);
    const read = (file: string) => readFileSync(join(evidence, file), 'utf8');
    expect(read('summary.md')).toContain('Every item holds: yes.');
    expect(read('keys.md')).toContain("Every typed line is swarm's pointer line.");
    expect(read('keys.md')).toContain('None was written: no pane showed such a screen');
    expect(read('packets.md')).toMatch(/\| analysis_results\/handoff\/lane-a-g1-\S+\.yaml \| 0600 \| capacity_low \| lane-a g1 @drill-a2 \| no \| lane-a g2 @drill-o\d /);
    expect(read('packets.md')).toMatch(/\| analysis_results\/handoff\/lead-g1-\S+\.yaml \| 0600 \| lead_handover \| lead g1 @drill-a1 \| no \| lead-b g2 @drill-o\d /);
    expect(read('epochs.md')).toMatch(/"lead": "lead-b",\n {2}"epoch": 2,/);
    expect(read('asks.md')).toContain('lane-c asked lane-a `ask what is your file called?`; lane-a answered `answer greeting.txt');
    expect(read('gates.md')).toContain("| lane-a g2 | rerun gate passed: grep -qx 'hello from lane-a' greeting.txt |");
    // lane-d started once lane-b was done; lane-c's first review asked for lane-d's file, a fresh reviewer on another vendor approved.
    const summary = read('summary.md');
    expect(summary).toContain('| a dependent lane starts only after its dependencies are done | yes | analysis_results/drill/order-and-review.md | lane-d started after lane-b was done |');
    expect(summary).toMatch(/\| a reviewed lane is done only once another vendor approves \| yes \| \S+ \| lane-c: round 1 changes by lane-c\.review g1 @drill-o\d \(openai-sim\), round 2 approved by g2 @drill-o\d \(openai-sim\); done after approval \|/);
    expect(summary).toContain('| the lead packet lists every lane | yes |');
    expect(summary).toMatch(/4 of 4 lanes passed done_when/);
    expect(read('order-and-review.md')).toMatch(/\| lane-d \| lane-b \| \S+ \| \S+ \| \S+ \| drill-a4 \|/);
    expect(read('order-and-review.md')).toMatch(/\| lane-c \| 1 \| lane-c\.review g1 \| drill-o\d \| openai-sim \| drill-a3 \(anthropic-sim\) \| no \| changes \| summary\.md names no file of lane-d; add the line '- lane-d: total\.txt' \|/);

    const socket = /tmux socket (\S+)/.exec(out)?.[1];
    expect(socket).toBeDefined();
    expect(tmuxServerRuns(socket!)).toBe(false);
    // The lanes committed on their own branches; nothing is left uncommitted in any worktree.
    for (const lane of ['lane-a', 'lane-b', 'lane-c', 'lane-d']) {
      const wt = join(root, `wt-${lane}`);
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: wt, encoding: 'utf8' })).toBe('');
      expect(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: wt, encoding: 'utf8' }).trim()).toMatch(new RegExp(`^${lane}: `));
    }
    expect(readFileSync(join(root, 'wt-lane-d', 'total.txt'), 'utf8').trim()).toBe('15');
    expect(readFileSync(join(root, 'wt-lane-c', 'summary.md'), 'utf8')).toContain('- lane-d: total.txt');
    expect(execFileSync('git', ['log', '--format=%s'], { cwd: join(root, 'wt-lane-c'), encoding: 'utf8' })).toContain('lane-c: summary\n');
  });

  it('without --keep it removes the temporary repository', async () => {
    const result = await drill([]);
    const out = String(result.stdout);
    expect(result.exitCode, out).toBe(0);
    const root = /swarm drill: removed (\S+)\n/.exec(out)?.[1];
    expect(root).toMatch(/swarm-drill-/);
    expect(existsSync(root!)).toBe(false);
    // The summary names no file it has just removed.
    const table = out.slice(out.lastIndexOf('\nitem '));
    expect(table).toMatch(/^\nitem +holds {2}seen$/m);
    expect(table).not.toContain('analysis_results');
  });

  it.each([
    [['--kep'], 'swarm drill: unknown option "--kep"'],
    [['now'], 'swarm drill: unexpected argument "now"'],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const result = await drill(args);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toContain(message);
    expect(String(result.stderr)).toContain('usage: swarm drill [--real [--only LANE,…]] [--keep]');
  });
});
