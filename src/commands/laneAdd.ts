/**
 * `swarm lane add <name> --task T [--checkout D] [--kind K]` (SPEC 8): the current lead adds a lane at
 * run time, epoch-checked and at most `max_lanes`; lanes cannot. The engine starts it from the inbox.
 */
import { callerContext } from '../adapters/caller.js';
import { didYouMean } from '../core/config/suggest.js';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { statSync } from 'node:fs';
import { fence } from '../core/lead/epochs.js';
import { planPaths } from '../core/plan/paths.js';
import { nameRefusal } from '../core/config/names.js';
import { taskTooLong } from '../core/config/task.js';
import { MismatchError, UsageError } from '../errors.js';
import { appendSpool } from '../adapters/spool.js';
import { appendJournal } from '../adapters/journal.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { loadConfig, realPath } from '../adapters/configFile.js';
import { loadKind } from '../adapters/kinds.js';
import { loadState } from '../runtime/engineState.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = 'usage: swarm lane add <name> --task T [--checkout D] [--kind K] [--command C] [--epoch N]';

export async function laneAdd(io: CommandIO): Promise<number> {
  const [sub, ...rest] = io.args;
  if (sub !== 'add') throw new UsageError(`swarm lane: unknown subcommand "${sub ?? ''}"${didYouMean(sub ?? '', ['add'])}`, { hint: USAGE });
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { task: { type: 'string' }, checkout: { type: 'string' }, kind: { type: 'string' }, command: { type: 'string' }, epoch: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(`swarm lane add: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const { values, positionals } = parsed;
  const name = positionals[0];
  if (!name || positionals.length > 1) throw new UsageError('swarm lane add needs one lane name (letters, digits, . _ -)', { hint: USAGE });
  const badName = nameRefusal('swarm lane add: the lane name', name, 'agent');
  if (badName !== null) throw new UsageError(badName, { hint: 'pick another name, e.g. lane-c' });
  if (!values.task?.trim()) throw new UsageError('swarm lane add needs --task', { hint: USAGE });
  const tooLong = taskTooLong(values.task.trim());
  if (tooLong !== null) throw new UsageError(`swarm lane add --task: the task ${tooLong}`);
  const ctx = await callerContext(io, 'lane add', { does: 'adds lanes', ask: 'add the lane' });
  const epoch = values.epoch !== undefined ? Number(values.epoch) : (ctx.epoch ?? 0);
  const verdict = fence(readLeadRecord(ctx.plan), { caller: ctx.lane, epoch });
  if (!verdict.ok) {
    appendJournal(ctx.plan, { type: 'intervention', event: 'fenced', lane: ctx.lane, epoch, command: `lane add ${name}`, reason: verdict.message });
    throw new MismatchError(`fenced: ${verdict.message}`, [verdict.message], { hint: 'only the current lead adds lanes' });
  }
  if (!ctx.config) throw new UsageError('swarm lane add needs SWARM_CONFIG (set in every swarm pane)');
  const config = loadConfig(ctx.config, { env: io.env });
  const state = loadState(planPaths(config.plan).state);
  const names = [...config.lanes.map((l) => l.name), ...(state?.added ?? []).map((l) => l.name), config.lead.name];
  if (names.includes(name)) throw new UsageError(`swarm lane add: a lane named ${name} exists already`);
  if (values.kind && !config.accounts.some((a) => a.kind === values.kind)) {
    throw new UsageError(`swarm lane add: no account of kind ${values.kind} in the pool`, { hint: `kinds in the pool: ${[...new Set(config.accounts.map((a) => a.kind))].join(', ')}` });
  }
  if (!values.command) {
    const pool = config.accounts.filter((a) => !values.kind || a.kind === values.kind);
    if (!pool.some((a) => loadKind(a.kind, config.dir).launch !== null)) {
      const kinds = [...new Set(pool.map((a) => a.kind))].join(', ');
      throw new UsageError(`swarm lane add: ${name} needs --command: no account it could run on has a launch of its own (kind ${kinds})`, {
        hint: 'pass --command "<program>" (a string runs with sh -c), or --kind a kind that launches itself',
      });
    }
  }
  const count = config.lanes.length + (state?.added.length ?? 0);
  if (count >= config.maxLanes) throw new UsageError(`swarm lane add: the swarm has ${count} lanes, its max_lanes`, { hint: 'raise max_lanes in swarm.yaml' });
  const checkout = resolve(io.cwd, values.checkout ?? config.lead.checkout);
  if (!statSync(checkout, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`swarm lane add: checkout ${checkout} is not a directory`);
  // Compared by real path: a symlink to another lane's checkout is that checkout.
  const real = realPath(checkout);
  const sharer = [...config.lanes, ...(state?.added ?? [])].find((l) => realPath(l.checkout) === real);
  if (sharer !== undefined) throw new UsageError(`swarm lane add: ${checkout} is lane ${sharer.name}'s checkout${real === checkout ? '' : ` (it leads to ${real})`}`, { hint: 'give each lane its own git worktree' });
  appendSpool(ctx.plan, ctx.spool, {
    kind: 'lane', action: 'add', ts: new Date().toISOString(), from: ctx.lane, role: ctx.role, account: ctx.account,
    generation: ctx.generation, epoch, run: ctx.run, name, task: values.task.trim(), checkout: real, lane_kind: values.kind ?? null, command: values.command ?? null,
  });
  io.stdout(`swarm: lane ${name} queued to start (${count + 1}/${config.maxLanes})\n`);
  return 0;
}
