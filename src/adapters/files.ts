/** Small, boring file operations with the guarantees the engine relies on. */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync, chmodSync } from 'node:fs';
import { dirname } from 'node:path';
import { planFilesFault, type PlanFilesError } from '../errors.js';
import { appendWhole } from './appendWhole.js';

/**
 * Write to a temporary file beside the target, then rename: readers see the old or the new file, never
 * half. `durable` (the default) also fsyncs before the rename, so the file survives a power cut; caches
 * that are rebuilt anyway skip it (it is most of the cost of `swarm notify`).
 */
export function writeFileAtomic(path: string, data: string, mode = 0o644, options: { durable?: boolean } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      writeAll(fd, Buffer.from(data));
      if (options.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true }); // a half-written temporary file would hold the space a full disk lacks
    throw error;
  }
}

/**
 * Append one line in a single write(2) on an O_APPEND descriptor, so concurrent writers never
 * interleave inside a line; whole or not at all (adapters/appendWhole.ts), else an ENOSPC error.
 */
export function appendLine(path: string, line: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+', 0o644);
  try {
    appendWhole({
      size: () => fstatSync(fd).size,
      read: (at, length) => readAt(fd, at, length),
      append: (bytes) => writeSync(fd, bytes),
      overwrite: (at, bytes) => overwriteAt(path, at, bytes),
    }, line, path);
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, at: number, length: number): Buffer {
  const bytes = Buffer.alloc(Math.max(0, length));
  let read = 0;
  while (read < bytes.length) {
    const n = readSync(fd, bytes, read, bytes.length - read, at + read);
    if (n === 0) break;
    read += n;
  }
  return bytes.subarray(0, read);
}

/** Write over bytes already in the file (a descriptor without O_APPEND, whose writes go where asked). */
function overwriteAt(path: string, at: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset, at + offset);
  } finally {
    closeSync(fd);
  }
}

export function readTextIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A file of the user's, or null when it cannot be read (theirs is then left out, and what needed it goes on). */
export function readUserFile(path: string): string | null {
  try {
    return readTextIfExists(path);
  } catch {
    return null;
  }
}

/** A folder with the given mode (created or tightened). */
export function ensureDir(path: string, mode: number): void {
  mkdirSync(path, { recursive: true, mode });
  chmodSync(path, mode);
}

function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

/**
 * Run a write; while the file system refuses it (a planFilesFault: unwritable, full, immutable), try
 * again with backoff (0.1 s doubling to 2 s) until `budgetMs` has passed, then throw the fault (exit 5).
 * `refused` hears the first refusal, when there is time left to wait (so the caller can say why it waits).
 */
export async function retryWrite<T>(write: () => T, budgetMs: number, refused?: (fault: PlanFilesError) => void): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let wait = 100, told = false; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return write();
    } catch (error) {
      const fault = planFilesFault(error);
      if (!fault) throw error;
      if (Date.now() >= deadline) throw fault;
      if (!told) refused?.(fault);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - Date.now()))));
    }
  }
}

/** The bytes of a file from `from` to its end (none when it does not exist). */
export function readFrom(path: string, from: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
  try {
    return readAt(fd, from, fstatSync(fd).size - from);
  } finally {
    closeSync(fd);
  }
}

/**
 * Part of a file as text: `choose` gets the file's size and says where to start and how many bytes to
 * read (a torn first or last line is the parser's to skip); null when the file cannot be opened.
 */
export function readSlice(path: string, choose: (size: number) => { from: number; length: number }): { text: string; from: number } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const { from, length } = choose(fstatSync(fd).size);
    return { text: readAt(fd, from, length).toString('utf8'), from };
  } finally {
    closeSync(fd);
  }
}
