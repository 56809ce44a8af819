/**
 * The pointed counts' files (core/protocol/pointed.ts): `.swarm/pointed/<agent>.json` (the engine's:
 * delivered, typed, turns heard, turns when last typed) and `.swarm/pointed/<agent>.stop.json` (the Stop hook's: pointed), each written
 * whole (temp + rename) by its one writer.
 */
import { basename, join } from 'node:path';
import { mailboxPath, planPaths } from '../core/plan/paths.js';
import { countField, engineCountsText, stopCountText, type PointedCounts } from '../core/protocol/pointed.js';
import { readTextIfExists, writeFileAtomic } from './files.js';

function base(plan: string, agent: string): string {
  return join(planPaths(plan).swarmDir, 'pointed', basename(mailboxPath(plan, agent), '.md'));
}

export type EngineCounts = Omit<PointedCounts, 'stopped'>;

export function readPointed(plan: string, agent: string): PointedCounts {
  return { ...readEngineCounts(plan, agent), stopped: readStopPointed(plan, agent) };
}

/** The engine's own counts, as last written. */
export function readEngineCounts(plan: string, agent: string): EngineCounts {
  const own = readTextIfExists(`${base(plan, agent)}.json`);
  return { delivered: countField(own, 'delivered'), typed: countField(own, 'typed'), turns: countField(own, 'turns'), typedTurns: countField(own, 'typed_turns') };
}

/** The Stop hook's count. */
export function readStopPointed(plan: string, agent: string): number {
  return countField(readTextIfExists(`${base(plan, agent)}.stop.json`), 'pointed');
}

/** The engine's counts. */
export function writeEngineCounts(plan: string, agent: string, counts: EngineCounts): void {
  writeFileAtomic(`${base(plan, agent)}.json`, engineCountsText(counts), 0o644, { durable: false });
}

/** The Stop hook's count. */
export function writeStopPointed(plan: string, agent: string, pointed: number): void {
  writeFileAtomic(`${base(plan, agent)}.stop.json`, stopCountText(pointed), 0o644, { durable: false });
}
