/**
 * Account leases, machine-wide (SPEC 10.4): every swarm on the machine leases from one folder
 * (`$SWARM_STATE_DIR/leases`, else `$XDG_STATE_HOME/swarm/leases`, else `~/.local/state/swarm/leases`),
 * one file per account key (core/accounts/leaseKey.ts), created with O_EXCL so two engines never both
 * hold one account. A lease names its holder: plan, lane, generation, the engine process and, once its
 * pane is there, the agent process; it is free only when neither runs (core/accounts/leases.ts
 * `leaseHolder`). The plan's `.swarm/leases/<account>.json` is a view of its own leases, written after
 * the machine's file and removed with it.
 *
 * Taking over a lease whose holder is dead: the file is renamed aside, and kept only when it is still
 * the very lease judged dead (its text unchanged); a fresh lease another engine made in between is
 * put back. No lock is held across processes, so a killed process leaves nothing held.
 */
import { closeSync, linkSync, openSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { leaseFileName, leaseHolder, parseLease, type Lease } from '../core/accounts/leases.js';
import { leaseFileOfKey, leaseKey } from '../core/accounts/leaseKey.js';
import type { Account } from '../core/config/types.js';
import { planPaths } from '../core/plan/paths.js';
import { profileFolder, type ProfileKind } from './profiles.js';
import { readTextIfExists, writeFileAtomic } from './files.js';
import { holderAlive } from './lock.js';
import { readStat } from './procStatFile.js';
import { identityRuns } from './processEnv.js';

/** Where one swarm leases: the machine's folder, its plan, its swarm.yaml, and each account's key. */
export interface LeaseStore {
  /** The machine's lease folder. */
  readonly dir: string;
  /** The plan folder, absolute (a lease naming it is this swarm's). */
  readonly plan: string;
  /** swarm.yaml, absolute. */
  readonly config: string;
  /** Account id → its machine-wide key. */
  readonly keys: ReadonlyMap<string, string>;
}

/** The machine's lease folder (SPEC 10.4). */
export function machineLeaseDir(env: NodeJS.ProcessEnv): string {
  if (env.SWARM_STATE_DIR) return join(resolve(env.SWARM_STATE_DIR), 'leases');
  if (env.XDG_STATE_HOME) return join(resolve(env.XDG_STATE_HOME), 'swarm', 'leases');
  return join(env.HOME || homedir(), '.local', 'state', 'swarm', 'leases');
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path); // not there (yet): as written
  }
};

/** What a lease needs of a kind: where it keeps its profile (kinds/kind.ts `profile`). */
export type KindProfiles = (kind: string) => { readonly profile: ProfileKind | null };

/** Each account's key: its profile folder's real path where its kind keeps one, else swarm.yaml and the id. */
export function accountKeys(accounts: readonly Account[], kinds: KindProfiles, configFile: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const host = hostname();
  const config = real(configFile);
  return new Map(accounts.map((account) => {
    const kind = kinds(account.kind).profile;
    const profile = kind === null ? null : real(profileFolder(kind, account, account.env.HOME || env.HOME || homedir()));
    return [account.id, leaseKey(account.id, { host, profile, config })];
  }));
}

export function leaseStore(input: { plan: string; file: string; accounts: readonly Account[] }, kinds: KindProfiles, env: NodeJS.ProcessEnv): LeaseStore {
  return { dir: machineLeaseDir(env), plan: input.plan, config: input.file, keys: accountKeys(input.accounts, kinds, input.file, env) };
}

/** The plan's view of its lease of `account`. */
export function leasePath(plan: string, account: string): string {
  return join(planPaths(plan).leasesDir, leaseFileName(account));
}

const machinePath = (store: Pick<LeaseStore, 'dir'>, key: string): string => join(store.dir, leaseFileOfKey(key));

/** Every lease file of the machine's folder that parses, with its path and text. */
function machineLeases(dir: string): { path: string; text: string; lease: Lease }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { path: string; text: string; lease: Lease }[] = [];
  for (const name of names) {
    if (!/^[0-9a-f]{32}\.json$/.test(name)) continue;
    const path = join(dir, name);
    const text = readTextIfExists(path) ?? '';
    const parsed = parseLease(text);
    if (parsed.ok) out.push({ path, text, lease: parsed.lease });
  }
  return out;
}

/**
 * The leases on this swarm's accounts, whoever holds them, each as this swarm's account id (two ids
 * on one key: one lease for each); `plan` tells whose it is.
 */
export function readLeases(store: LeaseStore): Lease[] {
  const ids = new Map<string, string[]>();
  for (const [id, key] of store.keys) ids.set(key, [...(ids.get(key) ?? []), id]);
  // Only the files of this swarm's keys (a lease's file is named by its key): the machine's folder may
  // hold any number of other swarms' leases, live or left by a crash, and this is read at every pick.
  return [...ids].flatMap(([key, accounts]) => {
    const parsed = parseLease(readTextIfExists(machinePath(store, key)) ?? '');
    return parsed.ok && parsed.lease.key === key ? accounts.map((account) => ({ ...parsed.lease, account })) : [];
  });
}

/** The leases this swarm's plan holds, on any account (also one no longer in swarm.yaml). */
export function planLeases(dir: string, plan: string): Lease[] {
  return machineLeases(dir).filter(({ lease }) => lease.plan === plan).map(({ lease }) => lease);
}

/** The plan's leases in the machine's folder that `env` names (`swarm down`, tests). */
export function readPlanLeases(plan: string, env: NodeJS.ProcessEnv = process.env): Lease[] {
  return planLeases(machineLeaseDir(env), plan);
}

/** This process as a lease's engine. */
function engineOf(): { pid: number; start: number | null } {
  return { pid: process.pid, start: readStat(process.pid)?.startTicks ?? null };
}

export const holderFacts = {
  host: hostname(),
  alive: (p: { pid: number; start: number | null }) => holderAlive({ pid: p.pid, startTicks: p.start }),
  agentByIdentity: (lease: Lease) => lease.plan !== undefined && identityRuns({ SWARM_PLAN: lease.plan, SWARM_ACCOUNT: lease.account, SWARM_GENERATION: String(lease.generation) }),
};

const TORN_MS = 10_000;

/**
 * Create the lease; false when another live holder has it (the caller picks again or waits).
 * Re-acquiring one's own lease (same plan, lane and generation) adopts it; a lease whose holder is
 * dead is taken over. The plan's view is written after the machine's file.
 */
export function acquireLease(store: LeaseStore, input: { account: string; lane: string; generation: number }): boolean {
  const key = store.keys.get(input.account);
  if (key === undefined) throw new Error(`account ${input.account} is not in swarm.yaml's pool`);
  const path = machinePath(store, key);
  mkdirSync(store.dir, { recursive: true, mode: 0o700 });
  const engine = engineOf();
  const lease: Lease = {
    ...input, pid: engine.pid, host: hostname(), acquired_at: new Date().toISOString(),
    key, plan: store.plan, config: store.config, start: engine.start, agent: null,
  };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (createExclusive(path, `${JSON.stringify(lease)}\n`)) {
      writeView(store.plan, lease);
      return true;
    }
    const text = readTextIfExists(path);
    if (text === null) continue; // released in between: create again
    const parsed = parseLease(text);
    if (parsed.ok) {
      const held = parsed.lease;
      if (held.plan === store.plan && held.lane === input.lane && held.generation === input.generation) {
        adoptLease(store, { ...held, account: input.account });
        return true;
      }
      if (leaseHolder(held, holderFacts) !== null) return false;
    } else if (ageMs(path) < TORN_MS) {
      return false; // being written this moment (or a torn file, taken over once it is old)
    }
    takeOver(path, text);
  }
  return false;
}

/** Create `path` with `text` unless it exists; a write the disk refuses leaves no file. */
function createExclusive(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeWhole(fd, text, path);
  } catch (error) {
    // A lease the disk refused (full) must not stay as an empty file no one can parse or recover:
    // the file is this call's own (O_EXCL), so it is removed and the account stays free.
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  closeSync(fd);
  return true;
}

/** Remove a dead holder's lease, unless the file is no longer that lease (then it is put back). */
function takeOver(path: string, seen: string): void {
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.dead`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another engine took it over first
  }
  if (readTextIfExists(aside) !== seen) {
    try {
      linkSync(aside, path); // a fresh lease, made after we looked: its holder keeps it
    } catch {
      // a third lease was made meanwhile: that one stands
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Rewrite one's own lease as held by this engine process (after a restart re-adopts its lanes). */
export function adoptLease(store: LeaseStore, lease: Lease): void {
  const key = lease.key ?? store.keys.get(lease.account);
  if (key === undefined) return;
  const engine = engineOf();
  const next: Lease = { ...lease, key, plan: store.plan, config: store.config, pid: engine.pid, start: engine.start, host: hostname(), agent: lease.agent ?? null };
  writeFileAtomic(machinePath(store, key), `${JSON.stringify(next)}\n`, 0o644, { durable: false });
  writeView(store.plan, next);
}

/** Name the agent a lease serves, once its pane runs (SPEC 10.4: the lease outlives its engine while the agent runs). */
export function leaseAgent(store: LeaseStore, input: { account: string; lane: string; generation: number }, agent: { pid: number; start: number | null }): void {
  const key = store.keys.get(input.account);
  if (key === undefined) return;
  const parsed = parseLease(readTextIfExists(machinePath(store, key)) ?? '');
  if (!parsed.ok || parsed.lease.plan !== store.plan || parsed.lease.lane !== input.lane || parsed.lease.generation !== input.generation) return;
  const next: Lease = { ...parsed.lease, agent };
  writeFileAtomic(machinePath(store, key), `${JSON.stringify(next)}\n`, 0o644, { durable: false });
  writeView(store.plan, { ...next, account: input.account });
}

/**
 * A lease moves with its agent from one lane's generation to another's (a lane's agent promoted to
 * lead in place, SPEC 10.5): rewritten only while it is still `from`'s (idempotent: once moved, nothing).
 */
export function moveLease(store: LeaseStore, account: string, from: { lane: string; generation: number }, to: { lane: string; generation: number }): boolean {
  const key = store.keys.get(account);
  if (key === undefined) return false;
  const parsed = parseLease(readTextIfExists(machinePath(store, key)) ?? '');
  if (!parsed.ok || parsed.lease.plan !== store.plan || parsed.lease.lane !== from.lane || parsed.lease.generation !== from.generation) return false;
  const next: Lease = { ...parsed.lease, lane: to.lane, generation: to.generation };
  writeFileAtomic(machinePath(store, key), `${JSON.stringify(next)}\n`, 0o644, { durable: false });
  writeView(store.plan, { ...next, account });
  return true;
}

/** Release this plan's lease of `account` (never another swarm's); false when it held none. */
export function releaseLease(store: LeaseStore, account: string): boolean {
  removeView(store.plan, account);
  const key = store.keys.get(account);
  return key !== undefined && releaseKey(store.dir, store.plan, key);
}

/** Release a lease of the plan by its key (`swarm down`, a lease of an account no longer declared). */
export function releaseKey(dir: string, plan: string, key: string): boolean {
  const path = machinePath({ dir }, key);
  const parsed = parseLease(readTextIfExists(path) ?? '');
  if (!parsed.ok || parsed.lease.plan !== plan) return false;
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

function writeView(plan: string, lease: Lease): void {
  writeFileAtomic(leasePath(plan, lease.account), `${JSON.stringify(lease)}\n`, 0o644, { durable: false });
}

function removeView(plan: string, account: string): void {
  try {
    unlinkSync(leasePath(plan, account));
  } catch {
    // no view
  }
}

/** One write of the whole text, or an ENOSPC error (a short write is a full disk). */
function writeWhole(fd: number, text: string, path: string): void {
  const bytes = Buffer.from(text);
  const written = writeSync(fd, bytes);
  if (written === bytes.length) return;
  throw Object.assign(new Error(`ENOSPC: no space left on device, a lease write cut short at ${written} of ${bytes.length} bytes`), { code: 'ENOSPC', syscall: 'write', path });
}
