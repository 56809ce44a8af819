/**
 * The state a `swarm up` starts from: the saved state of a run to resume, else a fresh one (no lanes
 * yet; the lead's name from swarm.yaml). A corrupt state file is moved aside, never silently replaced.
 */
import type { SwarmConfig } from '../core/config/config.js';
import { planPaths } from '../core/plan/paths.js';
import type { PaneHost } from '../adapters/host.js';
import { readJournal } from '../adapters/journal.js';
import { nextRun, runOf } from '../core/swarm/runs.js';
import type { Clock } from './clock.js';
import { keepCorrupt, readState, type EngineState, type PendingEffect } from './engineState.js';
import { headOf } from '../adapters/git.js';
import { sessionName } from './hostFor.js';
import { toResume } from './runEnd.js';

/** A corrupt state file, moved aside: where it went and why it was unreadable. */
export interface Corrupt {
  kept: string;
  why: string;
}

/**
 * The saved state of a run to resume (runEnd.ts: not done, not ended by `swarm down`), else a fresh
 * one. A corrupt file is kept aside (never silently replaced); the fresh run is numbered past it and
 * reads only its own spools, not records of the run whose state was lost.
 */
/** Whether `swarm up` would begin a run now (no saved state to resume): only then is the preflight run (SPEC 10.2). */
export function beginsRun(config: SwarmConfig): boolean {
  const read = readState(planPaths(config.plan).state);
  return toResume(read.kind === 'ok' ? read.state : null) === null;
}

/** `hostLost`: the saved run stopped because its tmux server died under it (its agents went with it). */
export function freshOrSaved(config: SwarmConfig, host: PaneHost, clock: Clock): { state: EngineState; corrupt: Corrupt | null; hostLost: boolean } {
  const path = planPaths(config.plan).state;
  const read = readState(path);
  const saved = read.kind === 'ok' ? read.state : null;
  const resumed = toResume(saved);
  if (resumed) return { state: resumed, corrupt: null, hostLost: saved?.hostLost !== undefined };
  const corrupt = read.kind === 'corrupt' ? { kept: keepCorrupt(path, new Date(clock.now())), why: read.why } : null;
  // A new run: numbered past the last one (the saved state's, else the journal's, when the state is lost).
  const run = nextRun(saved ? runOf(saved) : lastJournaledRun(config.plan));
  const state = fresh(config, host, run);
  return { state: { ...state, pending: [runStarted(config, run)] }, corrupt, hostLost: false };
}

/** The run's first intent: journal `run_started` with its number and each lane checkout's head now. */
function runStarted(config: SwarmConfig, run: number): PendingEffect {
  const heads = Object.fromEntries(config.lanes.map((lane) => [lane.name, headOf(lane.checkout)]));
  return { lane: null, effect: { type: 'journal', kind: 'observation', event: 'run_started', lane: null, data: { run, heads } } };
}

/** The highest run a `run_started` line of the journal names (0: none). */
function lastJournaledRun(plan: string): number {
  let last = 0;
  for (const entry of readJournal(plan)) if (entry.event === 'run_started' && typeof entry.run === 'number') last = Math.max(last, entry.run);
  return last;
}

function fresh(config: SwarmConfig, host: PaneHost, run: number): EngineState {
  return {
    version: 1,
    name: config.name,
    session: sessionName(config),
    backend: host.kind,
    run,
    spools: {},
    lanes: {},
    order: [],
    leadName: config.lead.name,
    leadAgent: config.lead.name,
    epoch: 0,
    limited: {},
    readings: {},
    timers: [],
    pending: [],
    allDoneTold: false,
    releaseAt: null,
    planDone: false,
    added: [],
    leadNext: null,
    asks: [],
    askTimeouts: 0,
  };
}
