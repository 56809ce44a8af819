/**
 * `swarm accept <packet>` (SPEC 5.1): the successor's first act. Applies the engine's packet checks
 * (where the file is, its mode and size, the schema, plan, contract, branch, head, uncommitted paths,
 * secrets) and that the caller is the packet's successor (the author's lane at its generation + 1; a
 * lead packet: the lead lead.json names); on a mismatch prints every one, writes nothing, exits 3; else writes
 * `<packet>.accepted.json` (once per packet), tells swarm through the inbox, prints the resume brief.
 */
import { callerContext, sandboxed } from '../adapters/caller.js';
import { basename, resolve } from 'node:path';
import { MAX_PACKET_BYTES, parsePacket } from '../core/packet/packet.js';
import { successorMismatches, validatePacket } from '../core/packet/check.js';
import { resumeBrief } from '../core/packet/brief.js';
import { planContract } from '../core/plan/plan.js';
import { planPaths } from '../core/plan/paths.js';
import { MismatchError, planFilesFault, PlanFilesError, UsageError } from '../errors.js';
import { readTextIfExists, retryWrite } from '../adapters/files.js';
import { readPlanText } from '../adapters/planFile.js';
import { gitState } from '../adapters/git.js';
import { appendSpool } from '../adapters/spool.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { readPacketFile, writeOnce, type AcceptanceRecord } from '../adapters/packetFile.js';
import type { CommandIO } from './io.js';
import { sayWaiting, writeBudget } from './writeBudget.js';

export async function accept(io: CommandIO): Promise<number> {
  const ctx = await callerContext(io, 'accept');
  if (ctx.role === 'reviewer') throw new MismatchError(`swarm accept: ${ctx.lane} is a reviewer: it accepts no packet`, [`${ctx.lane} is a reviewer`], { hint: 'a reviewer reads the diff and says approved or changes <what> to the lead' });
  const given = io.args[0] ?? ctx.packet;
  if (!given || io.args.length > 1) throw new UsageError('usage: swarm accept <packet> (default: $SWARM_PACKET)');
  const plan = resolve(ctx.plan);
  const path = resolve(io.cwd, given);
  const { facts, text } = readPacketFile(plan, path);
  if (!facts.exists) throw new MismatchError(`swarm accept: no packet at ${path}`, [], { hint: 'pass the path from $SWARM_PACKET' });
  // The engine's checks (location, plain file, mode, size, schema, plan, contract, where, secrets),
  // with the author's lane as the lane; then: is the caller that packet's successor?
  const parsed = facts.size <= MAX_PACKET_BYTES ? parsePacket(text) : null;
  const contract = planContract(readPlanText(plan) ?? '');
  const git = gitState(io.cwd, plan);
  const author = parsed?.ok ? parsed.packet.author.lane : ctx.lane;
  const reasons = validatePacket(text, facts, { plan: basename(plan), lane: author, contract, branch: git.branch, head: git.head, uncommitted: git.uncommitted }, io.env);
  if (parsed?.ok) reasons.push(...successorMismatches(parsed.packet, { ...ctx, role: ctx.role === 'lead' ? 'lead' : 'lane' }, readLeadRecord(plan)?.lead ?? null));
  if (reasons.length > 0 || !parsed?.ok) throw mismatch(path, reasons);

  const packet = parsed.packet;
  const record: AcceptanceRecord = {
    packet: path,
    accepted_at: new Date().toISOString(),
    by: { lane: ctx.lane, account: ctx.account, generation: ctx.generation },
    epoch: ctx.epoch,
    from: packet.author,
    degraded: packet.degraded,
  };
  // A refused write (a full disk, for a moment) is tried again for the budget, as notify's is: a
  // successor that gave up at once would fail its account for a disk's fault.
  const budget = writeBudget(io.env);
  const say = sayWaiting(io.stderr, 'accept', budget);
  // Sandboxed, it cannot write beside the packet: its spool's record is the acceptance, and the engine
  // writes the record file once it takes it (SPEC 10.3). One already there still refuses another agent.
  const inSandbox = sandboxed(plan, io.env);
  const existing = readTextIfExists(`${path}.accepted.json`);
  const written = inSandbox
    ? (existing === null ? { ok: true as const } : { ok: false as const, existing })
    : await landed(path, () => writeOnce(`${path}.accepted.json`, `${JSON.stringify(record, null, 2)}\n`), budget, say);
  if (!written.ok) {
    const previous = JSON.parse(written.existing) as { by?: { lane?: string; generation?: number } };
    if (previous.by?.lane !== ctx.lane || previous.by?.generation !== ctx.generation) {
      throw new MismatchError(`swarm accept: ${basename(path)} was already accepted by ${previous.by?.lane ?? '?'} g${previous.by?.generation ?? '?'}`, [], {
        hint: 'a packet is accepted at most once; ask the lead which generation holds this lane',
      });
    }
  }
  await landed(path, () => appendSpool(ctx.plan, ctx.spool, {
    kind: 'accept',
    ts: record.accepted_at,
    from: ctx.lane,
    role: ctx.role,
    account: ctx.account,
    generation: ctx.generation,
    epoch: ctx.epoch,
    run: ctx.run,
    packet: path,
  }), budget, say);
  io.stdout(resumeBrief(packet, { name: basename(plan), planFile: planPaths(plan).planFile, contract }));
  return 0;
}

/** A write tried again while the plan's files refuse it; past the budget, exit 5 saying the packet is not accepted. */
async function landed<T>(path: string, write: () => T, budget: number, say: (fault: PlanFilesError) => void): Promise<T> {
  try {
    return await retryWrite(write, budget, say);
  } catch (error) {
    const fault = planFilesFault(error);
    if (!fault) throw error;
    throw new PlanFilesError(`swarm accept: ${basename(path)} was NOT accepted (swarm was not told): ${fault.message}`, {
      path: fault.path,
      hint: `${fault.hint ?? 'make the plan folder writable'}; then run swarm accept again (an acceptance already recorded for you is kept)`,
      cause: error,
    });
  }
}

function mismatch(path: string, reasons: string[]): MismatchError {
  return new MismatchError(`swarm accept: ${basename(path)} does not match:\n  ${reasons.join('\n  ')}`, reasons, {
    hint: 'nothing was written; report `blocked decision <what differs>` to the lead if the checkout moved on',
  });
}
