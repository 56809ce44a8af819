/**
 * Claude Code's session state file, `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` (SCREENS.md): whether
 * the session is busy, idle or waiting, and for what. Pure: the file's text and the session id in.
 *
 * Decisions: a file for another session, or with a status swarm does not know, says nothing (null):
 * the caller falls back to the screen. `waitingFor` is kept only while the status is `waiting`.
 */
import { parseObject, str } from '../../core/protocol/jsonFields.js';

export const SESSION_STATUSES = ['busy', 'idle', 'waiting'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export interface ClaudeSession {
  status: SessionStatus;
  /** "permission prompt", "dialog open", "sandbox request", "worker request", "input needed"; null unless waiting. */
  waitingFor: string | null;
}

/** Waits that are a permission screen swarm never answers. */
const PERMISSION_WAITS = ['permission prompt', 'sandbox request'];

export function parseClaudeSession(text: string, sessionId: string): ClaudeSession | null {
  const parsed = parseObject(text, 'session file');
  if (!parsed.ok || str(parsed.value, 'sessionId') !== sessionId.trim()) return null;
  const status = SESSION_STATUSES.find((s) => s === str(parsed.value, 'status')?.toLowerCase());
  if (status === undefined) return null;
  return { status, waitingFor: status === 'waiting' ? str(parsed.value, 'waitingFor') : null };
}

/** True when the session waits on a permission (or sandbox) prompt: a blocked permission. */
export function waitsForPermission(session: ClaudeSession | null): boolean {
  return session?.status === 'waiting' && PERMISSION_WAITS.includes(session.waitingFor?.toLowerCase() ?? '');
}
