/**
 * `swarm notify <lane|lead|all> <text>` — the one transport (SPEC 4.2). Appends one line to the
 * agent's own spool in a single write (SPEC 10.3: the agent is known by its pane, adapters/caller.ts);
 * lead commands are fenced against lead.json first.
 * Kept light: no config parsing, no React, no child processes.
 */
import { isAbsolute, resolve } from 'node:path';
import { wholeNumber } from '../core/protocol/agentContext.js';
import { countsForSender, isAsk, parseReport } from '../core/protocol/protocol.js';
import { askRefusal, openAsks } from '../core/swarm/askLimits.js';
import { fence } from '../core/lead/epochs.js';
import { MismatchError, planFilesFault, PlanFilesError, UsageError } from '../errors.js';
import { callerContext } from '../adapters/caller.js';
import { appendSpool, runMessages } from '../adapters/spool.js';
import { readAskSettings } from '../adapters/settings.js';
import { appendJournal } from '../adapters/journal.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { saveReportedCapacity } from '../adapters/capacityCache.js';
import { retryWrite } from '../adapters/files.js';
import type { CommandIO } from './io.js';
import { sayWaiting, writeBudget } from './writeBudget.js';

const ADDRESS = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const USAGE = 'usage: swarm notify <lane|lead|all> <text> [--epoch N]';

export async function notify(io: CommandIO): Promise<number> {
  const { to, text, epochFlag } = parseNotifyArgs(io.args);
  const ctx = await callerContext(io, 'notify');
  const epoch = epochFlag ?? ctx.epoch;
  const now = new Date();

  if (to === 'all' || ctx.role === 'lead') fenceLeadCommand(ctx.plan, ctx.lane, ctx.role === 'lead' ? 'lead' : 'lane', epoch, to, to === 'all');
  // A reviewer says its verdict to the lead, and nothing to anyone else (SPEC 10.6).
  if (ctx.role === 'reviewer' && to !== 'lead') throw new UsageError(`swarm notify: ${ctx.lane} is a reviewer: it reports only to the lead (swarm notify lead "approved" or "changes <what>")`);

  if (ctx.role === 'lane' && ctx.run !== null && isAsk(text)) limitAsks(ctx.plan, ctx.run, ctx.lane, to, now.getTime());

  let body = text;
  if (ctx.role === 'lane' && to === 'lead') {
    const parsed = parseReport(text);
    if (!parsed.ok) throw new UsageError(`swarm notify: ${parsed.error}`);
    const { event, capacity } = parsed.report;
    if (event.kind === 'handoff' && !isAbsolute(event.path)) body = absolutePacket(text, event.path, io.cwd);
    // Only a line of the sender's own account is kept as that account's reading (SPEC 10.3); the engine journals any other.
    if (capacity.raw !== '' && countsForSender(capacity.account, ctx.account)) cacheCapacity(() => saveReportedCapacity(ctx.plan, ctx.account, capacity, now));
  }

  const record = {
    kind: 'message',
    ts: now.toISOString(),
    from: ctx.lane,
    role: ctx.role,
    account: ctx.account,
    generation: ctx.generation,
    epoch,
    run: ctx.run,
    to,
    text: body,
    cwd: io.cwd,
  } as const;
  // A report must not be lost silently: a refused write is tried again for a while, then exit 5.
  try {
    const budget = writeBudget(io.env);
    await retryWrite(() => appendSpool(ctx.plan, ctx.spool, record), budget, sayWaiting(io.stderr, 'notify', budget));
  } catch (error) {
    const fault = planFilesFault(error);
    if (!fault) throw error;
    throw new PlanFilesError(`swarm notify: your message to ${to} was NOT queued: ${fault.message}`, { path: fault.path, ...(fault.hint === undefined ? {} : { hint: fault.hint }), cause: error });
  }
  io.stdout(`swarm: queued for ${to}\n`);
  return 0;
}

/**
 * The limits on a lane's asks (SPEC 10.6): `max_asks` open at once, and one level deep. Counted from
 * the run's spools, so they hold with no engine running; only an ask reads them (a report does not).
 */
function limitAsks(plan: string, run: number, lane: string, to: string, now: number): void {
  const { maxAsks, askMs } = readAskSettings(plan);
  const why = askRefusal(openAsks(runMessages(plan, run), now, askMs), { from: lane, to, maxAsks }, askMs, now);
  if (why === null) return;
  try {
    appendJournal(plan, { type: 'intervention', event: 'ask_refused', lane, to, reason: why });
  } catch {
    // the refusal stands whether or not the journal takes it
  }
  throw new UsageError(`swarm notify: your ask to ${to} was NOT queued: ${why}`);
}

/** The capacity cache is rebuilt from the next report: a refused write of it never fails the report. */
function cacheCapacity(write: () => void): void {
  try {
    write();
  } catch (error) {
    if (!planFilesFault(error)) throw error;
  }
}

function parseNotifyArgs(args: string[]): { to: string; text: string; epochFlag: number | null } {
  const rest = [...args];
  let epochFlag: number | null = null;
  const at = rest.indexOf('--epoch');
  if (at !== -1) {
    const value = rest[at + 1];
    if (value === undefined) throw new UsageError('--epoch needs a number', { hint: USAGE });
    epochFlag = wholeNumber(value, '--epoch', 1);
    rest.splice(at, 2);
  }
  const [to, ...words] = rest;
  if (!to || words.length === 0) throw new UsageError('swarm notify needs an address and a message', { hint: USAGE });
  if (!ADDRESS.test(to)) throw new UsageError(`not an address: "${to}" (a lane name, lead or all)`, { hint: USAGE });
  const text = words.join(' ');
  if (text.trim() === '') throw new UsageError('swarm notify: the message is empty', { hint: USAGE });
  return { to, text, epochFlag };
}

/** Lead notices and `notify all` act only for the current lead at the current epoch (SPEC 6). */
function fenceLeadCommand(plan: string, caller: string, role: 'lane' | 'lead', epoch: number | null, to: string, mustHaveRecord: boolean): void {
  const record = readLeadRecord(plan);
  if (record === null && !mustHaveRecord) return;
  // A lane with no lead record to be fenced by: say it is a lane, not "claim the lead first".
  const lane = role === 'lane' && record === null;
  const verdict = lane
    ? { ok: false as const, message: `${caller} is a lane: only the current lead may notify all` }
    : fence(record, { caller, epoch: epoch ?? 0 });
  if (verdict.ok) return;
  appendJournal(plan, { type: 'intervention', event: 'fenced', lane: caller, epoch, command: `notify ${to}`, reason: verdict.message });
  throw new MismatchError(`fenced: ${verdict.message}`, [verdict.message], {
    hint: lane ? 'nothing was queued; a lane reports to the lead (swarm notify lead <text>) and the lead tells the others' : 'nothing was queued; a lead that sees a higher epoch stands down',
  });
}

/** Rewrite the handoff path on the first line to its absolute form, resolved against the sender's folder. */
function absolutePacket(text: string, path: string, cwd: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const index = lines.findIndex((line) => line.includes(path));
  if (index === -1) return text;
  lines[index] = lines[index]!.replace(path, resolve(cwd, path));
  return lines.join('\n');
}
