/**
 * `swarm down [file]` (SPEC 8, 10.1): stop every pane, release every lease, release the lead record.
 * A running `swarm up` for the plan is asked to stop first (SIGTERM to the lock holder, only while
 * it is that very process); the `done_when` gates a crashed engine left running are ended. Only
 * this plan's tmux session is closed: with another plan's session of the same name, the plan's own
 * leases and lead record are released, nothing of that session is touched, and it exits 3.
 * It ends the run (runtime/runEnd.ts): its state says ended, every lane that was live stopped, so
 * `swarm status` tells the truth and the next `swarm up` starts the plan afresh. The journal,
 * packets and reports stay.
 */
import { refuseFromAgent } from '../adapters/caller.js';
import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { release } from '../core/lead/epochs.js';
import { planPaths } from '../core/plan/paths.js';
import { UsageError } from '../errors.js';
import { appendJournal } from '../adapters/journal.js';
import { readLeadRecord, updateLeadRecord } from '../adapters/leadStore.js';
import { machineLeaseDir, readPlanLeases, releaseKey } from '../adapters/leaseFiles.js';
import { holderAlive, liveHolder, type LockHolder } from '../adapters/lock.js';
import { loadConfig } from '../adapters/configFile.js';
import { loadState, saveState, type EngineState } from '../runtime/engineState.js';
import type { SwarmConfig } from '../core/config/config.js';
import type { PaneHost, PaneInfo } from '../adapters/host.js';
import { writePaneLog } from '../adapters/paneLogs.js';
import { runOf } from '../core/swarm/runs.js';
import { hostFor } from '../runtime/hostFor.js';
import { endLeftGates } from '../runtime/leftGates.js';
import { endRun } from '../runtime/runEnd.js';
import { claimSession } from '../runtime/sessionClaim.js';
import type { CommandIO } from './io.js';

const USAGE = 'usage: swarm down [file]';

export async function down(io: CommandIO): Promise<number> {
  const option = io.args.find((a) => a.startsWith('-'));
  if (option !== undefined) throw new UsageError(`swarm down: unknown option "${option}"`, { hint: USAGE });
  if (io.args.length > 1) throw new UsageError(`swarm down takes one file, got ${io.args.length}`, { hint: USAGE });
  const config = loadConfig(io.args[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env, checkKinds: false });
  const paths = planPaths(config.plan);
  refuseFromAgent(config.plan, 'down');

  const holder = liveHolder(paths.lock);
  if (holder && holder.pid !== process.pid) {
    process.kill(holder.pid, 'SIGTERM');
    await waitGone(holder, 5000);
    io.stdout(`swarm down: stopped the engine (pid ${holder.pid})\n`);
  }
  // After the engine stopped (it saves its state as it goes).
  const state = loadState(paths.state);
  for (const gate of state ? await endLeftGates(config.plan, state) : []) {
    appendJournal(config.plan, { type: 'observation', event: 'gate_ended', ...gate });
    if (gate.found === 'ended') io.stdout(`swarm down: ended the done_when gate of ${gate.lane} (pid ${gate.pid})\n`);
  }

  const host = await hostFor(config, io.env);
  const claimed = await claimSession(host, config.plan, state);
  const refused = typeof claimed === 'object' ? claimed.refused : null;
  const panes = refused ? [] : await host.list().catch(() => []);
  // Each pane's scrollback is kept before it goes, so `swarm logs` and the report still show the last generations.
  if (state) for (const pane of panes) await keepLog(host, config, state, pane);
  if (!refused) await host.destroy().catch(() => undefined);
  io.stdout(`swarm down: ${panes.length} pane${panes.length === 1 ? '' : 's'} stopped\n`);

  // The plan's own leases in the machine's folder (SPEC 10.4), never another swarm's; then the plan's view of them.
  const leases = readPlanLeases(config.plan, io.env);
  for (const lease of leases) releaseKey(machineLeaseDir(io.env), config.plan, lease.key ?? '');
  rmSync(paths.leasesDir, { recursive: true, force: true });

  const record = readLeadRecord(config.plan);
  if (record && !record.released && record.lead) {
    updateLeadRecord(config.plan, (current) => release(current, { caller: record.lead!, epoch: record.epoch, now: new Date().toISOString() }));
  }
  // The run is over, the inbox read to its end.
  if (state && state.ended === undefined && !state.planDone) saveState(paths.state, endRun(state, new Date().toISOString()));
  appendJournal(config.plan, { type: 'intervention', event: 'swarm_down', lane: null, panes: panes.length, leases: leases.length });
  io.stdout(`swarm down: ${leases.length} lease${leases.length === 1 ? '' : 's'} released; lead record of ${basename(config.plan)} released\n`);
  if (state) io.stdout('swarm down: the run is ended; `swarm up` starts the plan afresh (the journal, packets and reports stay)\n');
  if (refused) throw refused;
  return 0;
}

async function keepLog(host: PaneHost, config: SwarmConfig, state: EngineState, pane: PaneInfo): Promise<void> {
  const isLead = state.lanes[pane.lane] === undefined && (pane.lane === state.leadAgent || config.lead.succession.includes(pane.lane));
  try {
    writePaneLog(config.plan, runOf(state), isLead ? config.lead.name : pane.lane, pane.generation, await host.capture(pane.paneId, 5000));
  } catch {
    // gone meanwhile, or the disk refuses: down goes on
  }
}

async function waitGone(holder: LockHolder, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (holderAlive(holder) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
