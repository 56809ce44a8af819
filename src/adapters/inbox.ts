/** The plan's inbox file: agents append, the engine reads from a saved offset. */
import { statSync } from 'node:fs';
import { planPaths } from '../core/plan/paths.js';
import { inboxLine, parseInboxChunk, type InboxChunk, type InboxRecord, type InboxTail } from '../core/protocol/inbox.js';
import { appendLine, readFrom } from './files.js';

export function appendInbox(planDir: string, record: InboxRecord): void {
  appendLine(planPaths(planDir).inbox, inboxLine(record));
}

/**
 * Read records from `offset`; `offset` in the answer is how far to advance. A last line without its
 * newline is read again later, unless `seen` says it is the same line and `now` is past its deadline.
 */
export function readInbox(planDir: string, offset: number, torn: { seen?: InboxTail | null; now?: number } = {}): InboxChunk & { offset: number } {
  const chunk = parseInboxChunk(readFrom(planPaths(planDir).inbox, offset), { ...torn, from: offset });
  return { ...chunk, offset: offset + chunk.consumed };
}

/** The inbox's size now (bytes): where a reader starts to see only what comes next. */
export function inboxSize(planDir: string): number {
  try {
    return statSync(planPaths(planDir).inbox).size;
  } catch {
    return 0;
  }
}
