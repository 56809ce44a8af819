/**
 * One cell of the fault matrix (docs/reliability.md), in-process: a swarm on the fake host with a
 * hand clock and real plan files, a moment (tests/helpers/faultMoments.ts) whose scripts strike a
 * fault at that moment, and after the run the invariants every cell keeps (`invariants`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { readPlanLeases } from '../../src/adapters/leaseFiles.js';
import type { EngineState } from '../../src/runtime/engineState.js';
import { startSwarm, type Outcome } from '../../src/runtime/swarm.js';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import type { SwarmStore } from '../../src/ui/store.js';
import { agentOf, exitCode, FakeHost, type Action, type FakePane, type Scripts } from './fakeHost.js';
import { HandClock } from './handClock.js';
import { waitFor } from './waitFor.js';
import { makeSwarm, type LaneOptions, type SwarmOptions, type TestSwarm } from './swarmUp.js';

export const MIN = 60_000;
/** Each a different length, so a pending deadline tells which it is. */
export const TIMEOUTS = '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }';
export const RELEASE = 7 * MIN;
/** The clock's jump: far past every deadline (the stall's many times over). */
export const JUMP = 6 * 60 * MIN;

export interface Run {
  t: TestSwarm;
  clock: HandClock;
  /** The host now (a T fault's restart brings a new one, with no panes). */
  host: FakeHost;
  hosts: FakeHost[];
  /** Set once the fault struck: whether the moment held then, and the journal as it was. */
  struck: { hit: boolean; journal: string[] } | null;
  /** Each engine's outcome, in order (two after a T fault). */
  outcomes: Outcome[];
  /** What the dashboard and the headless log were told (the journal's lines and plan_files_fault). */
  told: JournalEntry[];
  /** Work a fault left running (a folder made writable again later). */
  later: Promise<void>[];
  /** What a moment's script noted after the fault (a count the test checks). */
  notes: Record<string, number>;
  /** Each engine's view store (what the headless log and the dashboard are told), as it runs. */
  stores: SwarmStore[];
}

export interface Moment {
  name: string;
  lanes?: LaneOptions[];
  accounts?: SwarmOptions['accounts'];
  succession?: string[];
  /** The lane whose agents the pane faults strike (default lane-a). */
  lane?: string;
  /** The agents' scripts; `at` is the step at which the fault strikes. */
  scripts: (at: Action, r: Run) => Scripts;
  /** Host wiring: a successor held before it accepts, a pane's close held. */
  wire?: (host: FakeHost, at: (pane?: FakePane) => Promise<void>, r: Run) => void;
  /** Whether the moment holds when the fault strikes (every cell asserts it did). */
  hit: (r: Run) => boolean;
  /** The release deadline is this moment: it passes only after the fault struck. */
  holdRelease?: boolean;
  /** `--timeout` on the run's clock (a moment that cannot end by itself: the test ends it). */
  timeoutMs?: number;
}

export interface Fault {
  name: string;
  strike: (r: Run, m: Moment) => Promise<void> | void;
  /**
   * The first engine stops short; a second one starts, once the fault's work is over: on a host with
   * no panes (`empty`: the tmux server died), or on the first host's panes (`carried`: swarm up again).
   */
  restart?: 'empty' | 'carried';
  /** Before the first engine starts (a tiny file system mounted on the plan folder). */
  prepare?: (r: Run) => void;
}

export function state(r: Run): EngineState {
  return JSON.parse(readFileSync(join(r.t.plan, '.swarm', 'state.json'), 'utf8')) as EngineState;
}

export function journalLines(t: TestSwarm): string[] {
  const path = join(t.plan, 'journal.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** An agent's step: wait until `ready` holds (a journal event, a phase in the saved state). */
export const until = (what: string, ready: () => boolean): Action => async () => {
  await waitFor(() => ready(), { what, timeout: 10_000 });
};

/** An agent's report with a capacity line (`low` makes a lane near, `critical` makes it write its packet). */
export const capacity = (cap: 'low 20%' | 'critical 5%'): Action => async (pane) => {
  const { notify } = await import('../../src/commands/notify.js');
  const io = { args: ['lead', `working on it\ncapacity=${cap}`], cwd: pane.spec.cwd, env: pane.spec.env, stdout: () => undefined, stderr: (t: string) => pane.out.push(t), stdin: async () => '', agent: agentOf(pane.spec) };
  for (let attempt = 1; (await exitCode(notify, io)) === 5 && attempt < 100; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
};

export async function runCell(moment: Moment, fault: Fault): Promise<Run> {
  const t = makeSwarm({
    lanes: moment.lanes ?? [{ name: 'lane-a' }], timeouts: TIMEOUTS,
    ...(moment.succession ? { succession: moment.succession } : {}), ...(moment.accounts ? { accounts: moment.accounts } : {}),
  });
  const r: Run = { t, clock: new HandClock(), host: null as unknown as FakeHost, hosts: [], struck: null, outcomes: [], told: [], later: [], notes: {}, stores: [] };
  fault.prepare?.(r);
  const at = async (): Promise<void> => {
    if (r.struck) return;
    r.struck = { hit: moment.hit(r), journal: journalLines(t) };
    await fault.strike(r, moment);
  };
  const scripts = moment.scripts(at, r);
  await engineRun(r, moment, new FakeHost(scripts), at);
  if (fault.restart && r.struck && r.outcomes[0]!.code !== 0) {
    await Promise.all(r.later);
    await engineRun(r, moment, fault.restart === 'empty' ? new FakeHost(scripts, [], 101) : new FakeHost(scripts, r.host.snapshot()), at);
  }
  await Promise.all(r.later);
  return r;
}

async function engineRun(r: Run, moment: Moment, host: FakeHost, at: () => Promise<void>): Promise<void> {
  r.host = host;
  r.hosts.push(host);
  moment.wire?.(host, at, r);
  const config = loadConfig(r.t.file, { env: r.t.env, cwd: dirname(r.t.file) });
  const stores: SwarmStore[] = [];
  const swarm = await startSwarm(config, { env: r.t.env, untilDone: true, timeoutMs: moment.timeoutMs ?? null, host, clock: r.clock, onStore: (s) => { stores.push(s); r.stores.push(s); } });
  let over = false;
  // Once every lane is done, the release deadline passes (a moment that is the release waits for its fault).
  const releaser = (async () => {
    while (!over) {
      // Not while a successor starts: seven minutes at once would pass its accept deadline too.
      const due = r.clock.pending().includes(RELEASE) && r.t.events('all_lanes_done').length > 0 && !Object.values(state(r).lanes).some((l) => l.phase === 'spawning');
      if (due && (!moment.holdRelease || r.struck)) r.clock.advance(RELEASE);
      // A deadline already due (re-armed by a restart) fires at once on a real clock.
      else if (r.clock.pending().some((ms) => ms <= 0)) r.clock.advance(0);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  let guard: NodeJS.Timeout | undefined;
  const hung = new Promise<Outcome>((resolve) => { guard = setTimeout(() => resolve({ code: 1, why: 'HUNG: the run did not end within 20 s' }), 20_000); });
  const outcome = await Promise.race([swarm.finished, hung]);
  clearTimeout(guard);
  over = true;
  await releaser;
  await swarm.detach();
  await Promise.all([...host.running]);
  r.outcomes.push(outcome);
  for (const s of stores) r.told.push(...s.getState().events);
}

/** Agent names of one lane: the lead's successor goes by its own name (`lead-b`). */
const laneOf = (agent: string): string => (agent.startsWith('lead') ? 'lead' : agent);

/**
 * The invariants of every cell: the moment was hit; never more than a spent pane and its successor
 * live for one lane, and one at the end; every lease held for a live agent and every agent on one;
 * every handoff ended (accepted, rejected, or the run stopped short and said why); nothing recorded
 * before the fault lost; a run that stopped short said why in the journal.
 */
export function invariants(r: Run, label: string): void {
  expect(r.struck, `${label}: the fault struck`).not.toBeNull();
  expect(r.struck!.hit, `${label}: the fault struck at its moment`).toBe(true);
  const final = r.outcomes[r.outcomes.length - 1]!;
  expect(final.why, label).not.toMatch(/^HUNG/);
  for (const host of r.hosts) {
    const most = new Map<string, number>();
    for (const [agent, n] of host.mostLive) most.set(laneOf(agent), Math.max(most.get(laneOf(agent)) ?? 0, n));
    for (const [lane, n] of most) expect(n, `${label}: live agents of ${lane} at once`).toBeLessThanOrEqual(2);
  }
  const live = r.host.live();
  const perLane = new Map<string, number>();
  for (const p of live) perLane.set(laneOf(p.split(' ')[0]!), (perLane.get(laneOf(p.split(' ')[0]!)) ?? 0) + 1);
  for (const [lane, n] of perLane) expect(n, `${label}: live agents of ${lane} at the end`).toBe(1);
  // A run that stopped with a handoff in flight keeps its spent lease (released at acceptance, SPEC 5);
  const saved = state(r);
  const excused = (l: { lane: string; generation: number }) =>
    final.code !== 0 && saved.lanes[l.lane]?.handoff?.from.generation === l.generation;
  const leases = readPlanLeases(r.t.plan, r.t.env).filter((l) => !excused(l)).map((l) => `${l.lane} g${l.generation} @${l.account}`).sort();
  const held = live.filter((p) => !excused({ lane: laneOf(p.split(' ')[0]!), generation: Number(p.split(' ')[1]!.slice(1)) }));
  expect(leases, `${label}: leases ↔ live agents`).toEqual(held.map((p) => p.replace(/^lead-b /, 'lead ')).sort());
  const journal = r.t.journal();
  for (const reported of journal.filter((e) => e.event === 'handoff_reported')) {
    const ended = journal.some((e) => (e.event === 'packet_accepted' || e.event === 'packet_rejected') && e.packet === reported.packet)
      || journal.some((e) => e.event === 'stopped_short' || (e.event === 'escalation' && e.lane === reported.lane))
      || journal.some((e) => e.event === 'handoff_dropped' && e.lane === reported.lane && e.packet === reported.packet) // the plan ended first
      || final.code !== 0; // the run stopped with the handoff in flight: stopped
    expect(ended, `${label}: the handoff of ${String(reported.packet)} ended`).toBe(true);
  }
  const lines = journalLines(r.t);
  expect(lines.slice(0, r.struck!.journal.length), `${label}: nothing recorded before the fault lost`).toEqual(r.struck!.journal);
  for (const outcome of r.outcomes.filter((o) => o.code !== 0 && !o.why.startsWith('--timeout'))) {
    expect(outcome.why, `${label}: a run stopped short says why`).not.toBe('');
    // Exit 5: the journal is what refuses; the outcome carries the error, its path and what to do.
    if (outcome.code === 5) {
      expect(outcome.fault?.path, `${label}: exit 5 names the path`).toBeTruthy();
      continue;
    }
    expect(journal.some((e) => e.event === 'host_lost' || e.event === 'stopped_short'), `${label}: … and the journal says so`).toBe(true);
  }
}

/** Agent failures in the panes' output (a command an agent ran that threw). */
export function agentFailures(r: Run): string[] {
  return r.hosts.flatMap((h) => [...h.panes.values()].flatMap((p) => p.out.filter((l) => l.startsWith('agent failed'))));
}
