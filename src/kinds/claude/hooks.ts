/**
 * Claude Code's hooks (SCREENS.md): what the JSON `swarm hook <event>` reads on stdin means to swarm,
 * and the Stop hook's decision. Pure: the event name and the text in, plain data out. The adapter
 * never lets a hook break the agent: on any error it exits 0 and journals why.
 *
 * Decisions: the event is the one swarm was called for (`swarm hook Stop`, case-insensitive); a JSON
 * `hook_event_name` that names another event is ignored, as a misconfiguration. A StopFailure whose
 * error is not one swarm acts on is ignored, except an overflow text (SPEC 5), which is a hard limit.
 * `PreCompact` with `trigger: manual` is the developer's own compaction: ignored.
 */
import { excerpt } from '../../errors.js';
import { pointerLine } from '../../core/protocol/mailbox.js';
import { isOverflow } from '../../core/capacity/thresholds.js';
import { bool, obj, parseObject, str, type Json, type Parsed } from '../../core/protocol/jsonFields.js';
import { stripAnsi } from '../../core/protocol/protocol.js';

export const HOOK_EVENTS = [
  'SessionStart', 'UserPromptSubmit', 'Stop', 'StopFailure', 'PermissionRequest', 'Notification',
  'PreCompact', 'PostCompact', 'SessionEnd',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** A hard limit or a block an API error means: StopFailure's `error`, or a transcript entry's. */
export type ClaudeLimit = 'usage_limit' | 'payment' | 'login' | 'overflow';

export type HookMeaning =
  /** `error` is Claude's own word (rate_limit, billing_error, …). */
  | { kind: ClaudeLimit; error: string; detail: string }
  /** A permission prompt is showing; swarm never answers it. */
  | { kind: 'permission'; detail: string }
  /** An automatic compaction: the handoff line was missed. */
  | { kind: 'handoff_now'; detail: string }
  | { kind: 'session'; sessionId: string; transcriptPath: string | null; detail: string }
  | { kind: 'turn_end'; stopHookActive: boolean; detail: string }
  | { kind: 'ignore'; detail: string };

export interface Hook {
  event: HookEvent;
  sessionId: string | null;
  transcriptPath: string | null;
  meaning: HookMeaning;
}

const ERRORS: Record<string, ClaudeLimit> = {
  rate_limit: 'usage_limit',
  billing_error: 'payment',
  authentication_failed: 'login',
  oauth_org_not_allowed: 'login',
};

/** What an API error means to swarm; null for errors it does not act on (overloaded, server_error, …). */
export function claudeErrorMeaning(error: string | null, ...texts: string[]): ClaudeLimit | null {
  const known = error === null ? undefined : ERRORS[error];
  if (known !== undefined) return known;
  return isOverflow(...texts) ? 'overflow' : null;
}

export function classifyHook(eventName: string, text: string): Parsed<Hook> {
  const event = HOOK_EVENTS.find((e) => e.toLowerCase() === eventName.trim().toLowerCase());
  if (event === undefined) {
    return { ok: false, error: `unknown hook event "${excerpt(eventName, 40)}": expected one of ${HOOK_EVENTS.join(', ')}` };
  }
  const parsed = parseObject(text, `${event} hook JSON`);
  if (!parsed.ok) return parsed;
  const json = parsed.value;
  const sessionId = str(json, 'session_id');
  const transcriptPath = str(json, 'transcript_path');
  const named = str(json, 'hook_event_name');
  const meaning: HookMeaning = named !== null && named !== event
    ? { kind: 'ignore', detail: `called as ${event} but the JSON says ${excerpt(named, 40)}: check the hook settings` }
    : meaningOf(event, json, sessionId, transcriptPath);
  return { ok: true, value: { event, sessionId, transcriptPath, meaning } };
}

function meaningOf(event: HookEvent, json: Json, sessionId: string | null, transcriptPath: string | null): HookMeaning {
  switch (event) {
    case 'StopFailure': {
      const error = str(json, 'error') ?? 'unknown';
      const details = textOf(json['error_details']);
      const last = textOf(json['last_assistant_message']);
      const kind = claudeErrorMeaning(error, details, last);
      const detail = clean([error, details || last].filter((t) => t !== '').join(': '));
      return kind === null ? { kind: 'ignore', detail: `StopFailure ${detail}: not a limit swarm acts on` } : { kind, error, detail };
    }
    case 'PermissionRequest':
    {
      const input = toolInput(obj(json, 'tool_input'));
      return { kind: 'permission', detail: clean(`${str(json, 'tool_name') ?? 'a tool'}${input === '' ? '' : `: ${input}`}`) };
    }
    case 'Notification': {
      const type = str(json, 'notification_type');
      const message = clean(textOf(json['message']));
      return type === 'permission_prompt'
        ? { kind: 'permission', detail: message || 'permission prompt' }
        : { kind: 'ignore', detail: `Notification ${type ?? 'without a type'}${message === '' ? '' : `: ${message}`}` };
    }
    case 'PreCompact':
      return str(json, 'trigger') === 'auto'
        ? { kind: 'handoff_now', detail: 'automatic compaction: the handoff line was missed' }
        : { kind: 'ignore', detail: `PreCompact ${str(json, 'trigger') ?? 'without a trigger'}` };
    case 'SessionStart':
      return sessionId === null
        ? { kind: 'ignore', detail: 'SessionStart without a session_id' }
        : { kind: 'session', sessionId, transcriptPath, detail: `session ${str(json, 'source') ?? 'started'}` };
    case 'Stop':
      return { kind: 'turn_end', stopHookActive: bool(json, 'stop_hook_active'), detail: clean(textOf(json['last_assistant_message'])) };
    default:
      return { kind: 'ignore', detail: `${event}: nothing for swarm to do` };
  }
}

/** The command, file or pattern a tool asks for, short. */
function toolInput(input: Json | null): string {
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url']) {
    const value = str(input, key);
    if (value !== null) return value;
  }
  return input === null ? '' : JSON.stringify(input);
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** Escapes stripped, one line, at most 200 characters: a detail fit for the journal. */
function clean(text: string): string {
  return excerpt(stripAnsi(text), 200);
}

export interface StopInput {
  /** Messages in the agent's mailbox it has not read. */
  unreadCount: number;
  /** How many of those it has already been pointed at (by a Stop block or a typed line). */
  pointedCount: number;
  stopHookActive: boolean;
  /** The mailbox path, as the pointer line names it. */
  mailbox: string;
}

export interface StopBlock { decision: 'block'; reason: string }

/**
 * The Stop hook's answer: block the stop once, with the pointer line for the messages the agent has
 * not been pointed at, as Claude's next input; null (let it stop) when there are none or when Claude
 * is already going on because of a stop hook. The caller then records `unreadCount` as pointed.
 */
export function stopDecision(input: StopInput): StopBlock | null {
  const fresh = input.unreadCount - input.pointedCount;
  if (input.stopHookActive || !(fresh > 0)) return null;
  return { decision: 'block', reason: pointerLine(fresh, input.mailbox) };
}
