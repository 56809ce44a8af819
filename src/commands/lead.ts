/**
 * `swarm lead claim|handover|takeover|release` (SPEC 6): change lead.json by compare-and-swap,
 * epoch-checked, journal it, and tell the engine through the inbox. Works with no engine running,
 * except a takeover: it needs the engine's record (.swarm/state.json) of a lead dead, limited or unreachable.
 */
import { callerContext } from '../adapters/caller.js';
import { didYouMean } from '../core/config/suggest.js';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { wholeNumber, type AgentContext, type LeadsOnly } from '../core/protocol/agentContext.js';
import { handover, mayTakeOver, release, takeover, type LeadHealth, type LeadOutcome, type LeadRecord } from '../core/lead/epochs.js';
import { planPaths } from '../core/plan/paths.js';
import { MismatchError, UsageError } from '../errors.js';
import { appendSpool } from '../adapters/spool.js';
import { appendJournal } from '../adapters/journal.js';
import { requirePlanFolder } from '../adapters/planFolder.js';
import { readLeadRecord, updateLeadRecord } from '../adapters/leadStore.js';
import { loadState } from '../runtime/engineState.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

const USAGE = [
  'usage: swarm lead handover <successor> --packet <path>',
  '       swarm lead takeover [--epoch N]',
  '       swarm lead release',
  '       swarm lead show',
].join('\n');

type Action = 'claim' | 'handover' | 'takeover' | 'release';

/** How each action is told outside every pane: the current lead's two, not claim (swarm up's) or takeover (a successor's). */
const LEADS_ONLY: Partial<Record<Action, LeadsOnly>> = {
  handover: { does: 'hands over the lead', ask: 'hand over' },
  release: { does: 'releases the plan', ask: 'release the plan' },
};

export async function lead(io: CommandIO): Promise<number> {
  const [action, ...rest] = io.args;
  if (action === 'show') return show(io);
  if (action !== 'claim' && action !== 'handover' && action !== 'takeover' && action !== 'release') {
    throw new UsageError(`swarm lead: unknown action "${action ?? ''}"${didYouMean(action ?? '', ['claim', 'handover', 'takeover', 'release', 'show'])}`, { hint: USAGE });
  }
  const { values, positionals } = parse(rest);
  if (action === 'claim') return refuseClaim(io);
  const ctx = await callerContext(io, `lead ${action}`, LEADS_ONLY[action]);
  const plan = resolve(ctx.plan);
  const epoch = values.epoch !== undefined ? wholeNumber(values.epoch, '--epoch', 1) : (ctx.epoch ?? 0);
  const now = new Date().toISOString();
  let to: string | null = null;
  let packet: string | null = null;

  const outcome = updateLeadRecord(plan, (current): LeadOutcome => {
    switch (action) {
      case 'handover': {
        to = positionals[0] ?? null;
        if (!to || positionals.length > 1) throw new UsageError('swarm lead handover needs one successor', { hint: USAGE });
        if (!values.packet) throw new UsageError('swarm lead handover needs --packet <path> (the lead packet)', { hint: USAGE });
        packet = resolve(io.cwd, values.packet);
        return handover(current, { caller: ctx.lane, epoch, to, now });
      }
      case 'takeover': {
        const outcome = takeover(current, { by: ctx.lane, epoch, now });
        if (!outcome.ok) return outcome;
        const ground = mayTakeOver(leadHealth(plan));
        return ground.ok ? outcome : ground;
      }
      case 'release':
        return release(current, { caller: ctx.lane, epoch, now });
    }
  });

  if (!outcome.ok) return refuse(plan, ctx, action, epoch, outcome);
  const record = outcome.record;
  appendJournal(plan, {
    type: 'observation',
    event: action === 'release' ? 'lead_released' : `lead_${action}`,
    lane: record.lead ?? ctx.lane,
    epoch: record.epoch,
    by: ctx.lane,
    ...(to ? { to } : {}),
    ...(packet ? { packet } : {}),
  });
  appendSpool(ctx.plan, ctx.spool, {
    kind: 'lead',
    ts: now,
    from: ctx.lane,
    role: ctx.role,
    account: ctx.account,
    generation: ctx.generation,
    epoch,
    run: ctx.run,
    action,
    to,
    packet,
    new_epoch: record.epoch,
  });
  io.stdout(`${describe(record)}\n`);
  return 0;
}

function refuse(plan: string, ctx: AgentContext, action: Action, epoch: number, outcome: Extract<LeadOutcome, { ok: false }>): never {
  if (outcome.code === 'fenced' || outcome.code === 'no_record') {
    appendJournal(plan, { type: 'intervention', event: 'fenced', lane: ctx.lane, epoch, command: `lead ${action}`, reason: outcome.message });
  }
  throw new MismatchError(`swarm lead ${action}: ${outcome.message}`, [outcome.message]);
}

/** The lead as the engine last recorded it in .swarm/state.json; null when there is no such record. */
function leadHealth(plan: string): LeadHealth | null {
  const state = loadState(planPaths(plan).state);
  const lane = state?.lanes[state.leadName];
  if (!state || !lane) return null;
  const account = lane.account ?? null;
  return {
    lead: state.leadAgent ?? state.leadName,
    state: lane.state,
    account,
    limited: account !== null && Object.hasOwn(state.limited ?? {}, account),
    askTimeouts: state.askTimeouts ?? 0,
  };
}

function show(io: CommandIO): number {
  const planDir = io.env.SWARM_PLAN;
  if (!planDir) throw new UsageError('swarm lead show needs SWARM_PLAN (or use `swarm status`)');
  const record = readLeadRecord(resolve(planDir));
  io.stdout(record ? `${describe(record)}\n` : 'no lead record\n');
  return 0;
}

function describe(record: LeadRecord): string {
  const promoted = record.promoted_from ? `, ${record.promoted_from.lane} g${record.promoted_from.generation} promoted in place` : '';
  const state = record.released ? 'released' : `lead ${record.lead ?? '-'}@${record.epoch}${promoted}`;
  return `${record.plan}: ${state} (revision ${record.revision}; succession ${record.succession.join(', ') || '-'}; lanes ${record.lanes.join(', ') || '-'})`;
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: { succession: { type: 'string' }, packet: { type: 'string' }, epoch: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(`swarm lead: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
}

/**
 * `swarm lead claim` is `swarm up`'s alone (SPEC 10.3): it claims the record, in its own process,
 * before it starts any lane. From any shell or pane the command is refused: `fenced`, exit 3.
 */
function refuseClaim(io: CommandIO): never {
  const reason = 'the lead is claimed by swarm up alone, before it starts any lane; no command claims it';
  const plan = io.env.SWARM_PLAN?.trim();
  if (plan) {
    try {
      requirePlanFolder(resolve(plan), 'lead claim'); // nothing is written into a folder that is no plan
      appendJournal(resolve(plan), { type: 'intervention', event: 'fenced', lane: null, command: 'lead claim', reason });
    } catch {
      // no plan folder there, or its journal refuses: the refusal stands
    }
  }
  throw new MismatchError(`fenced: ${reason}`, [reason], { hint: 'start the swarm with `swarm up`; a lead that lost the record stands down, a successor takes it over (`swarm lead takeover`)' });
}
