/** `swarm answer <lane> <text>` takes only a lane of this swarm (issue 10, item 2). No engine runs here. */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let s: TestSwarm;
beforeEach(() => {
  s = makeSwarm({ lanes: [{ name: 'lane-a' }] });
});
afterEach(async () => s.cleanup());

const inbox = (): Record<string, unknown>[] => {
  const path = join(s.plan, '.swarm', 'inbox.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};

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
    const run = await s.run(['answer', lane, 'use', 'v2', '--file', s.file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(inbox()).toMatchObject([{ kind: 'answer', to: lane, text: 'use v2', from: 'developer' }]);
  });

  it.each([
    ['an open run: the record carries its number (no SWARM_RUN in a plain shell)', {}, { run: 3 }],
    ['the run ended by swarm down: no run', { ended: '2026-12-01T00:00:00.000Z' }, { run: undefined }],
    ['the plan done: no run', { planDone: true }, { run: undefined }],
  ])('%s', async (_name, over, expected) => {
    mkdirSync(join(s.plan, '.swarm'), { recursive: true });
    writeFileSync(join(s.plan, '.swarm', 'state.json'), JSON.stringify({ version: 1, run: 3, lanes: {}, order: [], timers: [], pending: [], added: [], ...over }));
    const run = await s.run(['answer', 'lane-a', 'yes', '--file', s.file]);
    expect(run.code).toBe(0);
    const [record] = inbox();
    expect(record).toMatchObject({ kind: 'answer', to: 'lane-a' });
    expect(record?.run).toBe(expected.run);
  });
});
