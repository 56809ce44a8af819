/**
 * The shipped demo (issue 4 part 2), as CI runs it: the top-level swarm.yaml, plans/demo/ and panes/
 * are copied into a temporary git repository (the working tree is never touched) and
 * `swarm up --headless` runs there on a private tmux socket, to done within 60 s.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, git } from '../helpers/swarm.js';
import { demoRepo } from '../helpers/demoRepo.js';

type Entry = Record<string, unknown> & { event: string; lane: string | null; generation: number | null };

describe('the shipped demo', () => {
  let repo = '';
  let cleanup: () => void = () => undefined;
  const socket = `swarm-demo-test-${process.pid}`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SWARM_TMUX_SOCKET: socket };
  let run: { exitCode: number | undefined; stdout: string; ms: number };
  let journal: Entry[] = [];

  beforeAll(async () => {
    ({ repo, cleanup } = demoRepo());
    const started = Date.now();
    const result = await execa('node', [CLI, 'up', '--headless'], { cwd: repo, env, extendEnv: false, reject: false, timeout: 60_000, stdin: 'ignore' });
    run = { exitCode: result.exitCode, stdout: String(result.stdout), ms: Date.now() - started };
    const path = join(repo, 'plans', 'demo', 'journal.jsonl');
    journal = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Entry) : [];
  }, 90_000);

  afterAll(() => {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    cleanup();
  });

  const events = (name: string) => journal.filter((e) => e.event === name);

  it('finishes headless, keyboard-free, within 60 s and exits 0', () => {
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.ms).toBeLessThan(60_000);
    expect(run.stdout).toContain('swarm demo: plan done');
    expect(events('plan_done')).toHaveLength(1);
  });

  it('the capped lane hands off with a packet and its successor on another account accepts it', () => {
    const reported = events('handoff_reported').filter((e) => e.lane === 'lane-a');
    expect(reported).toMatchObject([{ generation: 1, reason: 'capacity_low' }]);
    expect(reported[0]!.degraded).toBeUndefined();
    const accepted = events('packet_accepted').filter((e) => e.lane === 'lane-a');
    expect(accepted).toMatchObject([{ generation: 2, packet: reported[0]!.packet, from_generation: 1 }]);
    expect(accepted[0]!.account).not.toBe('sim-a2');
    expect(events('lane_result').find((e) => e.lane === 'lane-a')).toMatchObject({ generation: 2, passed: true });
  });

  it('the lead hands over mid-plan to lead-b at epoch 2, which releases the plan', () => {
    expect(events('lead_handover').find((e) => e.to === 'lead-b')).toMatchObject({ epoch: 2, by: 'lead' });
    expect(events('packet_accepted').find((e) => e.lane === 'lead')).toMatchObject({ generation: 2 });
    const record = JSON.parse(readFileSync(join(repo, 'plans', 'demo', 'lead.json'), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ lead: 'lead-b', epoch: 2, released: true });
    expect(events('lead_released')).toMatchObject([{ by: 'lead-b', epoch: 2 }]);
    const handover = events('handoff_reported').find((e) => e.lane === 'lead')!;
    const lastDone = events('lane_result').at(-1)!;
    expect(String(handover.ts) < String(lastDone.ts)).toBe(true);
  });

  it('lane-c asks lane-a for its file name and gets the answer', () => {
    expect(events('ask')).toMatchObject([{ lane: 'lane-c', to: 'lane-a', text: 'ask what is your file called?' }]);
    expect(events('answer')).toMatchObject([{ lane: 'lane-a', to: 'lane-c' }]);
    expect(readFileSync(join(repo, 'plans', 'demo', 'work', 'lane-c', 'summary.md'), 'utf8')).toContain('- lane-a: greeting.txt');
  });

  it('lane-d waits for lane-b (no pane, no account) and starts once lane-b is done', () => {
    const started = events('lane_started').find((e) => e.lane === 'lane-d')!;
    const bDone = events('lane_result').find((e) => e.lane === 'lane-b')!;
    expect(String(started.ts) >= String(bDone.ts)).toBe(true);
    expect(events('dependencies_done')).toMatchObject([{ lane: 'lane-d', after: ['lane-b'] }]);
    expect(readFileSync(join(repo, 'plans', 'demo', 'work', 'lane-d', 'total.txt'), 'utf8').trim()).toBe('15');
  });

  it('lane-c is reviewed by another vendor: changes, fixed, a fresh reviewer approves, and only then done', () => {
    const verdicts = events('review_verdict').filter((e) => e.why === undefined);
    expect(verdicts.map((v) => [v.round, v.verdict, v.reviewer_generation])).toEqual([[1, 'changes', 1], [2, 'approved', 2]]);
    const laneAccount = String(events('lane_started').find((e) => e.lane === 'lane-c')!.account);
    const vendor = (account: string) => (account.startsWith('sim-a') ? 'anthropic-sim' : 'openai-sim');
    for (const v of verdicts) {
      expect(vendor(String(v.account))).not.toBe(vendor(laneAccount));
      expect(v.account).not.toBe('sim-a1');
    }
    const done = events('lane_result').find((e) => e.lane === 'lane-c')!;
    expect(String(done.ts) >= String(verdicts[1]!.ts)).toBe(true);
    expect(readFileSync(join(repo, 'plans', 'demo', 'work', 'lane-c', 'summary.md'), 'utf8')).toContain('- lane-d: total.txt');
  });

  it('leaves the repository clean: runtime files, packets, journals and lane output are ignored', () => {
    expect(existsSync(join(repo, 'plans', 'demo', 'analysis_results', 'handoff'))).toBe(true);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('`swarm report` tells both successions', async () => {
    const report = await execa('node', [CLI, 'report'], { cwd: repo, env, extendEnv: false, reject: false });
    expect(report.exitCode).toBe(0);
    expect(report.stdout).toContain('handoffs: 2');
    expect(report.stdout).toMatch(/lane-a g1 @sim-a2 → g2 @sim-\w+ in [\d.]+s, capacity_low/);
    expect(report.stdout).toMatch(/lead g1 @sim-a1 → g2 @sim-\w+ in [\d.]+s, lead_handover/);
  });

  it('shows what the night cost (SPEC 10.7): the sim prices each step, so every lane spent, and status and report agree to the cent', async () => {
    const report = await execa('node', [CLI, 'report', '--json'], { cwd: repo, env, extendEnv: false, reject: false });
    const spend = (JSON.parse(report.stdout) as { spend: { total: { cost_usd: number }; lanes: { lane: string; cost_usd: number }[]; generations: { agent: string; generation: number; end: string | null }[] } }).spend;
    expect(spend.lanes.map((l) => l.lane)).toEqual(['lane-a', 'lane-b', 'lane-c', 'lane-d']);
    expect(spend.lanes.every((l) => l.cost_usd > 0)).toBe(true);
    expect(spend.generations.filter((g) => g.agent === 'lane-a').map((g) => [g.generation, g.end])).toEqual([[1, 'handed_off'], [2, 'done']]);
    const status = await execa('node', [CLI, 'status'], { cwd: repo, env, extendEnv: false, reject: false });
    const total = `$${(Math.round(spend.total.cost_usd * 100) / 100).toFixed(2)}`;
    expect(status.stdout.split('\n')[0]).toMatch(new RegExp(` — spent \\${total}$`));
    expect(status.stdout.split('\n')[1]).toMatch(/ SPEND +LAST$/);
    const text = await execa('node', [CLI, 'report'], { cwd: repo, env, extendEnv: false, reject: false });
    expect(text.stdout).toContain(`\nspend: ${total} over ${spend.generations.length} generations\n`);
  });

  it('`swarm report --json` and `--html` draw the run: a row per lane and the lead, a bar per generation, both handoffs', async () => {
    const json = await execa('node', [CLI, 'report', '--json'], { cwd: repo, env, extendEnv: false, reject: false });
    expect(json.exitCode).toBe(0);
    const facts = JSON.parse(json.stdout) as { lanes: Array<{ name: string; generations: Array<{ account: string; vendor: string }> }>; handoffs: Array<{ lane: string; state: string }>; reviews: Array<{ lane: string; round: number; verdict: string }> };
    expect(facts.lanes.map((l) => [l.name, l.generations.length]).sort()).toEqual([['lane-a', 2], ['lane-b', 1], ['lane-c', 1], ['lane-d', 1], ['lead', 2]]);
    expect(facts.lanes[0]!.name).toBe('lead');
    expect(facts.lanes[1]!.generations.map((g) => g.vendor)).toEqual(['anthropic-sim', 'openai-sim']);
    expect(facts.handoffs.map((h) => [h.lane, h.state])).toEqual([['lane-a', 'accepted'], ['lead', 'accepted']]);
    expect(facts.reviews.map((r) => [r.lane, r.round, r.verdict])).toEqual([['lane-c', 1, 'changes'], ['lane-c', 2, 'approved']]);
    const html = await execa('node', [CLI, 'report', '--html'], { cwd: repo, env, extendEnv: false, reject: false });
    expect(html).toMatchObject({ exitCode: 0, stdout: 'plans/demo/analysis_results/report.html' });
    const page = readFileSync(join(repo, 'plans', 'demo', 'analysis_results', 'report.html'), 'utf8');
    expect([...page.matchAll(/<g class="row" data-lane="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(['lane-a', 'lane-b', 'lane-c', 'lane-d', 'lead']);
    expect([...page.matchAll(/<g class="gen /g)]).toHaveLength(7);
    expect(page).toContain('<section id="reviews">');
    expect([...page.matchAll(/<g class="handoff accepted"/g)]).toHaveLength(2);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe(''); // the page is git-ignored with the rest of analysis_results/
  });
});
