/** Packet files on disk: written 0600 in a 0700 folder; their facts gathered for validation. */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { planPaths } from '../core/paths.js';
import type { PacketFile } from '../core/packet.js';
import { ensureDir, writeFileAtomic } from './files.js';

/** `<lane>-g<generation>-<UTC stamp>.yaml`, e.g. lane-a-g1-20261129T234501Z.yaml. */
export function packetFileName(lane: string, generation: number, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${lane}-g${generation}-${stamp}.yaml`;
}

/** Write a packet into the plan's handoff folder (0700) as 0600; returns its absolute path. */
export function writePacketFile(plan: string, name: string, text: string): string {
  const dir = planPaths(resolve(plan)).handoffDir;
  ensureDir(dirname(dir), 0o755);
  ensureDir(dir, 0o700);
  let path = join(dir, name);
  for (let n = 2; exists(path); n += 1) path = join(dir, name.replace(/\.yaml$/, `-${n}.yaml`));
  writeFileAtomic(path, text, 0o600);
  return path;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The facts validation needs, and the text (empty when the file cannot be read as a plain file). */
export function readPacketFile(plan: string, path: string): { facts: PacketFile; text: string } {
  const abs = resolve(path);
  const handoffDir = planPaths(resolve(plan)).handoffDir;
  let stat;
  try {
    stat = lstatSync(abs);
  } catch {
    return { facts: { path: abs, exists: false, insideHandoffDir: inside(handoffDir, abs), isSymlink: false, mode: 0, size: 0 }, text: '' };
  }
  const isSymlink = stat.isSymbolicLink();
  const facts: PacketFile = {
    path: abs,
    exists: true,
    insideHandoffDir: inside(realOr(handoffDir), join(realOr(dirname(abs)), basename(abs))),
    isSymlink,
    mode: stat.mode & 0o777,
    size: stat.size,
  };
  const text = !isSymlink && stat.isFile() && stat.size <= 1024 * 1024 ? readFileSync(abs, 'utf8') : '';
  return { facts, text };
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.includes('/');
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
