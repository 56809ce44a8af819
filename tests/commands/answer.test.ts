/** `swarm answer <lane> <text>` takes only a lane of this swarm (issue 10, item 2). No engine runs here: the test holds the lock and takes the answer as an engine would. */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { planPaths } from '../../src/core/plan/paths.js';
import { readStat } from '../../src/adapters/procStatFile.js';
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { pendingAnswers, settleAnswer } from '../../src/adapters/answers.js';

let s: TestSwarm;
beforeEach(() => {
  s = makeSwarm({ lanes: [{ name: 'lane-a' }] });
});
afterEach(async () => s.cleanup());

/** Answers offered to an engine (SPEC 10.3: the engine takes them while their writer waits), pending or taken. */
const inbox = (): Record<string, unknown>[] => {
  const dir = planPaths(s.plan).answersDir;
  const files = [dir, join(dir, 'read')].flatMap((d) => (existsSync(d) ? readdirSync(d).filter((n) => n.endsWith('.json')).map((n) => join(d, n)) : []));
  return files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>);
};

/**
 * Stand in for the engine's side of the answers folder: the plan's lock held by a process of its own
 * (not this test's, which is the answer's ancestor: an engine's descendants are its panes), and the
 * first answer offered taken.
 */
async function answeredByEngine(args: string[]): Promise<{ code: number; stderr: string; record: Record<string, unknown> }> {
  const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  const stat = await waitFor(() => readStat(holder.pid!), { what: 'the lock holder' });
  mkdirSync(planPaths(s.plan).swarmDir, { recursive: true });
  writeFileSync(planPaths(s.plan).lock, JSON.stringify({ pid: holder.pid, startTicks: stat.startTicks, host: hostname(), since: new Date().toISOString(), purpose: 'test engine' }));
  try {
    const running = s.run(args);
    const pending = await waitFor(() => pendingAnswers(s.plan)[0] ?? null, { what: 'an answer offered' });
    const record = JSON.parse(readFileSync(pending.path, 'utf8')) as Record<string, unknown>;
    settleAnswer(s.plan, pending.name, null);
    const run = await running;
    return { code: run.code, stderr: run.stderr, record };
  } finally {
    holder.kill('SIGKILL');
  }
}

describe('swarm answer <lane>', () => {
  it.each(['../../PLAN', '../lead', 'lane-a/../../x', '/etc/passwd', 'lane-b', '', 'lane-a\r\n', '\u001b[31mlane-a'])('refuses %j, which is no lane of this swarm: exit 2, nothing queued', async (name) => {
    const run = await s.run(['answer', name, 'yes', '--file', s.file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is no lane of swarm e2e|needs a lane/);
    expect(inbox()).toEqual([]);
  });

  it('names the lanes it knows when it refuses', async () => {
    const run = await s.run(['answer', '../../PLAN', 'yes', '--file', s.file]);
    expect(run.stderr).toContain('"../../PLAN" is no lane of swarm e2e (its lanes: lead, lane-a)');
  });

  it.each([
    ['the lead', 'lead', () => undefined],
    ['a lane of swarm.yaml', 'lane-a', () => undefined],
    ['a lane recorded in lead.json', 'lane-z', () => writeFileSync(join(s.plan, 'lead.json'), JSON.stringify({ plan: 'p', lead: 'lead-b', epoch: 2, succession: [], lanes: ['lane-a', 'lane-z'], revision: 3, updated_at: 'x' }))],
    ['the lead lead.json names', 'lead-b', () => writeFileSync(join(s.plan, 'lead.json'), JSON.stringify({ plan: 'p', lead: 'lead-b', epoch: 2, succession: [], lanes: [], revision: 3, updated_at: 'x' }))],
    ['a lane added at run time (state.json)', 'lane-y', () => {
      mkdirSync(join(s.plan, '.swarm'), { recursive: true });
      writeFileSync(join(s.plan, '.swarm', 'state.json'), JSON.stringify({ version: 1, lanes: {}, order: [], timers: [], pending: [], added: [{ name: 'lane-y', task: 't', checkout: '.', kind: null, command: null }] }));
    }],
  ])('takes %s', async (_name, lane, arrange) => {
    arrange();
    const run = await answeredByEngine(['answer', lane, 'use', 'v2', '--file', s.file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.record).toMatchObject({ kind: 'answer', to: lane, text: 'use v2', writer: { pid: expect.any(Number) } });
  });

  it('with no engine running: exit 4, nothing recorded (nobody could check later who wrote it)', async () => {
    const run = await s.run(['answer', 'lane-a', 'use', 'v2', '--file', s.file]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('no swarm engine runs for e2e, so nothing was recorded');
    expect(inbox()).toEqual([]);
  });

  it.each([
    ['an open run: the record carries its number (no SWARM_RUN in a plain shell)', {}, { run: 3 }],
    ['the run ended by swarm down: no run', { ended: '2026-12-01T00:00:00.000Z' }, { run: undefined }],
    ['the plan done: no run', { planDone: true }, { run: undefined }],
  ])('%s', async (_name, over, expected) => {
    mkdirSync(join(s.plan, '.swarm'), { recursive: true });
    writeFileSync(join(s.plan, '.swarm', 'state.json'), JSON.stringify({ version: 1, run: 3, lanes: {}, order: [], timers: [], pending: [], added: [], ...over }));
    const { code, record } = await answeredByEngine(['answer', 'lane-a', 'yes', '--file', s.file]);
    expect(code).toBe(0);
    expect(record).toMatchObject({ kind: 'answer', to: 'lane-a' });
    expect(record.run ?? undefined).toBe(expected.run);
  });
});
