/**
 * Account leases and the successor's account (SPEC 5, 4.4): which pool account a lane may take next,
 * and when a lease left by a dead holder may be recovered. Pure: leases, readings and `now` come in.
 */
import type { Account } from '../config/config.js';
import type { CapacityState } from '../protocol/protocol.js';
import { parseJsonObject, shown } from '../lead/epochs.js';

export interface Lease { account: string; lane: string; generation: number; pid: number; host: string; acquired_at: string }
export interface Reading { state: CapacityState; remainingPct: number | null; resetsAt: string | null /* ISO */ }
export type PickResult = { ok: true; account: string; why: string } | { ok: false; resetsAt: string | null; why: string };

export interface PickInput {
  pool: readonly Account[];
  leases: readonly Lease[];
  readings: ReadonlyMap<string, Reading>;
  /** account → when it resets (null: unknown) for accounts that hit a limit. */
  spent: ReadonlyMap<string, string | null>;
  /** account → why it would stop at its start (readiness, or a blocking screen a successor showed on it). */
  notReady?: ReadonlyMap<string, string>;
  leadAccount: string;
  /** The spent account's vendor: another vendor is preferred when any qualifies. */
  preferOtherThan?: string | null;
  exclude?: readonly string[];
  /** Why each excluded account is (`the account lane-a g1 leaves`): said in the refusal, else just `excluded`. */
  excludedBecause?: ReadonlyMap<string, string>;
  now: string;
}

/** A reset time strictly after `now` (an unreadable time is never in the future). */
const isFuture = (iso: string | null | undefined, now: number): iso is string =>
  typeof iso === 'string' && Date.parse(iso) > now;

/** Why an account cannot be picked now, or null when it can. */
function blocker(account: Account, input: PickInput, now: number): string | null {
  if (account.id === input.leadAccount) return "the lead's";
  if (input.exclude?.includes(account.id)) {
    const because = input.excludedBecause?.get(account.id);
    return because === undefined ? 'excluded' : `excluded (${because})`;
  }
  if (input.leases.some((lease) => lease.account === account.id)) return 'leased';
  const notReady = input.notReady?.get(account.id);
  if (notReady !== undefined) return `${NOT_READY}${notReady}`;
  if (input.spent.has(account.id)) {
    const resetsAt = input.spent.get(account.id) ?? null;
    if (resetsAt === null || Number.isNaN(Date.parse(resetsAt))) return 'spent';
    if (isFuture(resetsAt, now)) return `spent until ${resetsAt}`;
  }
  if (input.readings.get(account.id)?.state === 'critical') return 'critical';
  return null;
}

const NOT_READY = 'not ready: ';

/**
 * The accounts a pick skips because they are not ready although nothing else stands in their way
 * (not the lead's, excluded or leased): each is journaled (`account_skipped`) with why.
 */
export function skippedNotReady(input: PickInput): { account: string; why: string }[] {
  const now = Date.parse(input.now);
  return input.pool.flatMap((account) => {
    const why = blocker(account, input, now);
    return why?.startsWith(NOT_READY) ? [{ account: account.id, why: why.slice(NOT_READY.length) }] : [];
  });
}

/** Lower ranks first: known ok (most remaining first), then low (most remaining first), then unknown. */
function rank(reading: Reading | undefined): [number, number] {
  const left = reading?.remainingPct ?? -1;
  if (reading?.state === 'ok') return [0, -left];
  if (reading?.state === 'low') return [2, -left];
  return [1, 0];
}

function describe(reading: Reading | undefined): string {
  if (reading === undefined || reading.state === 'unknown') return 'capacity unknown';
  return reading.remainingPct === null ? reading.state : `${reading.state}, ${reading.remainingPct}% left`;
}

/**
 * SPEC 5 + seeds: never the lead's account; never an excluded, leased, not ready (core/accounts/readiness.ts),
 * spent (limited until its reset) or critical one; a low one only when every eligible account is low;
 * prefer another vendor than `preferOtherThan` when any qualifies; then known ok by most remaining %,
 * then unknown, then low by most remaining; ties by pool order. A spent
 * account whose reset is past (≤ now) is eligible again. None eligible → the earliest future reset
 * among the spent or critical accounts that waiting would free (null when none is known).
 */
export function pick(input: PickInput): PickResult {
  const now = Date.parse(input.now);
  const eligible: Account[] = [];
  const refused: string[] = [];
  const resets: string[] = [];
  for (const account of input.pool) {
    const why = blocker(account, input, now);
    if (why === null) eligible.push(account);
    else refused.push(`${account.id} ${why}`);
    if (why !== null && (why.startsWith('spent') || why === 'critical')) {
      const spentUntil = input.spent.get(account.id);
      const readingReset = input.readings.get(account.id)?.resetsAt;
      for (const at of [spentUntil, readingReset]) if (isFuture(at, now)) resets.push(at);
    }
  }
  if (eligible.length === 0) {
    resets.sort((a, b) => Date.parse(a) - Date.parse(b));
    const resetsAt = resets[0] ?? null;
    const list = refused.length === 0 ? 'the pool is empty' : refused.join(', ');
    return { ok: false, resetsAt, why: `no account has headroom (${list})` };
  }
  // A `low` account is a last resort: its agent would be told to hand off again at its first check,
  // and a lane could swap between low accounts until max_generations. Another vendor is preferred
  // among the accounts that are not low.
  const roomy = eligible.filter((account) => input.readings.get(account.id)?.state !== 'low');
  const candidates = roomy.length > 0 ? roomy : eligible;
  const avoid = input.preferOtherThan ?? null;
  const other = avoid === null ? candidates : candidates.filter((account) => account.vendor !== avoid);
  const field = other.length > 0 ? other : candidates;
  const ranked = field
    .map((account, order) => ({ account, order, key: rank(input.readings.get(account.id)) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.order - b.order);
  const best = ranked[0]!.account;
  let why = `${best.id}: ${describe(input.readings.get(best.id))}`;
  if (roomy.length === 0) why += ' (every eligible account is low)';
  if (avoid !== null) why += other.length > 0 ? `, another vendor than ${avoid}` : `, same vendor ${avoid} (no other qualifies)`;
  return { ok: true, account: best.id, why };
}

/** A lease whose holder is dead may be recovered: same host and pid dead → stale; another host → not (cannot know). */
export function isStale(lease: Lease, facts: { host: string; pidAlive: (pid: number) => boolean }): boolean {
  return lease.host === facts.host && !facts.pidAlive(lease.pid);
}

/**
 * The lease file name for an account: `${account}.json`, with any character outside
 * `[A-Za-z0-9_.-]` (and a leading dot) written as `%HH` bytes, so no id can leave the folder or
 * collide with another.
 */
export function leaseFileName(account: string): string {
  let name = '';
  for (const ch of account) {
    const safe = /^[A-Za-z0-9_-]$/.test(ch) || (ch === '.' && name !== '');
    name += safe ? ch : [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return `${name}.json`;
}

type Check = [name: keyof Lease, ok: (v: unknown) => boolean, expected: string];
const isText = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
const isPositive = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 1;
const CHECKS: Check[] = [
  ['account', isText, 'a non-empty string'],
  ['lane', isText, 'a non-empty string'],
  ['generation', isPositive, 'a whole number ≥ 1'],
  ['pid', isPositive, 'a whole number ≥ 1'],
  ['host', isText, 'a non-empty string'],
  ['acquired_at', isText, 'a non-empty string'],
];

/** Read and validate a lease file's text (JSON; BOM and CRLF tolerated) into a Lease or a reason. */
export function parseLease(text: string): { ok: true; lease: Lease } | { ok: false; reason: string } {
  const decoded = parseJsonObject(text, 'lease');
  if (!decoded.ok) return decoded;
  const o = decoded.value;
  for (const [name, ok, expected] of CHECKS) {
    if (!(name in o)) return { ok: false, reason: `lease is missing "${name}"` };
    if (!ok(o[name])) return { ok: false, reason: `lease "${name}" must be ${expected}, got ${shown(o[name])}` };
  }
  return {
    ok: true,
    lease: {
      account: o.account as string, lane: o.lane as string, generation: o.generation as number,
      pid: o.pid as number, host: o.host as string, acquired_at: o.acquired_at as string,
    },
  };
}
