/**
 * Account leases and the successor's account (SPEC 5, 4.4): which pool account a lane may take next,
 * and when a lease left by a dead holder may be recovered. Pure: leases, readings and `now` come in.
 */
import type { Account } from '../config/config.js';
import type { CapacityState } from '../protocol/protocol.js';
import { parseJsonObject, shown } from '../lead/epochs.js';

/**
 * A lease (SPEC 10.4): the account (its id in the holder's swarm.yaml), the lane and generation it
 * serves, and its holder: the engine process (`pid`, `start`) and, once its pane is there, the agent
 * process. `key` is the machine-wide account it holds (core/accounts/leaseKey.ts); `plan` and
 * `config` say whose swarm holds it. A lease of an older swarm has no key, plan, start or agent.
 */
export interface Lease {
  account: string; lane: string; generation: number; pid: number; host: string; acquired_at: string;
  key?: string; plan?: string; config?: string;
  /** The engine's start time (clock ticks since boot); null where unknown. */
  start?: number | null;
  agent?: { pid: number; start: number | null } | null;
}
export interface Reading { state: CapacityState; remainingPct: number | null; resetsAt: string | null /* ISO */ }
/** `heldElsewhere`: an account the pick refused is held by another swarm, so waiting for it may pay (`waiting_for_account`). */
export type PickResult = { ok: true; account: string; why: string } | { ok: false; resetsAt: string | null; why: string; heldElsewhere?: boolean };

export interface PickInput {
  pool: readonly Account[];
  leases: readonly Lease[];
  /** This swarm's plan folder (real path): a lease naming another plan is another swarm's. */
  plan?: string;
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
  const held = input.leases.find((lease) => lease.account === account.id);
  if (held !== undefined) return heldBy(held, input.plan);
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
const ELSEWHERE = 'held by another swarm';

/** `leased` (by this swarm), or which other swarm's lane holds it (SPEC 10.4). */
function heldBy(lease: Lease, plan: string | undefined): string {
  if (plan === undefined || lease.plan === undefined || lease.plan === plan) return 'leased';
  return `${ELSEWHERE} (plan ${lease.plan}, ${lease.lane} g${lease.generation})`;
}

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

/**
 * Lower ranks first: known ok (most remaining first), then unknown, then low: the one whose reset
 * comes first (SPEC 10.4: it is the first to be whole again), an unknown reset after a known one, then
 * most remaining.
 */
function rank(reading: Reading | undefined): [number, number, number] {
  const left = reading?.remainingPct ?? -1;
  if (reading?.state === 'ok') return [0, 0, -left];
  if (reading?.state === 'low') {
    const reset = reading.resetsAt === null ? Number.NaN : Date.parse(reading.resetsAt);
    return [2, Number.isFinite(reset) ? reset : Number.MAX_VALUE, -left];
  }
  return [1, 0, 0];
}

function describe(reading: Reading | undefined): string {
  if (reading === undefined || reading.state === 'unknown') return 'capacity unknown';
  const said = reading.remainingPct === null ? reading.state : `${reading.state}, ${reading.remainingPct}% left`;
  return reading.state === 'low' && reading.resetsAt !== null ? `${said}, resets ${reading.resetsAt}` : said;
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
    const heldElsewhere = refused.some((why) => why.includes(` ${ELSEWHERE} `));
    return { ok: false, resetsAt, why: `no account has headroom (${list})`, ...(heldElsewhere ? { heldElsewhere } : {}) };
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
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || a.order - b.order);
  const best = ranked[0]!.account;
  let why = `${best.id}: ${describe(input.readings.get(best.id))}`;
  if (roomy.length === 0) why += ' (every eligible account is low)';
  if (avoid !== null) why += other.length > 0 ? `, another vendor than ${avoid}` : `, same vendor ${avoid} (no other qualifies)`;
  return { ok: true, account: best.id, why };
}

export interface HolderFacts {
  host: string;
  /** Whether that process runs now: its pid alive and, where its start time is known, still that process. */
  alive: (process: { pid: number; start: number | null }) => boolean;
  /** For a lease that names no agent yet (its engine died between the spawn and the record): whether a process with the lease's identity (plan, lane, generation) runs. */
  agentByIdentity?: (lease: Lease) => boolean;
}

/**
 * Who keeps a lease held (SPEC 10.4), or null when it is free: its engine while it runs, else its
 * agent while that runs (agents outlive engines, SPEC 9); a lease of another host is held (nothing
 * here can tell). An agent not yet named in the lease is looked for by its identity.
 */
export function leaseHolder(lease: Lease, facts: HolderFacts): 'engine' | 'agent' | 'another host' | null {
  if (lease.host !== facts.host) return 'another host';
  if (facts.alive({ pid: lease.pid, start: lease.start ?? null })) return 'engine';
  const agent = lease.agent ?? null;
  if (agent !== null) return facts.alive(agent) ? 'agent' : null;
  return facts.agentByIdentity?.(lease) === true ? 'agent' : null;
}

/** A lease whose holder is dead may be recovered (leaseHolder: neither its engine nor its agent runs). */
export function isStale(lease: Lease, facts: HolderFacts): boolean {
  return leaseHolder(lease, facts) === null;
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
const isTicks = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

/** A lease's `agent`: null, or a process; undefined when it is neither. */
function processOf(v: unknown): { pid: number; start: number | null } | null | undefined {
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) return undefined;
  const { pid, start } = v as Record<string, unknown>;
  if (!isPositive(pid) || (start !== null && !isTicks(start))) return undefined;
  return { pid: pid as number, start: start as number | null };
}
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
  const lease: Lease = {
    account: o.account as string, lane: o.lane as string, generation: o.generation as number,
    pid: o.pid as number, host: o.host as string, acquired_at: o.acquired_at as string,
  };
  for (const name of ['key', 'plan', 'config'] as const) {
    if (!(name in o)) continue;
    if (!isText(o[name])) return { ok: false, reason: `lease "${name}" must be a non-empty string, got ${shown(o[name])}` };
    lease[name] = o[name] as string;
  }
  if ('start' in o) {
    if (o.start !== null && !isTicks(o.start)) return { ok: false, reason: `lease "start" must be a whole number ≥ 0 or null, got ${shown(o.start)}` };
    lease.start = o.start as number | null;
  }
  if ('agent' in o) {
    const agent = processOf(o.agent);
    if (agent === undefined) return { ok: false, reason: `lease "agent" must be null or { "pid": a whole number ≥ 1, "start": a whole number ≥ 0 or null }, got ${shown(o.agent)}` };
    lease.agent = agent;
  }
  return { ok: true, lease };
}
