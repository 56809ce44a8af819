/**
 * One line appended whole, or not at all, among several O_APPEND writers (the inbox, the journal, a
 * mailbox). A record starts on a fresh line: a file left ending mid-line (a torn write) gets a newline
 * first, so no record is glued to a torn one. A short write (a full disk) is cut back and refused as
 * ENOSPC: the bytes that landed are overwritten in place with blanks and a newline, a blank line every
 * reader skips. Overwriting in place, where they landed, never touches another writer's bytes however
 * the writes race (a truncate could cut a record appended just before it) and takes no new space.
 * Where even that fails, the torn bytes stay, and the next record starts on a fresh line after them.
 * The file's operations come in, so the races can be played out in a test.
 */

/** What an append needs of an open file: its size, some of its bytes, an append, a write in place. */
export interface AppendFile {
  size(): number;
  /** The `length` bytes at `at` (fewer at the end of the file). */
  read(at: number, length: number): Buffer;
  /** One write(2) at the end (O_APPEND): how many bytes landed (fewer on a full disk; throws when none can). */
  append(bytes: Buffer): number;
  /** Write `bytes` over the file's own bytes at `at` (no O_APPEND). */
  overwrite(at: number, bytes: Buffer): void;
}

/** Append `line` (ending in a newline, or empty) whole; throws an ENOSPC error for `path` when cut short. */
export function appendWhole(file: AppendFile, line: string, path: string): void {
  const before = file.size();
  const fresh = before > 0 && file.read(before - 1, 1)[0] !== 0x0a;
  const bytes = Buffer.from(fresh ? `\n${line}` : line);
  if (bytes.length === 0) return;
  const written = file.append(bytes);
  if (written >= bytes.length) return;
  try {
    blankOut(file, before, bytes, written);
  } catch {
    // The torn bytes stay: the next record starts on a fresh line, readers skip them alone.
  }
  throw shortWrite(path, written, bytes.length);
}

/**
 * Find the `written` bytes that landed (at or after `before`, where the file ended before the write)
 * and blank them. Another writer's whole copy of the same line (a record repeated within the same
 * millisecond) goes on with the byte this write stopped before: that occurrence is not ours.
 */
function blankOut(file: AppendFile, before: number, bytes: Buffer, written: number): void {
  if (written === 0) return;
  const mine = bytes.subarray(0, written);
  const region = file.read(before, file.size() - before);
  for (let at = region.lastIndexOf(mine); at !== -1; at = at === 0 ? -1 : region.lastIndexOf(mine, at - 1)) {
    const next = region[at + written];
    if (next !== undefined && next === bytes[written]) continue;
    file.overwrite(before + at, Buffer.concat([Buffer.alloc(written - 1, 0x20), Buffer.from('\n')]));
    return;
  }
}

function shortWrite(path: string, written: number, length: number): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ENOSPC: no space left on device, a write cut short at ${written} of ${length} bytes`);
  error.code = 'ENOSPC';
  error.syscall = 'write';
  error.path = path;
  return error;
}
