import { cpSync, existsSync, readFileSync } from 'node:fs';
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

describe('swarm report', () => {
  it('prints the text report by default', async () => {
    const r = await run();
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^swarm report — plan plans\/demo\nstarted 11:58:23, plan done 11:58:43/);
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
