/**
 * `swarm packet write --reason R --doing TEXT --next STEP … ` (SPEC 5.1): assemble a packet from
 * the calling lane's environment and its checkout's git state, write it 0600 into the plan's
 * handoff folder, print its absolute path.
 */
import { callerContext, sandboxed } from '../adapters/caller.js';
import { didYouMean } from '../core/config/suggest.js';
import { parseArgs } from 'node:util';
import { basename, resolve } from 'node:path';
import { MAX_PACKET_BYTES, PACKET_REASONS, PACKET_SCHEMA, serializePacket, type Packet, type PacketReason } from '../core/packet/packet.js';
import { findSecrets } from '../core/packet/secrets.js';
import { planContract } from '../core/plan/plan.js';
import { UsageError } from '../errors.js';
import { readPlanText } from '../adapters/planFile.js';
import { gitState } from '../adapters/git.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { packetFileName, writePacketFile, writeSpoolPacket } from '../adapters/packetFile.js';
import type { CommandIO } from './io.js';
import { planPaths } from '../core/plan/paths.js';
import { loadState } from '../runtime/engineState.js';
import { argsProblem } from './argsProblem.js';

const USAGE =
  'usage: swarm packet write --reason R --doing TEXT --next STEP [--next STEP…] [--done X…] [--deadend X…] [--decision X…] [--verified WHAT=EVIDENCE…] [--unverified WHAT=GATE…] [--ask X…] [--task T] [--step S]'
  + ' [--lead [--open-ask X…] [--release-order LANE…] [--pending-merge X…]]';

export async function packetWrite(io: CommandIO): Promise<number> {
  const [sub, ...rest] = io.args;
  if (sub !== 'write') throw new UsageError(`swarm packet: unknown subcommand "${sub ?? ''}"${didYouMean(sub ?? '', ['write'])}`, { hint: USAGE });
  const flags = parseFlags(rest);
  const ctx = await callerContext(io, 'packet write');
  if (ctx.role === 'reviewer') throw new UsageError(`swarm packet write: ${ctx.lane} is a reviewer: it writes no packet`, { hint: 'a reviewer says approved or changes <what> to the lead; swarm starts a fresh reviewer where one is needed' });
  if (flags.lead && ctx.role !== 'lead') {
    throw new UsageError(`swarm packet write: --lead writes the lead's packet, and ${ctx.lane} is a lane`, { hint: 'a lane writes its own packet without --lead' });
  }
  const plan = resolve(ctx.plan);
  const git = gitState(io.cwd, plan);
  const lead = readLeadRecord(plan);

  const packet: Packet = {
    schema: PACKET_SCHEMA,
    plan: basename(plan),
    contract: planContract(readPlanText(plan) ?? ''),
    task: flags.task ?? (await laneTask(ctx.config, ctx.lane, io.env)),
    step: flags.step,
    reason: flags.reason,
    doing: flags.doing,
    where: { repo: git.repo, checkout: io.cwd, branch: git.branch, head: git.head, pushed: git.pushed, uncommitted: git.uncommitted },
    done: flags.done,
    verified: flags.verified.map(([what, evidence]) => ({ what, evidence })),
    unverified: flags.unverified.map(([what, gate]) => ({ what, gate })),
    next: flags.next,
    deadends: flags.deadend,
    asks: flags.ask,
    decisions: flags.decision,
    lead: lead?.lead ?? null,
    epoch: lead?.epoch ?? ctx.epoch,
    author: { lane: ctx.lane, account: ctx.account, generation: ctx.generation },
    degraded: false,
    ...(flags.lead ? leadPart(plan, flags) : {}),
  };

  const secrets = findSecrets(packet, io.env);
  if (secrets.length > 0) {
    throw new UsageError(`swarm packet write: refusing to write secret values into a packet:\n  ${secrets.join('\n  ')}`, {
      hint: 'a packet is data; name where a secret lives (an env variable, a file path), never its value',
    });
  }
  const text = serializePacket(packet);
  const size = Buffer.byteLength(text);
  if (size > MAX_PACKET_BYTES) {
    throw new UsageError(`swarm packet write: the packet would be ${size} bytes, over the ${MAX_PACKET_BYTES} bytes (64 KiB) a successor can accept; nothing was written`, {
      hint: 'keep each field short: point at files, logs and commits instead of pasting them',
    });
  }
  // Sandboxed, it may write its spool alone: the packet goes there, and the engine publishes it into
  // the handoff folder when the agent reports `handoff <path>` (SPEC 10.3).
  const name = packetFileName(ctx.lane, ctx.generation, new Date());
  const path = sandboxed(plan, io.env) ? writeSpoolPacket(plan, ctx.spool, name, text) : writePacketFile(plan, name, text);
  io.stdout(`${path}\n`);
  return 0;
}

/**
 * A lead packet's own fields (SPEC 10.5): every lane as the engine's saved state has it (the lead's
 * own lane left out), and what the lead says of its open asks, release order and pending merges.
 */
function leadPart(plan: string, flags: Flags): Pick<Packet, 'lanes' | 'open_asks' | 'release_order' | 'pending_merges'> {
  const state = loadState(planPaths(plan).state);
  const lanes = state === null ? [] : state.order.map((name) => state.lanes[name]).filter((l) => l !== undefined && l.role === 'lane')
    .map((l) => ({ name: l!.name, generation: l!.generation, state: l!.state, account: l!.account, last: l!.last }));
  return { lanes, open_asks: flags.openAsk, release_order: flags.releaseOrder, pending_merges: flags.pendingMerge };
}

interface Flags {
  lead: boolean;
  openAsk: string[];
  releaseOrder: string[];
  pendingMerge: string[];
  reason: PacketReason;
  doing: string;
  next: string[];
  done: string[];
  deadend: string[];
  decision: string[];
  ask: string[];
  verified: [string, string][];
  unverified: [string, string][];
  task: string | undefined;
  step: string | number | null;
}

function parseFlags(args: string[]): Flags {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        reason: { type: 'string' },
        doing: { type: 'string' },
        next: { type: 'string', multiple: true },
        done: { type: 'string', multiple: true },
        deadend: { type: 'string', multiple: true },
        decision: { type: 'string', multiple: true },
        verified: { type: 'string', multiple: true },
        unverified: { type: 'string', multiple: true },
        ask: { type: 'string', multiple: true },
        task: { type: 'string' },
        step: { type: 'string' },
        lead: { type: 'boolean' },
        'open-ask': { type: 'string', multiple: true },
        'release-order': { type: 'string', multiple: true },
        'pending-merge': { type: 'string', multiple: true },
      },
    }));
  } catch (error) {
    throw new UsageError(`swarm packet write: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const reason = values.reason;
  if (!reason || !(PACKET_REASONS as readonly string[]).includes(reason)) {
    throw new UsageError(`swarm packet write: --reason must be one of ${PACKET_REASONS.join(', ')}; got "${reason ?? ''}"`, { hint: USAGE });
  }
  const doing = values.doing?.trim();
  if (!doing) throw new UsageError('swarm packet write: --doing is required (what you were in the middle of)', { hint: USAGE });
  const next = (values.next ?? []).map((s) => s.trim()).filter(Boolean);
  if (next.length === 0) throw new UsageError('swarm packet write: at least one --next is required (the ordered next steps)', { hint: USAGE });
  const step = values.step === undefined ? null : /^\d+$/.test(values.step) ? Number(values.step) : values.step;
  const leadOnly = (['open-ask', 'release-order', 'pending-merge'] as const).find((name) => values[name] !== undefined);
  if (leadOnly !== undefined && values.lead !== true) throw new UsageError(`swarm packet write: --${leadOnly} belongs to a lead packet: add --lead`, { hint: USAGE });
  return {
    lead: values.lead === true,
    openAsk: values['open-ask'] ?? [],
    releaseOrder: values['release-order'] ?? [],
    pendingMerge: values['pending-merge'] ?? [],
    reason: reason as PacketReason,
    doing,
    next,
    done: values.done ?? [],
    deadend: values.deadend ?? [],
    decision: values.decision ?? [],
    ask: values.ask ?? [],
    verified: pairs(values.verified ?? [], '--verified', 'WHAT=EVIDENCE'),
    unverified: pairs(values.unverified ?? [], '--unverified', 'WHAT=GATE'),
    task: values.task,
    step,
  };
}

function pairs(items: string[], flag: string, shape: string): [string, string][] {
  return items.map((item) => {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new UsageError(`swarm packet write: ${flag} takes ${shape}, got "${item}"`, { hint: USAGE });
    return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
  });
}

/** The lane's task from swarm.yaml, when the config is known and readable; '' otherwise. */
async function laneTask(configFile: string | null, lane: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (!configFile) return '';
  try {
    const { loadConfig } = await import('../adapters/configFile.js');
    const config = loadConfig(configFile, { env, checkKinds: false });
    return config.lanes.find((l) => l.name === lane)?.task ?? (config.lead.name === lane ? 'Lead the plan (the orchestrator plan)' : '');
  } catch {
    return '';
  }
}
