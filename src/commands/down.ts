/**
 * `swarm down [file]` (SPEC 8): stop every pane, release every lease, release the lead record.
 * A running `swarm up` for the plan is asked to stop first (SIGTERM to the lock holder).
 * It ends the run (runtime/runEnd.ts): its state says ended, every lane that was live stopped, so
 * `swarm status` tells the truth and the next `swarm up` starts the plan afresh. The journal,
 * packets and reports stay.
 */
import { readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { release } from '../core/epochs.js';
import { planPaths } from '../core/paths.js';
import { UsageError } from '../errors.js';
import { appendJournal } from '../adapters/journal.js';
import { readLeadRecord, updateLeadRecord } from '../adapters/leadStore.js';
import { readInbox } from '../adapters/inbox.js';
import { readLeases, releaseLease } from '../adapters/leaseFiles.js';
import { pidAlive, readHolder } from '../adapters/lock.js';
import { loadConfig } from '../adapters/configFile.js';
import { loadState, saveState } from '../runtime/engineState.js';
import { hostFor } from '../runtime/hostFor.js';
import { endRun } from '../runtime/runEnd.js';
import type { CommandIO } from './io.js';

const USAGE = 'usage: swarm down [file]';

export async function down(io: CommandIO): Promise<number> {
  const option = io.args.find((a) => a.startsWith('-'));
  if (option !== undefined) throw new UsageError(`swarm down: unknown option "${option}"`, { hint: USAGE });
  if (io.args.length > 1) throw new UsageError(`swarm down takes one file, got ${io.args.length}`, { hint: USAGE });
  const config = loadConfig(io.args[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env, checkKinds: false });
  const paths = planPaths(config.plan);

  const holder = readHolder(paths.lock);
  if (holder && holder.host === hostname() && holder.pid !== process.pid && pidAlive(holder.pid)) {
    process.kill(holder.pid, 'SIGTERM');
    await waitGone(holder.pid, 5000);
    io.stdout(`swarm down: stopped the engine (pid ${holder.pid})\n`);
  }

  const host = await hostFor(config, io.env);
  const panes = await host.list().catch(() => []);
  await host.destroy().catch(() => undefined);
  io.stdout(`swarm down: ${panes.length} pane${panes.length === 1 ? '' : 's'} stopped\n`);

  const leases = readLeases(config.plan);
  for (const lease of leases) releaseLease(config.plan, lease.account);
  // Lease files that did not parse are removed too: nobody can hold them now.
  try {
    for (const name of readdirSync(paths.leasesDir)) releaseLease(config.plan, name.replace(/\.json$/, ''));
  } catch {
    // no leases folder
  }

  const record = readLeadRecord(config.plan);
  if (record && !record.released && record.lead) {
    updateLeadRecord(config.plan, (current) => release(current, { caller: record.lead!, epoch: record.epoch, now: new Date().toISOString() }));
  }
  // After the engine stopped (it saves its state as it goes): the run is over, the inbox read to its end.
  const state = loadState(paths.state);
  if (state && state.ended === undefined && !state.planDone) saveState(paths.state, endRun(state, new Date().toISOString(), readInbox(config.plan, state.inboxOffset).offset));
  appendJournal(config.plan, { type: 'intervention', event: 'swarm_down', lane: null, panes: panes.length, leases: leases.length });
  io.stdout(`swarm down: ${leases.length} lease${leases.length === 1 ? '' : 's'} released; lead record of ${basename(config.plan)} released\n`);
  if (state) io.stdout('swarm down: the run is ended; `swarm up` starts the plan afresh (the journal, packets and reports stay)\n');
  return 0;
}

async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
