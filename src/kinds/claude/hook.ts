/**
 * `swarm hook <Event>`: Claude Code's hooks, their JSON on stdin (hooks.ts reads it), reported to the
 * engine as `hook` records. SessionStart records the lane's session (for the probe, and the engine's
 * idle signal). Stop prints `{"decision":"block",...}` with the pointer line once for messages the
 * agent was not pointed at yet (core/protocol/pointed.ts counts, shared with the engine), and never
 * when `stop_hook_active`.
 */
import { callerContext } from '../../adapters/caller.js';
import { type AgentContext } from '../../core/protocol/agentContext.js';
import { mailboxPath } from '../../core/plan/paths.js';
import { reportHook } from '../../adapters/agentSignal.js';
import { readCachedReading } from '../../adapters/capacityCache.js';
import { writeLaneSession } from '../../adapters/laneSession.js';
import { readPointed, writeStopPointed } from '../../adapters/pointed.js';
import type { SignalIO } from '../kind.js';
import { classifyHook, stopDecision, type Hook } from './hooks.js';

/** When the account's last reading says it resets (for a usage limit). */
const resetOf = (ctx: AgentContext): string | null => readCachedReading(ctx.plan, ctx.account)?.resets_at ?? null;

export async function claudeHook(event: string, input: string, io: SignalIO): Promise<void> {
  const ctx = await callerContext(io, `hook ${event}`);
  const parsed = classifyHook(event, input);
  if (!parsed.ok) throw new Error(parsed.error);
  const h: Hook = parsed.value;
  const m = h.meaning;
  switch (m.kind) {
    case 'ignore':
      return;
    case 'session':
      writeLaneSession(ctx.plan, ctx.lane, { generation: ctx.generation, session_id: m.sessionId, transcript_path: m.transcriptPath });
      return reportHook(ctx, h.event, 'session', m.detail, { session_id: m.sessionId, transcript_path: m.transcriptPath });
    case 'turn_end': {
      const counts = readPointed(ctx.plan, ctx.lane);
      const decision = stopDecision({
        unreadCount: counts.delivered, pointedCount: Math.max(counts.typed, counts.stopped), stopHookActive: m.stopHookActive,
        mailbox: ctx.mailbox ?? mailboxPath(ctx.plan, ctx.lane),
      });
      if (decision !== null) {
        writeStopPointed(ctx.plan, ctx.lane, counts.delivered); // recorded before Claude is told: never twice
        io.stdout(`${JSON.stringify(decision)}\n`);
      }
      return reportHook(ctx, h.event, 'turn_end', decision === null ? m.detail : `pointed: ${decision.reason}`);
    }
    case 'usage_limit':
      return reportHook(ctx, h.event, 'usage_limit', m.detail, { resets_at: resetOf(ctx) });
    default:
      return reportHook(ctx, h.event, m.kind, m.detail);
  }
}
