/** `swarm status [file] [--json]` (SPEC 7): the lanes now, read from the plan's files (no engine needed). */
import { parseArgs } from 'node:util';
import { statusJson, statusTable, type StatusInput } from '../core/swarm/status.js';
import { planPaths } from '../core/plan/paths.js';
import { UsageError } from '../errors.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { loadState, type EngineState } from '../runtime/engineState.js';
import { ledgerNow } from '../runtime/ledgerNow.js';
import type { Ledger } from '../core/ledger/ledger.js';
import { lanesAsSeen } from '../runtime/runEnd.js';
import { resolvePlanDir } from './planDir.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';
import { readTextIfExists } from '../adapters/files.js';
import { settingsPath } from '../adapters/settings.js';
import { KIT_DEFAULTS } from '../core/capacity/thresholds.js';

/** The critical line the running swarm wrote to its settings (SPEC 5), else the kit's. */
function criticalLine(plan: string): number {
  try {
    const saved = JSON.parse(readTextIfExists(settingsPath(plan)) ?? '{}') as { capacity?: { critical?: unknown } };
    const critical = saved.capacity?.critical;
    return typeof critical === 'number' && critical >= 0 && critical <= 100 ? critical : KIT_DEFAULTS.critical;
  } catch {
    return KIT_DEFAULTS.critical;
  }
}

/** The ledger with the agents' usage records the engine has not saved yet (runtime/ledgerNow.ts): status is as current as the dashboard. */
function ledgerOf(plan: string, state: EngineState | null): { ledger?: Ledger } {
  const ledger = state === null ? undefined : ledgerNow(plan, state);
  return ledger === undefined ? {} : { ledger };
}

export async function status(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { json: { type: 'boolean' } } });
  } catch (error) {
    throw new UsageError(`swarm status: ${argsProblem(error, 'usage: swarm status [file] [--json]')}`, { hint: 'usage: swarm status [file] [--json]' });
  }
  const plan = await resolvePlanDir(io, parsed.positionals[0]);
  const state = loadState(planPaths(plan).state);
  const record = readLeadRecord(plan);
  const input: StatusInput = {
    plan,
    session: state?.session ?? '-',
    leadName: state?.leadName ?? record?.lead ?? 'lead',
    leadAgent: state?.leadAgent ?? record?.lead ?? 'lead',
    epoch: state?.epoch ?? record?.epoch ?? 0,
    lanes: state ? lanesAsSeen(state) : [],
    record,
    now: Date.now(),
    accounts: { readings: state?.readings ?? {}, samples: state?.samples ?? {}, critical: criticalLine(plan) },
    ...ledgerOf(plan, state),
  };
  if (parsed.values.json) io.stdout(`${JSON.stringify(statusJson(input))}\n`);
  else io.stdout(state ? `${statusTable(input)}\n` : `no swarm has run for ${plan} yet (no .swarm/state.json)\n`);
  return 0;
}
