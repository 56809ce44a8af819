/**
 * `swarm statusline`: Claude Code's status line JSON (statusline.ts reads it) recorded as the
 * account's reading (the capacity cache, source `probe`, which `swarm capacity`, the engine and the
 * dashboard then use; the engine hears of it through an inbox `capacity` record when the verdict
 * changes); returns swarm's one short line.
 */
import { callerContext } from '../../adapters/caller.js';
import { reportUsage, reportVerdict, verdictOn } from '../../adapters/agentSignal.js';
import { saveReading } from '../../adapters/capacityCache.js';
import { readLaneSession, writeLaneSession } from '../../adapters/laneSession.js';
import type { SignalIO } from '../kind.js';
import { formatStatusLine, parseStatusLine } from './statusline.js';

export async function recordStatusLine(input: string, io: SignalIO): Promise<string> {
  const ctx = await callerContext(io, 'statusline');
  const now = new Date();
  const parsed = parseStatusLine(input);
  if (!parsed.ok) throw new Error(parsed.error);
  const status = parsed.value;
  const verdict = await verdictOn(ctx, io.env, status.reading, status.window);
  const context = { ...(status.contextTokens === null ? {} : { context_tokens: status.contextTokens }), ...(status.window === null ? {} : { window: status.window }) };
  // Only a reading of a usage window is cached for the account (no rate_limits: `ak` or another source may know).
  if (status.reading.remainingPct !== null) {
    saveReading(ctx.plan, {
      account: ctx.account, state: verdict.state, remaining_pct: verdict.remaining_pct, context_pct: verdict.context_pct,
      resets_at: verdict.resets_at, ...context, source: 'probe', at: now.toISOString(),
    });
  }
  reportVerdict(ctx, verdict, now);
  // What the process spent, for the ledger (SPEC 10.7); nothing before it has a figure to tell.
  const spend = status.spend;
  if (spend.costUsd !== null || spend.input !== null || spend.output !== null) {
    reportUsage(ctx, { sessionId: status.sessionId, costUsd: spend.costUsd, tokens: { input: spend.input, output: spend.output, cache_read: null, cache_write: null } }, now);
  }
  // The session, for the transcript probe, when no SessionStart hook recorded it.
  if (status.sessionId !== null && readLaneSession(ctx.plan, ctx.lane, ctx.generation) === null) {
    writeLaneSession(ctx.plan, ctx.lane, { generation: ctx.generation, session_id: status.sessionId, transcript_path: status.transcriptPath });
  }
  return formatStatusLine({ lane: ctx.lane, generation: ctx.generation, account: ctx.account, verdict });
}
