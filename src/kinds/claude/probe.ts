/**
 * Claude Code's capacity probe: the transcript of the lane's session (its SessionStart hook's path,
 * else found by the session id) tells the context used and an API error's hard limit. The status
 * line, when set, is fresher and is cached by `swarm statusline`.
 */
import { limited, type ProbeResult, type ProbeTarget } from '../../core/capacity/probe.js';
import type { RawReading } from '../../core/capacity/capacity.js';
import { readLaneSession } from '../../adapters/laneSession.js';
import { claudeConfigDir, findTranscript, readTail } from './files.js';
import { readTranscriptTail } from './transcript.js';

export function claudeProbe(target: ProbeTarget): ProbeResult | null {
  const env = target.env ?? {};
  const session = readLaneSession(target.plan, target.lane, target.generation);
  const sessionId = session?.session_id ?? (env.SWARM_SESSION_ID?.trim() || null);
  const path = session?.transcript_path ?? (sessionId === null ? null : findTranscript(claudeConfigDir(env.CLAUDE_CONFIG_DIR), sessionId));
  const text = path === null ? null : readTail(path);
  if (text === null) return null;
  const tail = readTranscriptTail(text, target.window ?? null);
  const reading: RawReading = { state: 'unknown', remainingPct: null, contextPct: tail.contextPct, resetsAt: null, contextTokens: tail.contextTokens };
  return { reading: limited(reading, tail.hardLimit), cacheable: false, hardLimit: tail.hardLimit };
}
