/**
 * `swarm logs <lane> [--generation N] [--follow] [file]` (SPEC 8, 10.2): what the lane's pane showed
 * (its scrollback), or with `--follow` what it shows from now on, every generation of the lane as it
 * comes (runtime/logFollow.ts).
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { planPaths, runFolder } from '../core/plan/paths.js';
import { runOf } from '../core/swarm/runs.js';
import { UsageError } from '../errors.js';
import { readTextIfExists } from '../adapters/files.js';
import { loadConfig } from '../adapters/configFile.js';
import { hostFor, sessionName, tmuxSocket } from '../runtime/hostFor.js';
import { loadState } from '../runtime/engineState.js';
import { claimSession } from '../runtime/sessionClaim.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = 'usage: swarm logs <lane> [--generation N] [--follow] [file]';

export async function logs(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { generation: { type: 'string', short: 'g' }, follow: { type: 'boolean', short: 'f' } } });
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
  if (parsed.values.follow && !refused) {
    if (host.kind !== 'tmux') throw new UsageError('swarm logs --follow reads the swarm\'s tmux session; with the pty backend its panes live inside `swarm up`', { hint: 'watch them in swarm up\'s dashboard, or use backend: tmux' });
    const { followLane } = await import('../runtime/logFollow.js');
    const names = new Set([lane, agent, ...(lane === config.lead.name ? config.lead.succession.filter((n) => !config.lanes.some((l) => l.name === n)) : [])]);
    const followed = await followLane({ socket: tmuxSocket(io.env), session: sessionName(config), names, generation: parsed.values.generation === undefined ? null : generation, write: io.stdout });
    if (followed !== 'no session') return 0;
    io.stderr(`swarm logs: no swarm is running for plan ${config.plan} (nothing to follow); its saved log follows\n`);
  }
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
