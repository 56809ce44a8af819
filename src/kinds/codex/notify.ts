/**
 * Codex's `notify` program (SCREENS.md): `swarm hook codex-notify '<json>'`, the JSON as the last
 * argument, run at each turn's end. Pure: the JSON text and the lane's thread id in.
 *
 * The notice also fires for Codex's own title-generation thread, which may finish first: only the
 * lane's thread (the rollout's `session_meta.id`) counts. Decision: while that id is not known yet
 * (no rollout read), no notice counts — one cannot tell the title thread from the lane's.
 */
import { excerpt } from '../../errors.js';
import { parseObject, str, type Parsed } from '../../core/protocol/jsonFields.js';
import { stripAnsi } from '../../core/protocol/protocol.js';

export type CodexNotice =
  | { kind: 'turn_end'; threadId: string; turnId: string | null; lastMessage: string }
  | { kind: 'ignore'; detail: string };

export function parseCodexNotify(json: string, laneThreadId: string | null): Parsed<CodexNotice> {
  const parsed = parseObject(json, 'codex notify JSON');
  if (!parsed.ok) return parsed;
  const notice = parsed.value;
  const type = str(notice, 'type');
  if (type !== 'agent-turn-complete') return ignore(`notice ${type === null ? 'without a type' : excerpt(type, 40)}: not a turn end`);
  const threadId = str(notice, 'thread-id');
  if (threadId === null) return ignore('turn end without a thread-id');
  if (laneThreadId === null) return ignore(`turn end of thread ${threadId} before the lane's thread is known`);
  if (threadId !== laneThreadId.trim()) return ignore(`turn end of another thread (${threadId}), e.g. Codex's title thread`);
  const lastMessage = excerpt(stripAnsi(str(notice, 'last-assistant-message') ?? ''), 200);
  return { ok: true, value: { kind: 'turn_end', threadId, turnId: str(notice, 'turn-id'), lastMessage } };
}

function ignore(detail: string): Parsed<CodexNotice> {
  return { ok: true, value: { kind: 'ignore', detail } };
}
