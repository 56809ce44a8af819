/**
 * `swarm statusline [--then '<command>']` (a structured signal): Claude Code's status line command. Reads the
 * status-line JSON on stdin, records the account's reading (the capacity cache, source `probe`, which
 * `swarm capacity`, the engine and the dashboard then use; the engine hears of it through an inbox
 * `capacity` record when the verdict changes), and prints one short line. `--then` runs the user's
 * own status line command (through `sh -c`, as Claude runs it) with the same stdin and prints its
 * output after swarm's line. Never breaks the agent: always exit 0; an error is journalled.
 */
import { agentContext } from '../core/protocol/agentContext.js';
import { formatStatusLine, parseStatusLine } from '../kinds/claude/statusline.js';
import { saveReading } from '../adapters/capacityCache.js';
import { readLaneSession, writeLaneSession } from '../adapters/laneSession.js';
import { readStdin } from '../adapters/stdin.js';
import { reportVerdict, runThen, safely, takeThen, verdictOn } from './agentSignal.js';
import type { CommandIO } from './io.js';

export async function statusline(io: CommandIO): Promise<number> {
  const { then } = takeThen(io.args);
  let input = '';
  await safely(io, 'statusline', async () => {
    input = await (io.stdin ?? readStdin)();
  });
  let line = '';
  await safely(io, 'statusline', async () => {
    line = await record(io, input);
  });
  if (line !== '') io.stdout(`${line}\n`);
  if (then !== null && then.trim() !== '') {
    await safely(io, 'statusline --then', () => {
      const own = runThen(['/bin/sh', '-c', then], input, io.env);
      if (own !== '') io.stdout(own.endsWith('\n') ? own : `${own}\n`);
    });
  }
  return 0;
}

async function record(io: CommandIO, input: string): Promise<string> {
  const ctx = agentContext(io.env, 'statusline');
  const now = new Date();
  const parsed = parseStatusLine(input);
  if (!parsed.ok) throw new Error(parsed.error);
  const status = parsed.value;
  const verdict = await verdictOn(ctx, io.env, status.reading, status.window);
  // Only a reading of a usage window is cached for the account (no rate_limits: `ak` or another source may know).
  if (status.reading.remainingPct !== null) {
    saveReading(ctx.plan, {
      account: ctx.account, state: verdict.state, remaining_pct: verdict.remaining_pct, context_pct: verdict.context_pct,
      resets_at: verdict.resets_at, source: 'probe', at: now.toISOString(),
    });
  }
  reportVerdict(ctx, verdict, now);
  // The session, for the transcript probe, when no SessionStart hook recorded it.
  if (status.sessionId !== null && readLaneSession(ctx.plan, ctx.lane, ctx.generation) === null) {
    writeLaneSession(ctx.plan, ctx.lane, { generation: ctx.generation, session_id: status.sessionId, transcript_path: status.transcriptPath });
  }
  return formatStatusLine({ lane: ctx.lane, generation: ctx.generation, account: ctx.account, verdict });
}
