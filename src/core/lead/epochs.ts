/**
 * The lead record (SPEC 6): who leads a plan, at which epoch, and who succeeds. Pure: every
 * function takes the record as read (and `now`) and returns the record to write or a refusal;
 * the adapter writes it only if the revision it read is still current (compare-and-swap).
 */
import { excerpt } from '../../errors.js';

export interface LeadRecord {
  plan: string;
  lead: string | null;
  epoch: number;
  succession: string[];
  lanes: string[];
  revision: number;
  updated_at: string;
  released: boolean;
  /** The lead's account when known. */
  account?: string | null;
  /** The lane whose agent leads, promoted in place (SPEC 10.5), and its generation; absent (or null) otherwise. */
  promoted_from?: { lane: string; generation: number } | null;
}

export type LeadRefusal = 'revision' | 'fenced' | 'held' | 'released' | 'unknown_successor' | 'no_record';

export type LeadOutcome =
  | { ok: true; record: LeadRecord }
  | { ok: false; code: LeadRefusal; message: string };

const refuse = (code: LeadRefusal, message: string): LeadOutcome => ({ ok: false, code, message });

/** The next revision of `current`: every change bumps the revision and stamps the time. */
function next(current: LeadRecord, changes: Partial<LeadRecord>, now: string): LeadOutcome {
  return { ok: true, record: { ...current, ...changes, revision: current.revision + 1, updated_at: now } };
}

const noRecord = (what: string): LeadOutcome =>
  refuse('no_record', `no lead record yet, so there is nothing to ${what}; swarm up claims it before any lane starts`);

const releasedRefusal = (r: LeadRecord, what: string): LeadOutcome =>
  refuse('released', `the lead record of plan ${r.plan} is released (last ${r.lead ?? 'nobody'}@${r.epoch}); there is nothing to ${what}: claim it anew`);

/**
 * First claim → epoch 1, revision 1. A record that exists and is not released: a claim by the same
 * lead keeps its epoch (re-adopting; succession and account are refreshed); a claim by another →
 * 'held' naming the holder and epoch. A released (or vacant) record may be claimed anew with
 * epoch + 1 and no lanes.
 */
export function claim(
  current: LeadRecord | null,
  input: { plan: string; lead: string; account?: string | null; succession: string[]; now: string },
): LeadOutcome {
  const account = input.account ?? null;
  if (current === null) {
    return {
      ok: true,
      record: {
        plan: input.plan, lead: input.lead, epoch: 1, succession: [...input.succession], lanes: [],
        revision: 1, updated_at: input.now, released: false, account,
      },
    };
  }
  if (current.released || current.lead === null) {
    return next(current, {
      plan: input.plan, lead: input.lead, epoch: current.epoch + 1, succession: [...input.succession],
      lanes: [], released: false, account,
    }, input.now);
  }
  if (current.lead === input.lead) {
    const kept = input.account === undefined ? {} : { account };
    return next(current, { succession: [...input.succession], ...kept }, input.now);
  }
  return refuse('held', `plan ${current.plan} is led by ${current.lead}@${current.epoch}; ${input.lead} cannot claim it ` +
    `until that lead releases or hands over (or a succession entry takes over)`);
}

/** The lead records a lane as it starts (idempotent: a lane already recorded changes nothing). */
export function recordLane(current: LeadRecord, lane: string, now: string): LeadRecord {
  if (current.lanes.includes(lane)) return current;
  return { ...current, lanes: [...current.lanes, lane], revision: current.revision + 1, updated_at: now };
}

/** The record after `to` becomes lead: epoch + 1, `to` leaves the succession (it cannot succeed itself). */
function promote(current: LeadRecord, to: string, account: string | null, now: string): LeadOutcome {
  const { promoted_from: _promoted, ...held } = current; // a lane promoted in place leads no more
  return next(held, {
    lead: to, epoch: current.epoch + 1, account, succession: current.succession.filter((name) => name !== to),
  }, now);
}

/**
 * Planned handover: the caller must be the lead at the current epoch; epoch + 1, lead = `to`.
 * `to` must be a succession entry or a recorded lane, and not the lead itself.
 */
export function handover(
  current: LeadRecord | null,
  input: { caller: string; epoch: number; to: string; now: string; account?: string | null },
): LeadOutcome {
  if (current === null) return noRecord('hand over');
  if (current.released) return releasedRefusal(current, 'hand over');
  const fenced = fence(current, input);
  if (!fenced.ok) return fenced;
  if (input.to === current.lead || !(current.succession.includes(input.to) || current.lanes.includes(input.to))) {
    return refuse('unknown_successor', `${input.to || '(empty)'} cannot take over plan ${current.plan}: hand over to a ` +
      `succession entry or a lane (${[...new Set([...current.succession, ...current.lanes])].join(', ') || 'none recorded'})`);
  }
  return promote(current, input.to, input.account ?? null, input.now);
}

/**
 * Unplanned takeover: `by` becomes lead with epoch + 1. Allowed when `by` is in the succession (or
 * `force`: the engine acting for a new lead). The caller's believed epoch must equal the current
 * epoch, else it acts on stale knowledge → 'fenced'.
 */
export function takeover(
  current: LeadRecord | null,
  input: { by: string; epoch: number; now: string; force?: boolean; account?: string | null },
): LeadOutcome {
  if (current === null) return noRecord('take over');
  if (current.released) return releasedRefusal(current, 'take over');
  if (input.force !== true && !current.succession.includes(input.by)) {
    return refuse('unknown_successor', `${input.by || '(empty)'} is not in the succession of plan ${current.plan} ` +
      `(${current.succession.join(', ') || 'empty'}); only a succession entry may take over`);
  }
  if (input.epoch !== current.epoch) {
    return refuse('fenced', `${input.by} believes plan ${current.plan} is at epoch ${input.epoch} but it is at ` +
      `${current.lead ?? 'nobody'}@${current.epoch}; read lead.json again before taking over`);
  }
  return promote(current, input.by, input.account ?? null, input.now);
}

/** What the engine last recorded of the lead (`.swarm/state.json`); null when no engine ever ran. */
export interface LeadHealth {
  /** The name the lead goes by, and its lane's state (`lost` once its pane died or it stopped answering). */
  lead: string;
  state: string;
  /** Its account, and whether the engine marked that account limited. */
  account: string | null;
  limited: boolean;
  /** Asks to the lead that timed out in a row. */
  askTimeouts: number;
}

/** Two asks unanswered make a lead unreachable (SPEC 6). */
export const ASK_TIMEOUTS_FOR_TAKEOVER = 2;

/**
 * May a succession entry take the lead now (SPEC 6 "Takeover")? Only from a lead the engine recorded
 * dead (lane lost), limited (its account marked limited) or unreachable (two asks timed out). No
 * record of the lead's health at all (no engine ever ran, or the file is gone) is no ground either:
 * fail closed, since deleting a file must not unlock a takeover; the developer can `swarm down` and
 * claim anew. A refusal is 'fenced'.
 */
export function mayTakeOver(health: LeadHealth | null): { ok: true; why: string } | { ok: false; code: 'fenced'; message: string } {
  if (health === null) {
    return { ok: false, code: 'fenced', message: 'no engine has recorded how the lead is (no .swarm/state.json); a takeover is for a lead the engine recorded dead, limited or unreachable' };
  }
  if (health.state === 'lost') return { ok: true, why: `lead ${health.lead} is lost` };
  if (health.limited) return { ok: true, why: `lead ${health.lead}'s account ${health.account ?? '?'} is limited` };
  if (health.askTimeouts >= ASK_TIMEOUTS_FOR_TAKEOVER) return { ok: true, why: `${health.askTimeouts} asks to lead ${health.lead} timed out` };
  return {
    ok: false,
    code: 'fenced',
    message: `lead ${health.lead} is ${health.state} as the engine last recorded it (not lost, account not limited, ` +
      `${health.askTimeouts} ask(s) timed out); a takeover is for a lead that is dead, limited or unreachable`,
  };
}

/** The current lead ends the record (released: true); epoch-checked. */
export function release(current: LeadRecord | null, input: { caller: string; epoch: number; now: string }): LeadOutcome {
  if (current === null) return noRecord('release');
  if (current.released) return releasedRefusal(current, 'release');
  const fenced = fence(current, input);
  return fenced.ok ? next(current, { released: true }, input.now) : fenced;
}

/**
 * Fencing decision for a lead command or notice: ok only when the caller is the record's lead at the
 * record's epoch and the record is not released. Otherwise 'fenced', naming the current lead@epoch
 * and the caller's. No record → 'no_record'.
 */
export function fence(current: LeadRecord | null, input: { caller: string; epoch: number }): LeadOutcome {
  if (current === null) return noRecord('act on');
  const who = `${input.caller}@${input.epoch}`;
  const lead = `${current.lead ?? 'nobody'}@${current.epoch}`;
  if (current.released) {
    return refuse('fenced', `${who} cannot act as lead: the lead record of plan ${current.plan} is released (last ${lead}); claim it anew first`);
  }
  if (current.lead !== input.caller) {
    return refuse('fenced', `${who} is not the lead of plan ${current.plan} (lead is ${lead}); only the current lead acts as lead, ` +
      `and a returning lead that sees a higher epoch stands down`);
  }
  if (current.epoch !== input.epoch) {
    return refuse('fenced', `${who} does not carry the current epoch of plan ${current.plan} (lead is ${lead}); ` +
      `a lead command or notice must carry the current epoch (SWARM_EPOCH or --epoch ${current.epoch})`);
  }
  return { ok: true, record: current };
}

/**
 * Compare-and-swap: apply `next` only if `current.revision === expectedRevision` (a null current
 * counts as revision 0); the result has revision expectedRevision + 1 and updated_at = now.
 */
export function compareAndSwap(current: LeadRecord | null, expectedRevision: number, nextRecord: LeadRecord, now: string): LeadOutcome {
  const actual = current?.revision ?? 0;
  if (actual !== expectedRevision) {
    return refuse('revision', `lead.json of plan ${nextRecord.plan} changed meanwhile (revision ${actual}, expected ` +
      `${expectedRevision}); read it again and retry`);
  }
  return { ok: true, record: { ...nextRecord, revision: expectedRevision + 1, updated_at: now } };
}

/**
 * Two claimants acting as lead: the higher epoch wins; on a tie the one earlier in succession wins
 * (the record's lead before any succession entry; unknown names last; between two unknown names the
 * alphabetically first, so the answer does not depend on argument order). Returns the winner's name.
 */
export function winner(a: { name: string; epoch: number }, b: { name: string; epoch: number }, succession: string[], recordLead: string | null): string {
  if (a.epoch !== b.epoch) return a.epoch > b.epoch ? a.name : b.name;
  const rank = (name: string): number => {
    if (name === recordLead) return -1;
    const at = succession.indexOf(name);
    return at === -1 ? Number.POSITIVE_INFINITY : at;
  };
  const ra = rank(a.name);
  const rb = rank(b.name);
  if (ra !== rb) return ra < rb ? a.name : b.name;
  return a.name <= b.name ? a.name : b.name;
}

/** The first succession entry, other than the current lead, that is reachable; or null. */
export function nextInSuccession(record: LeadRecord, reachable: (name: string) => boolean): string | null {
  return record.succession.find((name) => name !== record.lead && reachable(name)) ?? null;
}

type Field = [name: keyof LeadRecord, ok: (v: unknown) => boolean, expected: string];
const isName = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isNames = (v: unknown): boolean => Array.isArray(v) && v.every(isName);
const FIELDS: Field[] = [
  ['plan', isName, 'a non-empty string'],
  ['lead', (v) => v === null || isName(v), 'a name or null'],
  ['epoch', isCount, 'a whole number ≥ 0'],
  ['succession', isNames, 'a list of names'],
  ['lanes', isNames, 'a list of names'],
  ['revision', isCount, 'a whole number ≥ 0'],
  ['updated_at', (v) => typeof v === 'string', 'a string'],
];

/** Decode a JSON file's text (BOM and CRLF tolerated) into an object, or a reason. */
export function parseJsonObject(text: string, what: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { ok: false, reason: `${what} is empty` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: `${what} is not JSON: ${excerpt(printable(body), 60)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `${what} must be a JSON object, got ${excerpt(printable(body), 60)}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** A received value as it may appear in a message: JSON, cut short, control characters removed. */
export function shown(value: unknown): string {
  const text = printable(JSON.stringify(value) ?? String(value));
  return text.length <= 40 ? text : `${text.slice(0, 39)}…`;
}

/** Control characters (ANSI escapes included) out of received text before it enters a message. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\x00-\x1f\x7f]/g, ' ');
}

/** Read and validate a lead.json text (JSON) into a LeadRecord or a reason. `released` defaults to false. */
export function parseLeadRecord(text: string): { ok: true; record: LeadRecord } | { ok: false; reason: string } {
  const decoded = parseJsonObject(text, 'lead.json');
  if (!decoded.ok) return decoded;
  const o = decoded.value;
  for (const [name, ok, expected] of FIELDS) {
    if (!(name in o)) return { ok: false, reason: `lead.json is missing "${name}"` };
    if (!ok(o[name])) return { ok: false, reason: `lead.json "${name}" must be ${expected}, got ${shown(o[name])}` };
  }
  if ('released' in o && typeof o.released !== 'boolean') {
    return { ok: false, reason: `lead.json "released" must be true or false, got ${shown(o.released)}` };
  }
  if ('account' in o && o.account !== null && !isName(o.account)) {
    return { ok: false, reason: `lead.json "account" must be a name or null, got ${shown(o.account)}` };
  }
  const record: LeadRecord = {
    plan: o.plan as string, lead: o.lead as string | null, epoch: o.epoch as number,
    succession: [...(o.succession as string[])], lanes: [...(o.lanes as string[])],
    revision: o.revision as number, updated_at: o.updated_at as string, released: o.released === true,
  };
  if ('account' in o) record.account = o.account as string | null;
  if ('promoted_from' in o && o.promoted_from !== null) {
    const p = o.promoted_from as Record<string, unknown> | undefined;
    if (typeof p !== 'object' || p === null || !isName(p.lane) || !Number.isSafeInteger(p.generation) || (p.generation as number) < 1) {
      return { ok: false, reason: `lead.json "promoted_from" must be {lane, generation} or null, got ${shown(o.promoted_from)}` };
    }
    record.promoted_from = { lane: p.lane as string, generation: p.generation as number };
  }
  return { ok: true, record };
}
