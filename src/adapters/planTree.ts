/**
 * Files under a plan folder reached by a relative path without following a symbolic link anywhere
 * below it: the host relay's reads and writes (adapters/hostRelay.ts, relayServe.ts). An agent is not
 * trusted with the relay's reach: a link it leaves in its spool (to ~/.ssh/id_rsa, or a folder of its
 * spool swapped for a link to /etc) must neither be read and sent nor written through.
 *
 * On Linux each folder on the way is opened in turn with O_NOFOLLOW and the next one looked up
 * through /proc/self/fd/<fd>/ (what openat(2) does; node has no openat), so a folder swapped for a
 * link between two steps is refused too. Without /proc each step is checked with lstat first, which
 * a swap between the check and the use could still beat.
 */
import { closeSync, constants, existsSync, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { appendStep, type AppendStep } from '../core/host/relayPaths.js';

const { O_RDONLY, O_WRONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_APPEND, O_CREAT, O_EXCL } = constants;
const PROC_FD = existsSync('/proc/self/fd');

/** A whole file's digest, as the two ends of the relay compare their copies: sha256 (hex) of its mode and bytes. */
export function digestOf(data: Uint8Array, mode: number): string {
  return createHash('sha256').update(`${mode.toString(8)}\n`).update(data).digest('hex');
}

interface TreeEntry { name: string; kind: 'file' | 'dir' }

/** A plain file's facts: `sig` changes whenever the file may have (rewritten, replaced, grown). */
interface TreeFile { size: number; mode: number; sig: string }

export class PlanTree {
  constructor(readonly root: string) {}

  /** The plain files and folders in folder `dir` ('' is the root); none when it is missing or no plain folder. */
  list(dir: string): TreeEntry[] {
    try {
      return this.inDir(dir, false, (at) => readdirSync(at, { withFileTypes: true }).flatMap((e): TreeEntry[] => {
        if (e.isFile()) return [{ name: e.name, kind: 'file' }];
        return e.isDirectory() ? [{ name: e.name, kind: 'dir' }] : [];
      }));
    } catch {
      return [];
    }
  }

  /** The file's facts, or null when it is missing or no plain file. */
  file(path: string): TreeFile | null {
    return this.reading(path, (fd) => {
      const s = fstatSync(fd);
      return { size: s.size, mode: s.mode & 0o777, sig: `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` };
    });
  }

  /** Up to `length` bytes of the file from `from` (fewer at its end), or null when it is missing or no plain file. */
  read(path: string, from: number, length: number): Buffer | null {
    return this.reading(path, (fd) => readAt(fd, from, Math.max(0, Math.min(length, fstatSync(fd).size - from))));
  }

  /** The whole file with its mode, when a plain file of at most `max` bytes; else null. */
  readWhole(path: string, max: number): { data: Buffer; mode: number } | null {
    return this.reading(path, (fd) => {
      const s = fstatSync(fd);
      if (s.size > max) return null;
      const data = readAt(fd, 0, s.size);
      return { data, mode: s.mode & 0o777 };
    });
  }

  /**
   * Apply bytes of the other side's copy of the file at offset `at` (core/host/relayPaths.ts
   * appendStep) to this one, made with its folders when missing. Throws when a link or no plain
   * file or folder is in the way.
   */
  append(path: string, at: number, data: Uint8Array): AppendStep {
    const { dir, name } = split(path);
    return this.inDir(dir, true, (folder) => {
      const fd = openSync(join(folder, name), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644);
      try {
        const s = fstatSync(fd);
        if (!s.isFile()) throw new Error(`${path} is no plain file`);
        const step = appendStep(s.size, at, data.length);
        if (step.do === 'append') writeAll(fd, data.subarray(step.skip));
        return step;
      } finally {
        closeSync(fd);
      }
    });
  }

  /** Write the whole file atomically (a temporary file beside it, then a rename over whatever is there, a link included). */
  write(path: string, data: Uint8Array, mode: number): void {
    const { dir, name } = split(path);
    this.inDir(dir, true, (folder) => {
      const temp = join(folder, `.${name.slice(0, 100)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
      const fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      try {
        try {
          writeAll(fd, data);
          fchmodSync(fd, mode);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(temp, join(folder, name));
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    });
  }

  private reading<T>(path: string, use: (fd: number) => T): T | null {
    const { dir, name } = split(path);
    try {
      return this.inDir(dir, false, (folder) => {
        // O_NONBLOCK: a fifo left in a spool opens at once instead of waiting for a writer.
        const fd = openSync(join(folder, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
        try {
          return fstatSync(fd).isFile() ? use(fd) : null;
        } finally {
          closeSync(fd);
        }
      });
    } catch {
      return null;
    }
  }

  /** Run `use` with a path naming folder `dir` reached with no link followed, made on the way when `create`. */
  private inDir<T>(dir: string, create: boolean, use: (folder: string) => T): T {
    const parts = dir === '' ? [] : dir.split('/');
    if (!PROC_FD) return use(checkedDir(this.root, parts, create));
    let fd = openSync(this.root, O_RDONLY | O_DIRECTORY);
    try {
      for (const part of parts) {
        const next = openDir(`/proc/self/fd/${fd}/${part}`, create);
        closeSync(fd);
        fd = next;
      }
      return use(`/proc/self/fd/${fd}`);
    } finally {
      closeSync(fd);
    }
  }
}

function openDir(path: string, create: boolean): number {
  const flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
  try {
    return openSync(path, flags);
  } catch (error) {
    if (!create || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    mkdirSync(path, 0o755); // never follows: a link of that name makes it EEXIST, then the open refuses it
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return openSync(path, flags);
}

/** Without /proc: each folder on the way checked with lstat (a plain folder, no link), made when missing and `create`. */
function checkedDir(root: string, parts: string[], create: boolean): string {
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    let s = lstatOrNull(at);
    if (s === null && create) {
      mkdirSync(at, 0o755);
      s = lstatOrNull(at);
    }
    if (s === null || !s.isDirectory()) throw Object.assign(new Error(`${at} is no plain folder`), { code: s === null ? 'ENOENT' : 'ENOTDIR' });
  }
  return at;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function split(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? { dir: '', name: path } : { dir: path.slice(0, slash), name: path.slice(slash + 1) };
}

function readAt(fd: number, from: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, bytes, read, length - read, from + read);
    if (n === 0) break;
    read += n;
  }
  return bytes.subarray(0, read);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
}
