/**
 * What an agent's own signals report to the engine, from inside the agent (`swarm hook`, `swarm
 * statusline`): the sender fields of its inbox records, a capacity verdict only when it changed
 * since the lane's last one (not at every message), and a hook's meaning as a `hook` record.
 */
import { join } from 'node:path';
import type { AgentContext } from '../core/protocol/agentContext.js';
import { assess, type RawReading, type Verdict } from '../core/capacity/capacity.js';
import type { HookSignal } from '../core/protocol/inbox.js';
import { planPaths } from '../core/plan/paths.js';
import { parseCaps, resolveWindow } from '../core/capacity/thresholds.js';
import { readTextIfExists, writeFileAtomic } from './files.js';
import { appendSpool } from './spool.js';
import { readSettings } from './settings.js';

/** The sender fields of an inbox record from this agent. */
export function sender(ctx: AgentContext, now: Date) {
  return { ts: now.toISOString(), from: ctx.lane, role: ctx.role, account: ctx.account, generation: ctx.generation, epoch: ctx.epoch, run: ctx.run };
}

/** The verdict on a reading, with the plan's thresholds (`reported`: the agent's own context window). */
export async function verdictOn(ctx: AgentContext, env: NodeJS.ProcessEnv, reading: RawReading, reported: number | null): Promise<Verdict> {
  const settings = await readSettings(ctx.plan, ctx.config, env);
  const window = resolveWindow(settings.window, reported, env);
  return assess(ctx.account, reading, parseCaps(env.AGENTKIT_CAPACITY_CAP), settings.capacity, {
    contextPressure: settings.contextPressure, window, headroom: settings.headroom,
  });
}

function verdictFile(ctx: AgentContext): string {
  return join(planPaths(ctx.plan).swarmDir, 'probes', `${ctx.lane.replace(/[^A-Za-z0-9._-]/g, '_')}-g${ctx.generation}.verdict`);
}

/** Tell the engine the verdict when it differs from the lane's last one (`extra` adds to what counts as a change). */
export function reportVerdict(ctx: AgentContext, verdict: Verdict, now: Date, extra = ''): boolean {
  const key = `${verdict.state}/${verdict.decision}${extra === '' ? '' : `/${extra}`}\n`;
  if (readTextIfExists(verdictFile(ctx)) === key) return false;
  appendSpool(ctx.plan, ctx.spool, { kind: 'capacity', ...sender(ctx, now), ...verdict, source: 'probe' });
  writeFileAtomic(verdictFile(ctx), key, 0o644, { durable: false });
  return true;
}

/** What a hook said, as the engine reads it: a `hook` record with its meaning. */
export function reportHook(
  ctx: AgentContext, event: string, meaning: HookSignal, detail: string,
  extra: Partial<{ session_id: string | null; transcript_path: string | null; resets_at: string | null }> = {},
): void {
  appendSpool(ctx.plan, ctx.spool, {
    kind: 'hook', ...sender(ctx, new Date()), event, meaning, detail,
    session_id: extra.session_id ?? null, transcript_path: extra.transcript_path ?? null, resets_at: extra.resets_at ?? null,
  });
}
