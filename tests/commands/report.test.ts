import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { report } from '../../src/commands/report.js';
import { ROOT, tempDir } from '../helpers/swarm.js';

let t: { dir: string; cleanup: () => void };
let plan = '';
beforeEach(() => {
  t = tempDir('swarm-report-');
  plan = join(t.dir, 'plans', 'demo');
  cpSync(join(ROOT, 'tests', 'fixtures', 'report', 'demo'), plan, { recursive: true });
});
afterEach(() => t.cleanup());

/** `swarm report …` inside a pane of the plan (SWARM_PLAN), as an agent or a script there runs it. */
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await report({ args, cwd: t.dir, env: { SWARM_PLAN: plan, TZ: 'UTC' }, stdout: (s) => (out += s), stderr: () => undefined });
  return { code, out };
}

/** A second run after the fixture's: lane-a started again, an escalation, then `swarm down`. */
function secondRun(): void {
  const line = (o: Record<string, unknown>) => `${JSON.stringify({ type: 'observation', generation: null, epoch: 3, ...o })}\n`;
  appendFileSync(join(plan, 'journal.jsonl'), [
    line({ ts: '2026-12-01T12:10:00.000Z', event: 'run_started', lane: null, run: 2, heads: {} }),
    line({ ts: '2026-12-01T12:10:01.000Z', type: 'delegation', event: 'lane_started', lane: 'lane-a', generation: 1, account: 'sim-a3' }),
    line({ ts: '2026-12-01T12:10:04.000Z', event: 'agent_exited', lane: 'lane-a', generation: 1, paneId: '%2', status: 1, last_lines: ['error: no greeting chosen'] }),
    line({ ts: '2026-12-01T12:10:05.000Z', type: 'intervention', event: 'escalation', lane: 'lane-a', generation: 1, class: 'decision', what: 'which greeting?' }),
    line({ ts: '2026-12-01T12:11:00.000Z', type: 'intervention', event: 'swarm_down', lane: null, panes: 2, leases: 1 }),
  ].join(''));
}

describe('swarm report', () => {
  it('prints the text report by default', async () => {
    const r = await run();
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^swarm report — plan plans\/demo, run 1\nstarted 11:58:23, plan done 11:58:43/);
  });

  it('covers the last run unless --run N|all; the run ends at plan_done, else at swarm down (SPEC 10.2)', async () => {
    secondRun();
    const last = await run();
    expect(last.out.split('\n').slice(0, 2)).toEqual([
      'swarm report — plan plans/demo, run 2 of 2 (--run N|all for another)',
      'started 12:10:00, ended by swarm down 12:11:00 (1m00s)',
    ]);
    expect(last.out).toContain('handoffs: 0');
    expect(last.out).toContain('escalations: 1');
    const first = await run('--run', '1');
    expect(first.out).toMatch(/^swarm report — plan plans\/demo, run 1 of 2 .*\nstarted 11:58:23, plan done 11:58:43/);
    expect(first.out).toContain('handoffs: 2');
    expect(first.out).toContain('escalations: 0');
    const all = await run('--run=all');
    expect(all.out).toMatch(/^swarm report — plan plans\/demo, all 2 runs\n/);
    expect(all.out).toContain('handoffs: 2');
    expect(all.out).toContain('escalations: 1');

    const json = JSON.parse((await run('--json')).out) as { run: number; runs: unknown[]; started_at: string; ended_at: string; handoffs: unknown[]; outcome: { state: string } };
    expect(json.run).toBe(2);
    expect(json.runs).toEqual([
      { run: 1, started: '2026-12-01T11:58:23.895Z', ended: '2026-12-01T11:58:43.706Z', outcome: 'done' },
      { run: 2, started: '2026-12-01T12:10:00.000Z', ended: '2026-12-01T12:11:00.000Z', outcome: 'down' },
    ]);
    expect([json.started_at, json.ended_at, json.handoffs.length, json.outcome.state]).toEqual(['2026-12-01T12:10:00.000Z', '2026-12-01T12:11:00.000Z', 0, 'unfinished']);
    const one = JSON.parse((await run('--json', '--run', '1')).out) as { run: number; ended_at: string; handoffs: unknown[] };
    expect([one.run, one.ended_at, one.handoffs.length]).toEqual([1, '2026-12-01T11:58:43.706Z', 2]);
  });

  it.each([['--run', '3'], ['--run', '0'], ['--run', 'x'], ['--run'], ['--run=']])('refuses %j (exit 2, naming the runs there are)', async (...args) => {
    secondRun();
    await expect(run(...args)).rejects.toMatchObject({ exitCode: 2 });
    await expect(run('--run', '3')).rejects.toThrow('no run 3 in the journal (runs: 1, 2)');
  });

  it('--json prints the facts', async () => {
    const facts = JSON.parse((await run('--json')).out) as { schema: string; plan: string; lanes: Array<{ name: string }>; handoffs: unknown[] };
    expect(facts).toMatchObject({ schema: 'swarm-report/v1', plan: 'plans/demo' });
    expect(facts.lanes.map((l) => l.name)).toEqual(['lead', 'lane-a', 'lane-b', 'lane-c']);
    expect(facts.handoffs).toHaveLength(2);
  });

  it('--html writes analysis_results/report.html and prints its path; --out writes where it is told', async () => {
    expect(await run('--html')).toEqual({ code: 0, out: 'plans/demo/analysis_results/report.html\n' });
    expect(readFileSync(join(plan, 'analysis_results', 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(await run('--html', '--out', 'night.html')).toEqual({ code: 0, out: 'night.html\n' });
    expect(existsSync(join(t.dir, 'night.html'))).toBe(true);
  });

  it('opens with what needs you, then each lane\'s result with links to its saved pane logs, copied beside the page (SPEC 10.2)', async () => {
    secondRun();
    mkdirSync(join(plan, '.swarm', 'logs', 'run-2'), { recursive: true });
    writeFileSync(join(plan, '.swarm', 'logs', 'run-2', 'lane-a-g1.log'), 'lane-a g1 <b>said</b> this\n');
    appendFileSync(join(plan, 'journal.jsonl'), '');
    const facts = JSON.parse((await run('--json')).out) as { needs_you: { escalations: { lane: string; what: string; last_lines: string[] }[]; lanes: { name: string; state: string; why: string }[] }; results: { lane: string; logs: unknown[]; gate: unknown }[] };
    expect(facts.needs_you.escalations).toMatchObject([{ lane: 'lane-a', what: 'which greeting?', last_lines: ['error: no greeting chosen'] }]);
    expect(facts.needs_you.lanes).toEqual([{ name: 'lane-a', state: 'blocked', why: 'blocked decision: which greeting?' }]);
    expect(facts.results).toEqual([expect.objectContaining({ lane: 'lane-a', logs: [{ generation: 1, path: '.swarm/logs/run-2/lane-a-g1.log' }], gate: null })]);

    expect(await run('--html', '--out', 'night.html')).toEqual({ code: 0, out: 'night.html\n' });
    const html = readFileSync(join(t.dir, 'night.html'), 'utf8');
    expect(html.indexOf('id="needs-you"')).toBeGreaterThan(0);
    expect(html.indexOf('id="needs-you"')).toBeLessThan(html.indexOf('id="results"'));
    expect(html).toContain('<a class="log" href="night-logs/lane-a-g1.log">g1</a>');
    expect(readFileSync(join(t.dir, 'night-logs', 'lane-a-g1.log'), 'utf8')).toBe('lane-a g1 <b>said</b> this\n');
    // The first run: nothing needs you; every lane's gate is in its result.
    const first = JSON.parse((await run('--json', '--run', '1')).out) as { needs_you: { escalations: unknown[]; lanes: unknown[] }; results: { lane: string; gate: { passed: boolean } | null }[] };
    expect(first.needs_you).toEqual({ escalations: [], lanes: [] });
    expect(first.results.map((r) => [r.lane, r.gate?.passed])).toEqual([['lane-a', true], ['lane-b', true], ['lane-c', true]]);
  });

  it.each<[string[], RegExp]>([
    [['--out', 'x.html'], /--out goes with --html/],
    [['--html', '--out'], /--out needs a file/],
    [['--json', '--html'], /pick one/],
    [['--csv'], /unexpected argument "--csv"/],
  ])('refuses %j as bad input (exit 2)', async (args, message) => {
    await expect(run(...args)).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) as unknown });
  });

  it('a folder it cannot write is a plan-files fault (exit 5) naming the path', async () => {
    await expect(run('--html', '--out', join(plan, 'journal.jsonl', 'x.html'))).rejects.toMatchObject({ exitCode: 5 });
  });
});
