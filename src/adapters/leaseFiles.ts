/**
 * Account leases as files (`.swarm/leases/<account>.json`), created with O_EXCL so two engines never
 * both hold one account. A lease names the lane and generation it serves and the engine holding it.
 */
import { closeSync, openSync, readdirSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { leaseFileName, parseLease, type Lease } from '../core/accounts/leases.js';
import { planPaths } from '../core/plan/paths.js';
import { readTextIfExists, writeFileAtomic } from './files.js';

export function leasePath(plan: string, account: string): string {
  return join(planPaths(plan).leasesDir, leaseFileName(account));
}

export function readLeases(plan: string): Lease[] {
  const dir = planPaths(plan).leasesDir;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const leases: Lease[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const parsed = parseLease(readTextIfExists(join(dir, name)) ?? '');
    if (parsed.ok) leases.push(parsed.lease);
  }
  return leases;
}

/** Create the lease; false when another holds it (the caller picks again). Re-acquiring one's own lease is true. */
export function acquireLease(plan: string, input: { account: string; lane: string; generation: number }): boolean {
  const lease: Lease = { ...input, pid: process.pid, host: hostname(), acquired_at: new Date().toISOString() };
  const path = leasePath(plan, input.account);
  mkdirSync(planPaths(plan).leasesDir, { recursive: true });
  try {
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeWhole(fd, `${JSON.stringify(lease)}\n`, path);
    } catch (error) {
      // A lease the disk refused (full) must not stay as an empty file no one can parse or recover:
      // the file is this call's own (O_EXCL), so it is removed and the account stays free.
      closeSync(fd);
      unlinkSync(path);
      throw error;
    }
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const parsed = parseLease(readTextIfExists(path) ?? '');
  if (parsed.ok && parsed.lease.lane === input.lane && parsed.lease.generation === input.generation) {
    adoptLease(plan, parsed.lease);
    return true;
  }
  return false;
}

/** Rewrite a lease as held by this engine process (after a restart re-adopts its lanes). */
export function adoptLease(plan: string, lease: Lease): void {
  writeFileAtomic(leasePath(plan, lease.account), `${JSON.stringify({ ...lease, pid: process.pid, host: hostname() })}\n`);
}

export function releaseLease(plan: string, account: string): boolean {
  try {
    unlinkSync(leasePath(plan, account));
    return true;
  } catch {
    return false;
  }
}

/** One write of the whole text, or an ENOSPC error (a short write is a full disk). */
function writeWhole(fd: number, text: string, path: string): void {
  const bytes = Buffer.from(text);
  const written = writeSync(fd, bytes);
  if (written === bytes.length) return;
  throw Object.assign(new Error(`ENOSPC: no space left on device, a lease write cut short at ${written} of ${bytes.length} bytes`), { code: 'ENOSPC', syscall: 'write', path });
}
