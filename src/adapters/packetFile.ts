/** Packet files on disk: written 0600 in a 0700 folder; their facts gathered for validation. */
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { MAX_PACKET_BYTES } from '../core/packet/packet.js';
import type { PacketFile } from '../core/packet/check.js';
import { MismatchError } from '../errors.js';
import { ensureDir, readTextIfExists, writeFileAtomic } from './files.js';

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
  return writeInto(planPaths(resolve(plan)).handoffDir, name, text);
}

/**
 * The engine's own packet written again in place (a degraded packet completed once its lane's host
 * answers: runtime/effects.ts refreshDegraded), atomically, 0600 as packets are.
 */
export function rewritePacketFile(path: string, text: string): void {
  writeFileAtomic(resolve(path), text, 0o600);
}

/**
 * A sandboxed agent's packet (SPEC 10.3: it may write only its spool): into `<spool>/packets/` (0700)
 * as 0600; the engine publishes it into the handoff folder when the agent reports it (publishPacket).
 */
export function writeSpoolPacket(plan: string, spool: string, name: string, text: string): string {
  return writeInto(spoolPacketsDir(plan, spool), name, text);
}

/** Where a sandboxed agent's packets go: its spool's `packets/` folder. */
export function spoolPacketsDir(plan: string, spool: string): string {
  return join(planPaths(resolve(plan)).spoolDir, spool, 'packets');
}

/**
 * Publish a packet an agent wrote into its own spool (`spool`) into the plan's handoff folder, as
 * 0600, under its own name (another name if that one holds other bytes; the same path when it was
 * published before, so reading the report again publishes nothing twice). Null when `from` is not a
 * plain file of that spool's `packets/` folder, or is too large: the report stands as sent, and the
 * packet's checks reject it with the reason.
 */
export function publishPacket(plan: string, spool: string, from: string): string | null {
  const abs = resolve(from);
  const folder = spoolPacketsDir(plan, spool);
  if (dirname(abs) !== folder || realOr(dirname(abs)) !== join(realOr(resolve(plan)), '.swarm', 'spool', spool, 'packets')) return null;
  let stat;
  try {
    stat = lstatSync(abs);
  } catch {
    return null;
  }
  if (!stat.isFile() || stat.size > MAX_PACKET_BYTES) return null;
  const text = readHead(abs, MAX_PACKET_BYTES + 1);
  const dir = planPaths(resolve(plan)).handoffDir;
  const name = basename(abs);
  for (let n = 1; ; n += 1) {
    const candidate = join(dir, n === 1 ? name : name.replace(/\.yaml$/, `-${n}.yaml`));
    let there: string | null = null;
    try {
      if (lstatSync(candidate).isFile()) there = readHead(candidate, MAX_PACKET_BYTES + 1);
      else continue;
    } catch {
      return writeInto(dir, basename(candidate), text);
    }
    if (there === text) return candidate;
  }
}

function writeInto(dir: string, name: string, text: string): string {
  for (const folder of [dirname(dir), dir]) {
    const kind = entryKind(folder);
    if (kind === 'dir' || kind === 'none') continue;
    throw new MismatchError(`swarm packet write: ${folder} is ${kind === 'symlink' ? 'a symlink' : 'not a folder'}; packets go only into the plan's own analysis_results/handoff/ (or a sandboxed agent's spool)`, [], {
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

/**
 * Create the file only if absent, whole or not at all: an acceptance record exists at most once per
 * packet. Written beside it first, then linked to its name (link fails if the name exists), so a
 * write refused half-way (a full disk) leaves no empty record that would refuse every later accept.
 */
export function writeOnce(path: string, text: string): { ok: true } | { ok: false; existing: string } {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, path);
    return { ok: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { ok: false, existing: readTextIfExists(path) ?? '{}' };
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The acceptance record of a packet (`<packet>.accepted.json`), as `swarm accept` and the engine write it. */
export interface AcceptanceRecord {
  packet: string;
  accepted_at: string;
  by: { lane: string; account: string; generation: number };
  epoch: number | null;
  from: { lane: string; account: string | null; generation: number };
  degraded: boolean;
}

/** Write a packet's acceptance record unless one is there (whole or not at all); false when one was. */
export function recordAcceptance(record: AcceptanceRecord): boolean {
  return writeOnce(`${record.packet}.accepted.json`, `${JSON.stringify(record, null, 2)}\n`).ok;
}
