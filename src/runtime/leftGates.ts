/**
 * The `done_when` gates a crashed engine left running (SPEC 10.1), ended by `swarm down`: each
 * lane's recorded gate run, only while its leader is still that very process (pid and start time,
 * as on a restart: adapters/gate.ts endGate); a run whose process was never recorded is found by
 * its run's name in its environment.
 */
import type { EndedGate } from '../adapters/gate.js';
import { endGate, findGate, gateRun } from '../adapters/gate.js';
import type { EngineState } from './engineState.js';

export interface LeftGate { lane: string; generation: number; run: string; pid: number | null; found: EndedGate }

export async function endLeftGates(plan: string, state: EngineState): Promise<LeftGate[]> {
  const ended: LeftGate[] = [];
  for (const lane of Object.values(state.lanes)) {
    if (!lane.gate) continue; // (absent in states saved before gates were recorded)
    const process = lane.gate.process ?? findGate(gateRun(plan, lane.gate.id));
    const found = process === null ? 'gone' : await endGate(process);
    ended.push({ lane: lane.name, generation: lane.generation, run: lane.gate.id, pid: process?.pid ?? null, found });
  }
  return ended;
}
