/**
 * The state a `swarm up` starts from: the saved state of a run to resume, else a fresh one (no lanes
 * yet; the lead's name from swarm.yaml). A corrupt state file is moved aside, never silently replaced.
 */
import type { SwarmConfig } from '../core/config.js';
import { planPaths } from '../core/paths.js';
import type { PaneHost } from '../adapters/host.js';
import { inboxSize } from '../adapters/inbox.js';
import type { Clock } from './clock.js';
import { keepCorrupt, readState, type EngineState } from './engineState.js';
import { sessionName } from './hostFor.js';
import { toResume } from './runEnd.js';

/** A corrupt state file, moved aside: where it went and why it was unreadable. */
export interface Corrupt {
  kept: string;
  why: string;
}

/**
 * The saved state of a run to resume (runEnd.ts: not done, not ended by `swarm down`), else a fresh
 * one. A corrupt file is kept aside (never silently replaced); the fresh run then reads the inbox from
 * its end, not records of the run whose state was lost.
 */
export function freshOrSaved(config: SwarmConfig, host: PaneHost, clock: Clock): { state: EngineState; corrupt: Corrupt | null } {
  const path = planPaths(config.plan).state;
  const read = readState(path);
  const saved = read.kind === 'ok' ? read.state : null;
  const resumed = toResume(saved);
  if (resumed) return { state: resumed, corrupt: null };
  const corrupt = read.kind === 'corrupt' ? { kept: keepCorrupt(path, new Date(clock.now())), why: read.why } : null;
  return { state: fresh(config, host, corrupt ? inboxSize(config.plan) : (saved?.inboxOffset ?? 0)), corrupt };
}

function fresh(config: SwarmConfig, host: PaneHost, inboxOffset: number): EngineState {
  return {
    version: 1,
    name: config.name,
    session: sessionName(config),
    backend: host.kind,
    inboxOffset,
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
