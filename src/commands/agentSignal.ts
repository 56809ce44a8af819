/**
 * What `swarm statusline` and `swarm hook` share: they run inside the agent, on its fast path, and
 * must never break it — every internal error is journalled (or, outside a swarm, said on stderr) and
 * the command still exits 0. A capacity verdict reaches the engine (an inbox `capacity` record) only
 * when it changed since the lane's last one, not at every message; the user's own command chained
 * with `--then` runs after swarm's part, with the same input.
 */
import { join } from 'node:path';
import type { AgentContext } from '../core/protocol/agentContext.js';
import { assess, type RawReading, type Verdict } from '../core/capacity/capacity.js';
import { planPaths } from '../core/plan/paths.js';
import { parseCaps, resolveWindow } from '../core/capacity/thresholds.js';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';
import { childProcess } from '../adapters/childProcess.js';
import { appendInbox } from '../adapters/inbox.js';
import { appendJournal } from '../adapters/journal.js';
import { readSettings } from '../adapters/settings.js';
import type { CommandIO } from './io.js';

/** Run `body`; on any error journal why (event `signal_error`) and carry on. */
export async function safely(io: CommandIO, command: string, body: () => Promise<void> | void): Promise<void> {
  try {
    await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const plan = io.env.SWARM_PLAN?.trim();
    try {
      if (!plan) throw new Error('no SWARM_PLAN');
      appendJournal(plan, {
        type: 'observation', event: 'signal_error', lane: io.env.SWARM_LANE ?? null,
        generation: Number(io.env.SWARM_GENERATION) || null, command, error: message.slice(0, 500),
      });
    } catch {
      io.stderr(`swarm ${command}: ${message.split('\n')[0]}\n`);
    }
  }
}

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
  appendInbox(ctx.plan, { kind: 'capacity', ...sender(ctx, now), ...verdict, source: 'probe' });
  writeFileAtomic(verdictFile(ctx), key, 0o644, { durable: false });
  return true;
}

/** `--then <value>` taken out of the arguments. */
export function takeThen(args: string[]): { then: string | null; rest: string[] } {
  const at = args.indexOf('--then');
  if (at === -1) return { then: null, rest: args };
  return { then: args[at + 1] ?? null, rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}

/** Run the user's own command (argv, no shell unless it is `sh -c`), `input` on its stdin; its stdout, or '' on any failure. */
export function runThen(argv: string[], input: string, env: NodeJS.ProcessEnv): string {
  const [file, ...args] = argv;
  if (!file) return '';
  const result = childProcess().spawnSync(file, args, { input, env, encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'ignore'] });
  return typeof result.stdout === 'string' ? result.stdout : '';
}
