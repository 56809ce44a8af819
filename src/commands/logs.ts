/** `swarm logs <lane> [--generation N] [file]` (SPEC 8): what the lane's pane showed (its scrollback). */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { planPaths, runFolder } from '../core/plan/paths.js';
import { runOf } from '../core/swarm/runs.js';
import { UsageError } from '../errors.js';
import { readTextIfExists } from '../adapters/files.js';
import { loadConfig } from '../adapters/configFile.js';
import { hostFor } from '../runtime/hostFor.js';
import { loadState } from '../runtime/engineState.js';
import { claimSession } from '../runtime/sessionClaim.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = 'usage: swarm logs <lane> [--generation N] [file]';

export async function logs(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { generation: { type: 'string', short: 'g' } } });
  } catch (error) {
    throw new UsageError(`swarm logs: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const [lane, file] = parsed.positionals;
  if (!lane) throw new UsageError('swarm logs needs a lane', { hint: USAGE });
  const config = loadConfig(file ?? 'swarm.yaml', { cwd: io.cwd, env: io.env, checkKinds: false });
  const state = loadState(planPaths(config.plan).state);
  const current = state?.lanes[lane]?.generation ?? 1;
  const generation = parsed.values.generation === undefined ? current : Number(parsed.values.generation);
  if (!Number.isInteger(generation) || generation < 1) throw new UsageError(`--generation must be a whole number ≥ 1, got "${parsed.values.generation}"`);

  const host = await hostFor(config, io.env);
  const agent = lane === config.lead.name && state ? state.leadAgent : lane;
  // Another plan's session of the same name is not read (SPEC 10.1): only the saved logs are this plan's.
  const claimed = await claimSession(host, config.plan, state);
  const refused = typeof claimed === 'object' ? claimed.refused : null;
  const pane = refused ? undefined : (await host.list().catch(() => [])).find((p) => (p.lane === lane || p.lane === agent) && p.generation === generation);
  if (pane) {
    io.stdout(`${(await host.capture(pane.paneId, 5000)).trimEnd()}\n`);
    return 0;
  }
  // The run's saved log (a folder per run), else one saved before runs were numbered.
  const logsDir = planPaths(config.plan).logsDir;
  const logName = `${lane}-g${generation}.log`;
  const saved = readTextIfExists(join(runFolder(logsDir, state ? runOf(state) : 1), logName)) ?? readTextIfExists(join(logsDir, logName));
  if (saved !== null) {
    io.stdout(saved);
    return 0;
  }
  if (refused) throw refused;
  throw new UsageError(`no pane and no saved log for ${lane} g${generation}`, { hint: `lanes: ${state ? state.order.join(', ') : 'none yet'}` });
}
