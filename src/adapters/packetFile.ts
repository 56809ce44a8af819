/** Packet files on disk: written 0600 in a 0700 folder; their facts gathered for validation. */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { MAX_PACKET_BYTES } from '../core/packet/packet.js';
import type { PacketFile } from '../core/packet/check.js';
import { MismatchError } from '../errors.js';
import { ensureDir, writeFileAtomic } from './files.js';

/** `<lane>-g<generation>-<UTC stamp>.yaml`, e.g. lane-a-g1-20261129T234501Z.yaml. */
export function packetFileName(lane: string, generation: number, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${lane}-g${generation}-${stamp}.yaml`;
}

/**
 * Write a packet into the plan's handoff folder (0700) as 0600; returns its absolute path. A folder on
 * the way that is a symlink (or no folder) is refused before anything is created or chmod-ed: a packet
 * written through it would land outside the plan, where validation rejects it.
 */
export function writePacketFile(plan: string, name: string, text: string): string {
  const dir = planPaths(resolve(plan)).handoffDir;
  for (const folder of [dirname(dir), dir]) {
    const kind = entryKind(folder);
    if (kind === 'dir' || kind === 'none') continue;
    throw new MismatchError(`swarm packet write: ${folder} is ${kind === 'symlink' ? 'a symlink' : 'not a folder'}; packets go only into the plan's own analysis_results/handoff/`, [], {
      hint: `nothing was written; remove ${folder} (swarm creates the folder itself) and write the packet again`,
    });
  }
  ensureDir(dirname(dir), 0o755);
  ensureDir(dir, 0o700);
  let path = join(dir, name);
  for (let n = 2; entryKind(path) !== 'none'; n += 1) path = join(dir, name.replace(/\.yaml$/, `-${n}.yaml`));
  writeFileAtomic(path, text, 0o600);
  return path;
}

function entryKind(path: string): 'none' | 'dir' | 'symlink' | 'other' {
  try {
    const stat = lstatSync(path);
    return stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'none';
  }
}

/**
 * The facts validation needs, and the text: at most MAX_PACKET_BYTES + 1 bytes are read, and none
 * from what is no plain file (the size then says why). Inside the handoff folder means: its real
 * folder is `<real plan>/analysis_results/handoff`, so no folder on the way is a symlink.
 */
export function readPacketFile(plan: string, path: string): { facts: PacketFile; text: string } {
  const abs = resolve(path);
  let stat;
  try {
    stat = lstatSync(abs);
  } catch {
    return { facts: { path: abs, exists: false, insideHandoffDir: false, isSymlink: false, mode: 0, size: 0 }, text: '' };
  }
  const isSymlink = stat.isSymbolicLink();
  const realHandoff = join(realOr(resolve(plan)), 'analysis_results', 'handoff');
  const facts: PacketFile = {
    path: abs,
    exists: true,
    insideHandoffDir: realOr(dirname(abs)) === realHandoff && basename(abs) !== '',
    isSymlink,
    mode: stat.mode & 0o777,
    size: stat.size,
  };
  const text = !isSymlink && stat.isFile() && stat.size <= MAX_PACKET_BYTES ? readHead(abs, MAX_PACKET_BYTES + 1) : '';
  return { facts, text };
}

/** Up to `limit` bytes of a plain file, as UTF-8; '' when it is no plain file by the time it is opened. */
function readHead(path: string, limit: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return '';
  }
  try {
    if (!fstatSync(fd).isFile()) return '';
    const bytes = Buffer.alloc(limit);
    let read = 0;
    while (read < limit) {
      const n = readSync(fd, bytes, read, limit - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
