/** The plan's inbox file: agents append, the engine reads from a saved offset. */
import { closeSync, openSync, readSync, fstatSync, statSync } from 'node:fs';
import { planPaths } from '../core/paths.js';
import { inboxLine, parseInboxChunk, type InboxChunk, type InboxRecord } from '../core/inbox.js';
import { appendLine } from './files.js';

export function appendInbox(planDir: string, record: InboxRecord): void {
  appendLine(planPaths(planDir).inbox, inboxLine(record));
}

/** Read complete records from `offset`; `consumed` says how far to advance the offset. */
export function readInbox(planDir: string, offset: number): InboxChunk & { offset: number } {
  let fd: number;
  try {
    fd = openSync(planPaths(planDir).inbox, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], bad: [], consumed: 0, offset };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { records: [], bad: [], consumed: 0, offset };
    const bytes = Buffer.alloc(size - offset);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    const chunk = parseInboxChunk(bytes.subarray(0, read));
    return { ...chunk, offset: offset + chunk.consumed };
  } finally {
    closeSync(fd);
  }
}

/** The inbox's size now (bytes): where a reader starts to see only what comes next. */
export function inboxSize(planDir: string): number {
  try {
    return statSync(planPaths(planDir).inbox).size;
  } catch {
    return 0;
  }
}
