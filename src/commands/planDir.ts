/**
 * Which plan a command is about: the swarm file given; else $SWARM_PLAN (inside a pane); else the
 * swarm.yaml of the current folder.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SwarmConfig } from '../core/config/config.js';
import { UsageError } from '../errors.js';
import type { CommandIO } from './io.js';

export async function resolvePlanDir(io: CommandIO, file: string | undefined): Promise<string> {
  if (file === undefined && io.env.SWARM_PLAN) return resolve(io.cwd, io.env.SWARM_PLAN);
  return (await loadSwarmConfig(io, file)).plan;
}

/** The swarm file given, else the swarm.yaml of the current folder, loaded. */
export async function loadSwarmConfig(io: CommandIO, file: string | undefined): Promise<SwarmConfig> {
  const configFile = file ?? (existsSync(resolve(io.cwd, 'swarm.yaml')) ? 'swarm.yaml' : undefined);
  if (!configFile) {
    throw new UsageError('no swarm.yaml here and SWARM_PLAN is not set', { hint: 'pass the swarm file: swarm <command> path/to/swarm.yaml' });
  }
  const { loadConfig } = await import('../adapters/configFile.js');
  return loadConfig(configFile, { cwd: io.cwd, env: io.env, checkKinds: false });
}

/** The folder paths are shown relative to: where the person stands when the plan is below it, else the plan's parent. */
export function shownFrom(io: CommandIO, plan: string): string {
  return plan.startsWith(`${io.cwd}/`) ? io.cwd : dirname(plan);
}
