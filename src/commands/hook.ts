/**
 * `swarm hook <Event>` (Claude Code's hooks) and `swarm hook codex-notify [--then '<JSON argv>'] '<json>'` (Codex's notify):
 * an agent's own structured signals, reported to the engine through the inbox (a `hook` record the
 * engine turns into a lane event).
 *
 * - Claude Code hooks read their JSON on stdin (kinds/claude/hooks.ts). SessionStart records the lane's
 *   session (for the probes, and the engine's idle signal). Stop prints `{"decision":"block",...}`
 *   with the pointer line once for messages the agent was not pointed at yet (core/protocol/pointed.ts
 *   counts, shared with the engine), and never when `stop_hook_active`.
 * - Codex passes its notify JSON as the last argument. The lane's rollout is read on (its
 *   session_meta.id is the lane's thread; other threads are ignored), its verdict reported when it
 *   changed, a usage-limit turn reported as a hard limit, and the lane's turn end reported.
 * Never breaks the agent: always exit 0; an error is journalled.
 */
import { agentContext, type AgentContext } from '../core/protocol/agentContext.js';
import { classifyHook, stopDecision, type Hook } from '../kinds/claude/hooks.js';
import { parseCodexNotify } from '../kinds/codex/notify.js';
import type { HookSignal } from '../core/protocol/inbox.js';
import { mailboxPath } from '../core/plan/paths.js';
import { readCachedReading } from '../adapters/capacityCache.js';
import { appendInbox } from '../adapters/inbox.js';
import { writeLaneSession } from '../adapters/laneSession.js';
import { readPointed, writeStopPointed } from '../adapters/pointed.js';
import { laneRollout } from '../kinds/codex/rolloutProbe.js';
import { readStdin } from '../adapters/stdin.js';
import { reportVerdict, runThen, safely, sender, takeThen, verdictOn } from './agentSignal.js';
import type { CommandIO } from './io.js';

export async function hook(io: CommandIO): Promise<number> {
  const [event = '', ...rest] = io.args;
  if (event === 'codex-notify') {
    const { then, rest: args } = takeThen(rest);
    const json = args.at(-1) ?? '';
    await safely(io, 'hook codex-notify', () => codexNotify(io, json));
    if (then !== null) {
      await safely(io, 'hook codex-notify --then', () => {
        const argv: unknown = JSON.parse(then);
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) throw new Error('--then takes a JSON array of strings (argv)');
        runThen([...(argv as string[]), json], '', io.env);
      });
    }
    return 0;
  }
  await safely(io, `hook ${event}`, async () => claudeHook(io, event, await (io.stdin ?? readStdin)()));
  return 0;
}

function report(ctx: AgentContext, event: string, meaning: HookSignal, detail: string, extra: Partial<{ session_id: string | null; transcript_path: string | null; resets_at: string | null }> = {}): void {
  appendInbox(ctx.plan, {
    kind: 'hook', ...sender(ctx, new Date()), event, meaning, detail,
    session_id: extra.session_id ?? null, transcript_path: extra.transcript_path ?? null, resets_at: extra.resets_at ?? null,
  });
}

/** When the account's last reading says it resets (for a usage limit). */
const resetOf = (ctx: AgentContext): string | null => readCachedReading(ctx.plan, ctx.account)?.resets_at ?? null;

function claudeHook(io: CommandIO, event: string, input: string): void {
  const ctx = agentContext(io.env, `hook ${event}`);
  const parsed = classifyHook(event, input);
  if (!parsed.ok) throw new Error(parsed.error);
  const h: Hook = parsed.value;
  const m = h.meaning;
  switch (m.kind) {
    case 'ignore':
      return;
    case 'session':
      writeLaneSession(ctx.plan, ctx.lane, { generation: ctx.generation, session_id: m.sessionId, transcript_path: m.transcriptPath });
      return report(ctx, h.event, 'session', m.detail, { session_id: m.sessionId, transcript_path: m.transcriptPath });
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
      return report(ctx, h.event, 'turn_end', decision === null ? m.detail : `pointed: ${decision.reason}`);
    }
    case 'usage_limit':
      return report(ctx, h.event, 'usage_limit', m.detail, { resets_at: resetOf(ctx) });
    default:
      return report(ctx, h.event, m.kind, m.detail);
  }
}

async function codexNotify(io: CommandIO, json: string): Promise<void> {
  const ctx = agentContext(io.env, 'hook codex-notify');
  const now = new Date();
  const rollout = laneRollout(ctx.plan, ctx.lane, ctx.generation, io.env.CODEX_HOME, now.getTime());
  if (rollout !== null) {
    const limited = rollout.hardLimit === 'usage_limit';
    const reading = limited ? { ...rollout.reading, state: 'critical' as const, remainingPct: 0 } : rollout.reading;
    const verdict = await verdictOn(ctx, io.env, reading, rollout.window);
    if (reportVerdict(ctx, verdict, now, rollout.hardLimit ?? '') && rollout.hardLimit !== null) {
      report(ctx, 'codex-rollout', rollout.hardLimit, `the rollout's last turn ended in ${rollout.hardLimit}`, { resets_at: verdict.resets_at });
    }
  }
  const parsed = parseCodexNotify(json, rollout?.sessionId ?? null);
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.value.kind === 'turn_end') report(ctx, 'codex-notify', 'turn_end', parsed.value.lastMessage);
}
