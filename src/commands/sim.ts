/**
 * `swarm sim` (internal): the simulated agent of the `sim` kind, run as a pane's program. It plays a
 * lane or the lead by SWARM_ROLE, follows the protocol with no network and no account, and never
 * exits on its own (only a planned crash, SIM_CRASH_AT, ends it). Loads no UI.
 */
import { callerContext } from '../adapters/caller.js';
import { UsageError } from '../errors.js';
import { faultsFor } from '../sim/faults.js';
import { simModel } from '../sim/model.js';
import { World } from '../sim/world.js';
import type { CommandIO } from './io.js';

export async function sim(io: CommandIO): Promise<number> {
  if (io.args.length > 0) throw new UsageError(`swarm sim takes no arguments, got "${io.args.join(' ')}"`, { hint: 'run inside a swarm pane: SWARM_ROLE chooses lane, lead or reviewer' });
  const ctx = await callerContext(io, 'sim');
  const model = simModel(io.env);
  const faults = faultsFor(io.env, ctx.generation);
  const world = new World(ctx, io.cwd, io.env, model, io.stdout, process.stdin);
  if (ctx.role === 'lead') {
    const { runLead } = await import('../sim/lead.js');
    return runLead(world, faults);
  }
  if (ctx.role === 'reviewer') {
    const { runReviewer } = await import('../sim/reviewer.js');
    return runReviewer(world);
  }
  const { runLane } = await import('../sim/agent.js');
  return runLane(world, faults);
}
