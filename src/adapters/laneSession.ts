/**
 * The agent session a lane's generation runs, as its SessionStart hook said (`.swarm/sessions/<lane>.json`):
 * the probes, which run in the agent's own `swarm` commands, find its transcript by it. Written whole.
 */
import { join } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { readTextIfExists, writeFileAtomic } from './files.js';

export interface LaneSession {
  generation: number;
  session_id: string;
  transcript_path: string | null;
}

function sessionPath(plan: string, lane: string): string {
  return join(planPaths(plan).swarmDir, 'sessions', `${lane.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

/** The lane's session for `generation`; null when none was recorded for it. */
export function readLaneSession(plan: string, lane: string, generation: number): LaneSession | null {
  const text = readTextIfExists(sessionPath(plan, lane));
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<LaneSession>;
    if (value.generation !== generation || typeof value.session_id !== 'string') return null;
    return { generation, session_id: value.session_id, transcript_path: typeof value.transcript_path === 'string' ? value.transcript_path : null };
  } catch {
    return null;
  }
}

export function writeLaneSession(plan: string, lane: string, session: LaneSession): void {
  writeFileAtomic(sessionPath(plan, lane), `${JSON.stringify(session)}\n`, 0o644, { durable: false });
}
