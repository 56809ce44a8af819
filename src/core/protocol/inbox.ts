/**
 * Agents' records, each agent's in its own spool (`.swarm/spool/r<run>/<name>-g<N>/records.jsonl`): one
 * JSON object a line, appended by its `swarm` commands and read by the engine from a saved byte offset.
 * Pure: records and text.
 */
import { gluedObject } from './tornLines.js';

interface Sender {
  ts: string;
  from: string;
  role: 'lead' | 'lane' | 'reviewer' | 'developer';
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
   * (kinds/claude/hooks.ts, kinds/codex/notify.ts, a rollout's hard limit). `resets_at`: the account's
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
      /** For a turn end: this generation's turn number (its turn-end hooks count them), for the ledger (SPEC 10.7). */
      turn?: number;
    })
  /**
   * What one process of the agent has spent so far, cumulative, as its own signals report it (Claude
   * Code's status line, Codex's rollout, the sim's model): written when it changed. Grants nothing;
   * the engine folds it into the ledger (core/ledger/ledger.ts).
   */
  | (Sender & {
      kind: 'usage';
      session_id: string | null;
      cost_usd: number | null;
      tokens: { input: number | null; output: number | null; cache_read: number | null; cache_write: number | null };
      /** Turns this process finished, where the agent counts them; absent: its turn ends number them. */
      turns?: number | null;
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
  /** Bytes of a write cut short, skipped alone: where they start in the file, and how many. */
  torn: { offset: number; bytes: number }[];
  /** Bytes consumed: up to and including the last complete line (and a last line found torn). */
  consumed: number;
  /** Where a last line without its newline starts in the file: not yet written, read again later. */
  tail: number | null;
}

/** How long a last line may go without its newline before it is torn (SPEC 10.1). */
export const TORN_AFTER_MS = 10_000;

/** A last line without its newline first seen earlier: where it starts, and when it is torn. */
export interface InboxTail {
  offset: number;
  due: number;
}

/**
 * Parse bytes read from the file offset `from`. A last line without its newline is not yet written
 * (`tail`) until `now` reaches the deadline of that same line (`seen`): then it is torn, as is every
 * line cut short that another record follows (on its own line, or glued to it).
 */
export function parseInboxChunk(bytes: Uint8Array, options: { from?: number; seen?: InboxTail | null; now?: number } = {}): InboxChunk {
  const from = options.from ?? 0;
  const chunk: InboxChunk = { records: [], bad: [], torn: [], consumed: 0, tail: null };
  let start = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] !== 0x0a) continue;
    readLine(chunk, bytes.subarray(start, i), from + start);
    start = i + 1;
  }
  chunk.consumed = start;
  if (start < bytes.length) {
    const seen = options.seen;
    const due = seen !== null && seen !== undefined && seen.offset === from + start && (options.now ?? -Infinity) >= seen.due;
    const text = decode(bytes.subarray(start));
    if (!due) chunk.tail = from + start;
    else {
      if (text.trim() !== '') chunk.torn.push({ offset: from + start, bytes: bytes.length - start });
      chunk.consumed = bytes.length;
    }
  }
  return chunk;
}

/** One complete line at file offset `at`: a record, a bad line, or torn bytes (and a record glued after them). */
function readLine(chunk: InboxChunk, bytes: Uint8Array, at: number): void {
  const raw = decode(bytes);
  const line = raw.trim();
  if (line === '') return;
  const lead = byteLength(raw.slice(0, raw.length - raw.trimStart().length));
  const whole = parseJson(line);
  if (whole.ok) {
    const record = asRecord(whole.value);
    if (record) chunk.records.push(record);
    else chunk.bad.push(line);
    return;
  }
  const glued = gluedObject(line);
  const cut = glued ? line.slice(0, glued.at) : line;
  // In bytes (a torn multi-byte character decodes to another length): all but the spaces around and the glued record.
  const trail = byteLength(raw.slice(raw.trimEnd().length));
  const size = bytes.length - lead - trail - (glued ? byteLength(line.slice(glued.at)) : 0);
  if (cut.startsWith('{')) chunk.torn.push({ offset: at + lead, bytes: size });
  else chunk.bad.push(cut.trim());
  if (!glued) return;
  const record = asRecord(glued.value);
  if (record) chunk.records.push(record);
  else chunk.bad.push(line.slice(glued.at));
}

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const byteLength = (text: string): number => new TextEncoder().encode(text).length;

function parseJson(line: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return { ok: false };
  }
}

function asRecord(value: unknown): InboxRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const kind = (value as { kind?: unknown }).kind;
  const known: InboxKind[] = ['message', 'accept', 'capacity', 'lead', 'answer', 'lane', 'hook', 'usage'];
  return known.includes(kind as InboxKind) ? (value as InboxRecord) : null;
}
