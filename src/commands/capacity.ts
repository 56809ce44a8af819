/**
 * `swarm capacity --self --json` (SPEC 5): the agent's headroom and what to do about it, from
 * ak, the kind's probe, or the lane's last capacity line — never `ok` without a reading.
 * Run at every work boundary: it reads a few small files and loads no UI.
 */
import { callerContext } from '../adapters/caller.js';
import { didYouMean } from '../core/config/suggest.js';
import { assess, type RawReading } from '../core/capacity/capacity.js';
import { formatCapacityLine } from '../core/protocol/protocol.js';
import { parseCaps, resolveWindow } from '../core/capacity/thresholds.js';
import { UsageError } from '../errors.js';
import { akReading } from '../adapters/ak.js';
import { readCachedReading, saveReading, type CachedReading, type CapacitySource } from '../adapters/capacityCache.js';
import { appendSpool } from '../adapters/spool.js';
import type { ProbeResult } from '../core/capacity/probe.js';
import { kindFor } from '../kinds/index.js';
import { readSettings } from '../adapters/settings.js';
import type { CommandIO } from './io.js';

export const CACHE_MS = 300_000;

export async function capacity(io: CommandIO): Promise<number> {
  const flags = new Set(io.args);
  for (const flag of flags) {
    if (flag !== '--self' && flag !== '--json') throw new UsageError(`swarm capacity: unknown option ${flag}${didYouMean(flag, ['--self', '--json'])}`, { hint: 'usage: swarm capacity --self [--json]' });
  }
  const ctx = await callerContext(io, 'capacity');
  const settings = await readSettings(ctx.plan, ctx.config, io.env);
  const caps = parseCaps(io.env.AGENTKIT_CAPACITY_CAP);
  const now = new Date();

  const guessed = resolveWindow(settings.window, null, io.env);
  const kind = await kindFor(ctx.kind);
  const probe = (): ProbeResult | null =>
    kind.signals.probe({ plan: ctx.plan, account: ctx.account, lane: ctx.lane, generation: ctx.generation, run: ctx.run, env: io.env, window: guessed }, settings.capacity);
  const { reading, source, cached } = currentReading(ctx.plan, ctx.account, io.env, now, probe, kind.signals.ak);
  // `window: auto` takes the window the agent itself reported with the reading, where it did (SPEC 5).
  const window = resolveWindow(settings.window, reading?.window ?? null, io.env);
  const verdict = assess(ctx.account, reading, caps, settings.capacity, {
    contextPressure: settings.contextPressure,
    window,
    headroom: settings.headroom,
  });

  appendSpool(ctx.plan, ctx.spool, {
    kind: 'capacity',
    ts: now.toISOString(),
    from: ctx.lane,
    role: ctx.role,
    account: ctx.account,
    generation: ctx.generation,
    epoch: ctx.epoch,
    run: ctx.run,
    state: verdict.state,
    remaining_pct: verdict.remaining_pct,
    context_pct: verdict.context_pct,
    resets_at: verdict.resets_at,
    decision: verdict.decision,
    source,
  });

  if (flags.has('--json')) {
    const { state, remaining_pct, context_pct, resets_at, decision } = verdict;
    io.stdout(`${JSON.stringify({ account: ctx.account, state, remaining_pct, context_pct, resets_at, source, cached, decision })}\n`);
  } else {
    const line = formatCapacityLine({ state: verdict.state, pct: verdict.remaining_pct, account: ctx.account, contextPct: verdict.context_pct });
    io.stdout(`${line}\ndecision=${verdict.decision} source=${source}${cached ? ' (cached)' : ''}\n`);
  }
  return 0;
}

/** Sources in order: ak (cached 300 s; not for sim accounts), the kind's probe (cached unless it reads a local file), the lane's last capacity line. */
function currentReading(
  plan: string,
  account: string,
  env: NodeJS.ProcessEnv,
  now: Date,
  probe: () => ProbeResult | null,
  askAk: boolean,
): { reading: RawReading | null; source: CapacitySource; cached: boolean } {
  const saved = readCachedReading(plan, account);
  if (saved && saved.source !== 'report' && now.getTime() - Date.parse(saved.at) < CACHE_MS) {
    return { reading: fromCache(saved), source: saved.source, cached: true };
  }
  const fresh = askAk ? akReading(env) : null; // ak knows real CLI profiles, never a sim account
  if (fresh) {
    saveReading(plan, { account, state: fresh.state, remaining_pct: fresh.remainingPct, context_pct: fresh.contextPct, resets_at: fresh.resetsAt, source: 'ak', at: now.toISOString() });
    return { reading: fresh, source: 'ak', cached: false };
  }
  const probed = probe();
  if (probed) {
    const r = probed.reading;
    if (probed.cacheable) saveReading(plan, { account, state: r.state, remaining_pct: r.remainingPct, context_pct: r.contextPct, resets_at: r.resetsAt, ...contextOf(r), source: 'probe', at: now.toISOString() });
    return { reading: r, source: 'probe', cached: false };
  }
  if (saved && saved.source === 'report') return { reading: fromCache(saved), source: 'report', cached: true };
  return { reading: null, source: 'none', cached: false };
}

function fromCache(saved: CachedReading): RawReading {
  // The cache is a file agents' commands write: a figure that is no whole count is no figure.
  const count = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);
  return { state: saved.state, remainingPct: saved.remaining_pct, contextPct: saved.context_pct, resetsAt: saved.resets_at, contextTokens: count(saved.context_tokens), window: count(saved.window) || null };
}

/** The context tokens and reported window of a reading, for the cache (only where known). */
export function contextOf(r: RawReading): { context_tokens?: number; window?: number } {
  return { ...(typeof r.contextTokens === 'number' ? { context_tokens: r.contextTokens } : {}), ...(typeof r.window === 'number' ? { window: r.window } : {}) };
}
