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
import { appendSpool, appendUsage } from './spool.js';
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
  return probeFile(ctx, 'verdict');
}

/** Tell the engine the verdict when it differs from the lane's last one (`extra` adds to what counts as a change). */
export function reportVerdict(ctx: AgentContext, verdict: Verdict, now: Date, extra = ''): boolean {
  const key = `${verdict.state}/${verdict.decision}${extra === '' ? '' : `/${extra}`}\n`;
  if (readTextIfExists(verdictFile(ctx)) === key) return false;
  appendSpool(ctx.plan, ctx.spool, { kind: 'capacity', ...sender(ctx, now), ...verdict, source: 'probe' });
  writeFileAtomic(verdictFile(ctx), key, 0o644, { durable: false });
  return true;
}

/** What a hook said, as the engine reads it: a `hook` record with its meaning (a turn end numbered: the ledger's turns). */
export function reportHook(
  ctx: AgentContext, event: string, meaning: HookSignal, detail: string,
  extra: Partial<{ session_id: string | null; transcript_path: string | null; resets_at: string | null }> = {},
): void {
  appendSpool(ctx.plan, ctx.spool, {
    kind: 'hook', ...sender(ctx, new Date()), event, meaning, detail,
    session_id: extra.session_id ?? null, transcript_path: extra.transcript_path ?? null, resets_at: extra.resets_at ?? null,
    ...(meaning === 'turn_end' ? { turn: nextTurn(ctx) } : {}),
  });
}

function probeFile(ctx: AgentContext, suffix: string): string {
  return join(planPaths(ctx.plan).swarmDir, 'probes', `${ctx.lane.replace(/[^A-Za-z0-9._-]/g, '_')}-g${ctx.generation}.${suffix}`);
}

/** This generation's next turn number (a small counter file of swarm's own): numbered, a turn read twice counts once. */
function nextTurn(ctx: AgentContext): number {
  const file = probeFile(ctx, 'turns');
  const last = Number.parseInt(readTextIfExists(file) ?? '0', 10);
  const turn = (Number.isFinite(last) && last > 0 ? last : 0) + 1;
  writeFileAtomic(file, `${turn}\n`, 0o644, { durable: false });
  return turn;
}

export interface UsageReport {
  sessionId: string | null;
  costUsd: number | null;
  tokens: { input: number | null; output: number | null; cache_read: number | null; cache_write: number | null };
  turns?: number | null;
}

/** Tell the engine what this process has spent (a `usage` record in its usage file) when it differs from the last told (SPEC 10.7). */
export function reportUsage(ctx: AgentContext, usage: UsageReport, now: Date): boolean {
  const body = { session_id: usage.sessionId, cost_usd: usage.costUsd, tokens: usage.tokens, ...(usage.turns === undefined ? {} : { turns: usage.turns }) };
  const key = `${JSON.stringify(body)}\n`;
  const file = probeFile(ctx, 'usage');
  if (readTextIfExists(file) === key) return false;
  appendUsage(ctx.plan, ctx.spool, { kind: 'usage', ...sender(ctx, now), ...body });
  writeFileAtomic(file, key, 0o644, { durable: false });
  return true;
}
