/**
 * `swarm hook codex-notify '<json>'`: Codex's notify, its turn JSON as the last argument. The lane's
 * rollout is read on (its session_meta.id is the lane's thread; other threads are ignored), its
 * verdict reported when it changed, a usage-limit turn reported as a hard limit, its token totals
 * reported when they changed (the ledger), and the lane's turn end reported with its thread's id.
 */
import { callerContext } from '../../adapters/caller.js';
import { reportHook, reportUsage, reportVerdict, verdictOn } from '../../adapters/agentSignal.js';
import type { SignalIO } from '../kind.js';
import { parseCodexNotify } from './notify.js';
import { laneRollout } from './rolloutProbe.js';

export async function codexNotifyHook(_event: string, json: string, io: SignalIO): Promise<void> {
  const ctx = await callerContext(io, 'hook codex-notify');
  const now = new Date();
  const rollout = laneRollout(ctx.plan, ctx.lane, ctx.generation, io.env.CODEX_HOME, now.getTime());
  if (rollout !== null) {
    const limited = rollout.hardLimit === 'usage_limit';
    const reading = limited ? { ...rollout.reading, state: 'critical' as const, remainingPct: 0 } : rollout.reading;
    const verdict = await verdictOn(ctx, io.env, reading, rollout.window);
    if (reportVerdict(ctx, verdict, now, rollout.hardLimit ?? '') && rollout.hardLimit !== null) {
      reportHook(ctx, 'codex-rollout', rollout.hardLimit, `the rollout's last turn ended in ${rollout.hardLimit}`, { resets_at: verdict.resets_at });
    }
    // The thread's tokens so far, for the ledger (SPEC 10.7): Codex reports no cost.
    const t = rollout.totals ?? null;
    if (t !== null) reportUsage(ctx, { sessionId: rollout.sessionId, costUsd: null, tokens: { input: t.input, output: t.output, cache_read: t.cached, cache_write: null }, turns: rollout.turnsCompleted }, now);
  }
  const parsed = parseCodexNotify(json, rollout?.sessionId ?? null);
  if (!parsed.ok) throw new Error(parsed.error);
  // The turn end carries the lane's thread: its session, which a restart after host loss resumes (SPEC 10.8).
  if (parsed.value.kind === 'turn_end') reportHook(ctx, 'codex-notify', 'turn_end', parsed.value.lastMessage, { session_id: rollout?.sessionId ?? null });
}
