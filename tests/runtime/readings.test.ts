/**
 * Readings belong to their account (SPEC 10.3), the whole engine in-process with a fake pane host
 * (tests/helpers/fakeHost.ts) and a hand clock: a capacity line naming another account counts for
 * none (journaled `capacity_ignored`), and a report's own line is the engine's reading of the
 * sender's account, as a `swarm capacity` record is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capacity } from '../../src/commands/capacity.js';
import type { CommandIO } from '../../src/commands/io.js';
import { notify } from '../../src/commands/notify.js';
import { packetWrite } from '../../src/commands/packetWrite.js';
import type { Reading } from '../../src/core/accounts/leases.js';
import { agentOf, exitCode, FakeHost, type Action, type FakePane, type Scripts } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { finishInProcess, startInProcess } from '../helpers/inProcess.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type LaneOptions, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const ACCOUNTS = ['l1', 'a1', 'a2', 'a3', 'a4'].map((id) => ({ id, vendor: 'anthropic' }));

async function run(lanes: LaneOptions[], scripts: Scripts) {
  const s = (t = makeSwarm({ lanes, accounts: ACCOUNTS, timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }' }));
  const host = new FakeHost(scripts);
  const clock = new HandClock();
  const outcome = await finishInProcess(s, await startInProcess(s, host, clock), host, clock);
  expect([...host.panes.values(), ...host.closed].flatMap((p) => p.out.filter((l) => l.startsWith('agent failed')))).toEqual([]);
  const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { readings: Record<string, Reading> };
  return { s, host, outcome, readings: state.readings };
}

/** Run one of swarm's commands from the pane, as its agent would; what it printed. */
async function inPane(pane: FakePane, command: (io: CommandIO) => Promise<number>, args: string[]): Promise<string> {
  const printed: string[] = [];
  const io: CommandIO = { args, cwd: pane.spec.cwd, env: pane.spec.env, stdout: (text) => printed.push(text), stderr: (text) => pane.out.push(text), stdin: async () => '', agent: agentOf(pane.spec) };
  const code = await exitCode(command, io);
  if (code !== 0) throw new Error(`swarm ${args.join(' ')} exited ${code}: ${pane.out.join('')}`);
  return printed.join('').trim();
}

const report = (text: string): Action => async (pane) => { await inPane(pane, notify, ['lead', text]); };

/** A handoff whose capacity line is `line`. */
const handoffWith = (line: string): Action => async (pane) => {
  const path = await inPane(pane, packetWrite, ['write', '--reason', 'capacity_critical', '--doing', `step of ${pane.spec.lane}`, '--next', 'finish', '--unverified', 'gate=true']);
  await inPane(pane, notify, ['lead', `handoff ${path}\n${line}`]);
};

describe('readings belong to their account, in the engine', () => {
  it("a capacity line naming another account leaves that account's reading and its lane alone, and is journaled capacity_ignored", async () => {
    let sent = false;
    let seenByB = '';
    const { s, host, outcome, readings } = await run([{ name: 'lane-a', account: 'a1' }, { name: 'lane-b', account: 'a3' }], {
      'lane-a g1': ['ready', report('PR open https://example.test/pr/1\ncapacity=critical 3% @a3'), async () => { sent = true; }, 'done'],
      'lane-b g1': ['ready', async (pane) => {
        await waitFor(() => sent, { what: "lane-a's report naming a3" });
        await waitFor(() => t!.events('capacity_ignored').length > 0 || t!.events('capacity_verdict').length > 0, { what: "the engine's reading of lane-a's report" });
        seenByB = await inPane(pane, capacity, ['--self', '--json']);
      }, 'done'],
    });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('capacity_ignored')).toMatchObject([{ lane: 'lane-a', generation: 1, named_account: 'a3', sender_account: 'a1', source: 'report' }]);
    // lane-b on a3 is not told to hand off, by the engine nor by its own check; neither is lane-a.
    expect(JSON.parse(seenByB)).toMatchObject({ account: 'a3', decision: 'continue' });
    expect(s.events('capacity_verdict').filter((e) => e.decision !== 'continue')).toEqual([]);
    expect(s.events('handoff_reported')).toEqual([]);
    // Each account's reading is its own lane's last line (`done` with `capacity=ok 70%`), never lane-a's line about a3.
    expect(readings.a3).toEqual({ state: 'ok', remainingPct: 70, resetsAt: null });
    expect(readings.a1).toEqual({ state: 'ok', remainingPct: 70, resetsAt: null });
    expect(host.closed.concat([...host.panes.values()]).filter((p) => p.spec.generation > 1)).toEqual([]);
  });

  it("a handoff report's own capacity line is the account's reading: the next lease does not take that critical account", async () => {
    const { s, outcome, readings } = await run([{ name: 'lane-a', account: 'a2' }, { name: 'lane-b', account: 'a1' }], {
      'lane-a g1': ['ready', handoffWith('capacity=critical 5% @a2')],
      'lane-a g2': ['done'],
      'lane-b g1': ['ready', async () => {
        // lane-a's successor accepted and a2's lease is back in the pool before lane-b hands off.
        await waitFor(() => t!.events('lease_released').some((e) => e.account === 'a2'), { what: "a2's lease released" });
      }, 'handoff'],
      'lane-b g2': ['done'],
    });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(readings.a2).toEqual({ state: 'critical', remainingPct: 5, resetsAt: null });
    const leased = s.events('lease_acquired').filter((e) => e.lane === 'lane-b' && e.for_generation === 2);
    expect(leased).toHaveLength(1);
    expect(leased[0]!.account).not.toBe('a2');
    expect(s.events('capacity_ignored')).toEqual([]);
  });
});
