/**
 * The plan's durable inbox (`.swarm/inbox.jsonl`): one JSON object a line, appended by agents'
 * `swarm` commands and read by the engine from a saved byte offset. Pure: records and text.
 */
import type { Role } from './agentContext.js';

interface Sender {
  ts: string;
  from: string;
  role: Role | 'developer';
  account: string | null;
  generation: number | null;
  epoch: number | null;
  /** The run the writer belongs to (SWARM_RUN; core/swarm/runs.ts); absent from older writers' records. */
  run?: number | null;
}

export type InboxRecord =
  /** `swarm notify <to> <text>`; `report` is set for lane → lead vocabulary messages. */
  | (Sender & { kind: 'message'; to: string; text: string; cwd: string })
  /** `swarm accept <packet>` succeeded. */
  | (Sender & { kind: 'accept'; packet: string })
  /** `swarm capacity` took a reading. */
  | (Sender & {
      kind: 'capacity';
      state: string;
      remaining_pct: number | null;
      context_pct: number | null;
      resets_at: string | null;
      decision: string;
      source: string;
    })
  /** `swarm lead handover|takeover|release|claim` changed the record. */
  | (Sender & { kind: 'lead'; action: 'claim' | 'handover' | 'takeover' | 'release'; to: string | null; packet: string | null; new_epoch: number })
  /** `swarm answer <lane> <text>`: the developer's words, verbatim. */
  | (Sender & { kind: 'answer'; to: string; text: string })
  /** `swarm lane add`: the current lead adds a lane at run time. */
  | (Sender & { kind: 'lane'; action: 'add'; name: string; task: string; checkout: string; lane_kind: string | null; command: string | null })
  /**
   * `swarm hook <event>` / `swarm hook codex-notify`: what an agent's own structured signal meant
   * (core/claudeHooks.ts, core/codexNotify.ts, a rollout's hard limit). `resets_at`: the account's
   * last reading's reset, for a usage limit; `session_id`/`transcript_path` for a session start.
   */
  | (Sender & {
      kind: 'hook';
      event: string;
      meaning: HookSignal;
      detail: string;
      session_id: string | null;
      transcript_path: string | null;
      resets_at: string | null;
    });

/** What a hook record tells the engine. */
export type HookSignal = 'usage_limit' | 'overflow' | 'payment' | 'login' | 'permission' | 'handoff_now' | 'session' | 'turn_end';

export type InboxKind = InboxRecord['kind'];

/** One line, newline-terminated: what a single append writes. */
export function inboxLine(record: InboxRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export interface InboxChunk {
  records: InboxRecord[];
  /** Lines that were complete but not records (kept for the journal, never acted on). */
  bad: string[];
  /** Bytes consumed: up to and including the last complete line. A torn last line is not consumed. */
  consumed: number;
}

/** Parse bytes read from an offset. A last line without its newline is "not yet written". */
export function parseInboxChunk(bytes: Uint8Array): InboxChunk {
  const records: InboxRecord[] = [];
  const bad: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] !== 0x0a) continue;
    const line = new TextDecoder().decode(bytes.subarray(start, i)).trim();
    start = i + 1;
    if (line === '') continue;
    const record = parseRecord(line);
    if (record) records.push(record);
    else bad.push(line);
  }
  return { records, bad, consumed: start };
}

function parseRecord(line: string): InboxRecord | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return null;
    const kind = (value as { kind?: unknown }).kind;
    const known: InboxKind[] = ['message', 'accept', 'capacity', 'lead', 'answer', 'lane', 'hook'];
    return known.includes(kind as InboxKind) ? (value as InboxRecord) : null;
  } catch {
    return null;
  }
}
