/**
 * Crash at every cut (issue 11 §4): run a scenario once on the fake host and keep, at every state
 * save, the plan folder's files as they are and the host's panes; then, for each save in turn, put
 * the folder back as it was, start a new engine on those panes (their agents go on, as under tmux)
 * and run to the end. Every cut must end the same: the plan done, the handoff finished exactly once,
 * one live agent per lane, every lease held for a live agent and every agent on a lease.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { readPlanLeases } from '../../src/adapters/leaseFiles.js';
import type { EngineState } from '../../src/runtime/engineState.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost, type PaneSnapshot, type Scripts } from '../helpers/fakeHost.js';
import { capacity } from '../helpers/faultRun.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type LaneOptions, type TestSwarm } from '../helpers/swarmUp.js';

const cut = vi.hoisted(() => ({ onSave: null as null | (() => void) }));
vi.mock('../../src/runtime/engineState.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/runtime/engineState.js')>();
  return { ...original, saveState: (path: string, state: EngineState) => { original.saveState(path, state); cut.onSave?.(); } };
});

let t: TestSwarm | null = null;
afterEach(async () => {
  cut.onSave = null;
  await t?.cleanup();
  t = null;
});

type Files = { dirs: string[]; files: { path: string; data: Buffer; mode: number }[] };

function readTree(root: string): Files {
  const out: Files = { dirs: [], files: [] };
  if (!existsSync(root)) return out;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) out.dirs.push(path);
    else if (entry.isFile()) out.files.push({ path, data: readFileSync(path), mode: statSync(path).mode & 0o777 });
  }
  return out;
}

function putBack(root: string, tree: Files): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const dir of tree.dirs) mkdirSync(dir, { recursive: true });
  for (const f of tree.files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.data);
    chmodSync(f.path, f.mode);
  }
  // The killed engine's lock and leases name this very process: as after a kill -9, their holder is dead.
  rmSync(join(root, '.swarm', 'lock'), { force: true });
  const leases = join(root, '.swarm', 'leases');
  for (const name of tree.files.filter((f) => dirname(f.path) === leases).map((f) => f.path)) {
    writeFileSync(name, JSON.stringify({ ...(JSON.parse(readFileSync(name, 'utf8')) as object), pid: DEAD_PID }));
  }
}

/** The machine's lease folder as it was at the cut, every lease's engine dead (SPEC 10.4: the leases live outside the plan). */
function putBackLeases(dir: string, tree: Files): void {
  putBack(dir, tree);
  for (const f of tree.files.filter((file) => file.path.endsWith('.json'))) {
    writeFileSync(f.path, JSON.stringify({ ...(JSON.parse(readFileSync(f.path, 'utf8')) as object), pid: DEAD_PID }));
  }
}

/** Above Linux's largest pid (2^22): never a live process. */
const DEAD_PID = 4_194_305;

async function runOn(s: TestSwarm, host: FakeHost) {
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 15_000, host });
  const outcome = await swarm.finished;
  await swarm.detach();
  await Promise.all([...host.running]);
  return outcome;
}

/** The same end, whatever the cut: plan done, one acceptance, one live agent per lane, leases ↔ agents. */
function sameEnd(s: TestSwarm, host: FakeHost, outcome: { code: number; why: string }, label: string, handoffs: number, lead: string): void {
  expect(outcome, label).toMatchObject({ code: 0, why: 'plan done' });
  expect(s.events('packet_accepted').filter((e) => e.lane === 'lane-a'), label).toHaveLength(handoffs);
  expect(s.events('lane_result').filter((e) => e.lane === 'lane-a' && e.result === 'done'), label).toHaveLength(1);
  const live = host.live();
  expect(live.filter((p) => p.startsWith('lane-a ')), label).toHaveLength(1);
  expect(live.filter((p) => p.startsWith('lead')), label).toEqual([expect.stringMatching(new RegExp(`^${lead} `))]);
  expect(s.events('lead_accepted'), label).toHaveLength(lead === 'lead' ? 0 : 1);
  // A new lead's notice is an intent like any other: a cut between its step's save and the notice still tells the lanes.
  if (lead !== 'lead') expect(s.events('lead_notice').filter((e) => e.lane === lead).length, label).toBeGreaterThanOrEqual(1);
  // One epoch raised once, whatever the cut: the new lead's.
  if (lead !== 'lead') expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8')), label).toMatchObject({ lead, epoch: 2 });
  // A reviewed lane: one verdict a round, whatever the cut, and no reviewer left running.
  if (s.events('review_requested').length > 0) {
    // (A verdict read again after a cut is journaled as ignored, with why: not a second verdict.)
    expect(s.events('review_verdict').filter((e) => e.why === undefined).map((e) => e.verdict), label).toEqual(['changes', 'approved']);
    expect(live.filter((p) => p.startsWith('lane-a.review')), label).toEqual([]);
  }
  const leases = readPlanLeases(s.plan, s.env).map((l) => `${l.lane} g${l.generation} @${l.account}`).sort();
  // A lease is the lead lane's whatever name its agent goes by (`lead-b`).
  expect(leases, label).toEqual(live.map((p) => p.replace(/^lead-[a-z-]+ /, 'lead ')).sort());
}

describe('crash at every cut (in-process, fake host)', () => {
  const leadTakenOver = async () => { await waitFor(() => t!.events('lead_accepted').length > 0, { what: 'lead_accepted' }); };
  // The last column: a moment of the fault matrix (docs/reliability.md, column K) that at least one
  // cut must fall in, judged from the state saved there.
  const a = (s: EngineState) => s.lanes['lane-a'];
  const releasePending = (s: EngineState) => s.releaseAt !== null && !s.planDone;
  const changesTold = async () => { await waitFor(() => t!.events('review_verdict').some((e) => e.verdict === 'changes'), { what: 'changes asked for' }); };
  const promoted = async () => { await waitFor(() => t!.events('lane_promoted').length > 0, { what: 'lane_promoted' }); };
  // The lead dies once lane-a works (as saved): a lane still starting is no lane to promote.
  const laneWorks = async () => { await waitFor(() => (JSON.parse(readFileSync(join(t!.plan, '.swarm', 'state.json'), 'utf8')) as EngineState).lanes['lane-a']?.state === 'working', { what: 'lane-a working' }); };
  it.each<[string, LaneOptions, Scripts, number, string, (s: EngineState) => boolean]>([
    // SPEC 10.5: lane-a's agent hands off its lane work, then leads from its own pane (one lead, one epoch, one agent per lane).
    ['a lane promoted in place', { name: 'lane-a' }, { 'lead g1': ['ready', laneWorks, 'exit'], 'lane-a g1': ['ready', promoted, 'handoff'], 'lane-a g2': ['done'] }, 1, 'lead-lane-a', (s) => (s.lanes.lead?.handoff?.promotion ?? null) !== null],
    ['a handoff', { name: 'lane-a' }, { 'lane-a g1': ['ready', 'handoff'], 'lane-a g2': ['done'] }, 1, 'lead', releasePending],
    ['a done_when gate', { name: 'lane-a', doneWhen: 'sleep 0.1; true' }, {}, 0, 'lead', (s) => (a(s)?.gate ?? null) !== null],
    ['a usage limit', { name: 'lane-a' }, { 'lane-a g1': ['ready', 'usage limit'] }, 1, 'lead', (s) => a(s)?.phase === 'spawning'],
    ['the lead\'s pane dying', { name: 'lane-a' }, { 'lead g1': ['ready', 'exit'], 'lane-a g1': ['ready', leadTakenOver, 'done'] }, 0, 'lead-b', (s) => s.lanes.lead?.phase === 'spawning'],
    ['near, then a handoff', { name: 'lane-a' }, { 'lane-a g1': ['ready', capacity('low 20%'), 'handoff'], 'lane-a g2': ['done'] }, 1, 'lead', (s) => a(s)?.phase === 'near'],
    ['an ask outstanding', { name: 'lane-a' }, { 'lane-a g1': ['ready', 'ask', 'done'] }, 0, 'lead', (s) => s.asks.length > 0],
    // SPEC 10.6: round 1's reviewer asks for changes, the lane reports done again, round 2's approves.
    ['a review in flight', { name: 'lane-a', account: 'a2', review: '{ command: "true" }' },
      { 'lane-a g1': ['ready', 'done', changesTold, 'done'], 'lane-a.review g1': ['changes add a test'], 'lane-a.review g2': ['approved'] }, 0, 'lead',
      (s) => (a(s)?.review?.reviewer ?? null) !== null],
  ])('%s: every cut ends with the plan done, each handoff finished exactly once', async (name, lane, scripts, handoffs, lead, moment) => {
    const succession = lead === 'lead' ? {} : { succession: [lead === 'lead-lane-a' ? 'lane-a' : lead] };
    // A promotion's deadline (packet + 2 × accept) is saved as a time: with a few seconds' worth, the cuts
    // replayed after many others would find it passed on this real clock, and go to a successor lead instead.
    const timeouts = lead === 'lead-lane-a' ? '{ accept: 60s, packet: 30s, stall: 10m, ask: 30s, release: 50ms }' : '{ accept: 5s, packet: 2s, stall: 10m, ask: 30s, release: 50ms }';
    const s = (t = makeSwarm({ lanes: [lane], timeouts, ...succession }));
    const cuts: { files: Files; leases: Files; panes: PaneSnapshot }[] = [];
    const leaseDir = join(s.env.SWARM_STATE_DIR!, 'leases');
    let host = new FakeHost(scripts);
    const reference = host;
    cut.onSave = () => {
      const files = readTree(s.plan);
      const state = files.files.find((f) => f.path === join(s.plan, '.swarm', 'state.json'));
      // A cut once the plan is done is no cut: the next `swarm up` starts a new run.
      if (state && (JSON.parse(state.data.toString('utf8')) as EngineState).planDone) return;
      cuts.push({ files, leases: readTree(leaseDir), panes: reference.snapshot() });
    };
    const first = await runOn(s, host);
    if (process.env.CUT_DEBUG === '0') console.log(s.journal().map((e) => `${String(e.event)} ${String(e.lane)} g${String(e.generation ?? '')} ${String(e.account ?? '')} ${String(e.why ?? e.reason ?? '')}`).join('\n'));
    sameEnd(s, host, first, 'the run without a cut', handoffs, lead);
    cut.onSave = null;
    const ends: string[] = [];
    for (const [i, at] of cuts.entries()) {
      putBack(s.plan, at.files);
      putBackLeases(leaseDir, at.leases);
      host = new FakeHost(scripts, at.panes);
      const before = s.journal().length;
      const outcome = await runOn(s, host);
      if (process.env.CUT_DEBUG === String(i + 1)) {
        const saved = at.files.files.find((f) => f.path.endsWith('state.json'));
        console.log(saved ? JSON.stringify((JSON.parse(saved.data.toString('utf8')) as EngineState).lanes['lane-a'] ?? null) : 'no state');
        console.log('pending', saved ? JSON.stringify((JSON.parse(saved.data.toString('utf8')) as EngineState).pending) : '');
        console.log(JSON.stringify(at.panes.map((p) => [p.info.paneId, p.info.lane, p.info.generation, p.info.account, p.info.dead, p.step])));
        console.log('lead.json at the cut:', at.files.files.find((f) => f.path.endsWith('lead.json'))?.data.toString('utf8'), 'state epoch', saved ? (JSON.parse(saved.data.toString('utf8')) as EngineState).epoch : null);
        console.log(s.journal().map((e, n) => `${n < before ? ' ' : '+'} ${String(e.event)} ${String(e.lane)} g${String(e.generation ?? '')} ${String(e.account ?? '')} ${String(e.why ?? e.reason ?? '')}`).join('\n'));
      }
      sameEnd(s, host, outcome, `${name}: cut ${i + 1} of ${cuts.length}`, handoffs, lead);
      ends.push(outcome.why);
    }
    const inMoment = cuts.filter((c) => moment(JSON.parse(c.files.files.find((f) => f.path.endsWith('state.json'))?.data.toString('utf8') ?? 'null') as EngineState ?? ({ lanes: {}, asks: [] } as unknown as EngineState))).length;
    console.log(`crash at every cut, ${name}: ${cuts.length} cuts (${inMoment} in its moment), each ended: ${[...new Set(ends)].join(', ')}`);
    expect(inMoment, 'cuts in the moment the row names').toBeGreaterThan(0);
    expect(cuts.length).toBeGreaterThan(5);
    expect(ends).toHaveLength(cuts.length);
  }, 300_000);
});
