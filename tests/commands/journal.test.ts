import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { CLI, swarm, testPlan, type TestPlan, claimAsUp } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan();
});
afterEach(() => t.cleanup());

describe('swarm journal', () => {
  it('prints one grep-able line an event, with no escape codes', async () => {
    claimAsUp(t.plan);
    const run = await swarm(['journal'], { env: { SWARM_PLAN: t.plan } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d\d:\d\d:\d\d lead lead_claimed by=lead$/);
  });

  it('--json prints the entries as they are stored', async () => {
    claimAsUp(t.plan);
    const run = await swarm(['journal', '--json'], { env: { SWARM_PLAN: t.plan } });
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'observation', event: 'lead_claimed', lane: 'lead', epoch: 1 });
  });

  it('--follow prints events as they arrive, and skips a torn line until it is whole', async () => {
    claimAsUp(t.plan);
    const child = execa('node', [CLI, 'journal', '--follow'], { env: { SWARM_PLAN: t.plan, PATH: process.env.PATH }, extendEnv: false, reject: false });
    const lines: string[] = [];
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => lines.some((l) => pattern.test(l)) && resolve();
        child.stdout!.on('data', (chunk: Buffer) => {
          lines.push(...chunk.toString().split('\n'));
          check();
        });
        check();
      });
    await seen(/lead_claimed/);
    const path = join(t.plan, 'journal.jsonl');
    appendFileSync(path, '{"ts":"2026-11-29T10:00:00.000Z","type":"observation","event":"handoff_rep');
    appendFileSync(path, 'orted","lane":"lane-a","generation":1,"epoch":1}\n');
    await seen(/^10:00:00 lane-a g1 handoff_reported$/);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(0);
  });

  it('with neither swarm.yaml nor SWARM_PLAN says what to pass, exit 2', async () => {
    const run = await swarm(['journal'], { cwd: t.root, env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no swarm.yaml here and SWARM_PLAN is not set');
  });
});
