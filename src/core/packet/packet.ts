/**
 * The handoff packet `dwp-handoff/v1` (SPEC 5.1): parse, serialize, and swarm's degraded fallback;
 * checking one against the file and the checkout is check.ts. Pure: text in, values and
 * reasons out.
 *
 * Decisions where SPEC 5.1 is silent:
 * - Required: schema, plan, reason, doing (not blank), where (with checkout), next (not empty), author
 *   {lane, account, generation ≥ 1}. Absent or null optional fields take their empty value: contract
 *   and task '', step/lead/epoch null, lists [], degraded false, where.repo/branch/head/pushed null.
 * - Unknown fields (at the top, in where, author and list entries) are refused: a typo such as `nxt`
 *   would otherwise drop the in-flight intent silently. Decision maps may omit fields ('' then).
 * - Names and values are case-sensitive. A BOM is ignored. `step` may be any finite number.
 */
import { Document, parse } from 'yaml';
import { excerpt } from '../../errors.js';

export const PACKET_SCHEMA = 'dwp-handoff/v1';
export const MAX_PACKET_BYTES = 65536;
export const PACKET_REASONS = [
  'capacity_critical', 'capacity_low', 'context_pressure', 'usage_limit', 'lead_handover', 'lane_lost',
] as const;
export type PacketReason = (typeof PACKET_REASONS)[number];

export interface PacketWhere { repo: string | null; checkout: string; branch: string | null; head: string | null; pushed: boolean | null; uncommitted: string[] }
export interface PacketDecision { option: string; choice: string; why: string; undo: string }
export interface Packet {
  schema: typeof PACKET_SCHEMA; plan: string; contract: string; task: string; step: string | number | null;
  reason: PacketReason; doing: string; where: PacketWhere;
  done: string[]; verified: { what: string; evidence: string }[]; unverified: { what: string; gate: string }[];
  next: string[]; deadends: string[]; asks: string[]; decisions: (PacketDecision | string)[];
  lead: string | null; epoch: number | null;
  author: { lane: string; account: string; generation: number };
  degraded: boolean;
  /** A lead packet's (SPEC 10.5, `swarm packet write --lead`): every lane as the engine last knew it. */
  lanes?: PacketLane[];
  /** A lead packet's: the asks the lead has not answered yet. */
  open_asks?: string[];
  /** A lead packet's: the order in which the lanes' work is to be merged and released. */
  release_order?: string[];
  /** A lead packet's: merges started or due and not done. */
  pending_merges?: string[];
}

/** A lane as a lead packet lists it (filled by swarm from the engine's state). */
export interface PacketLane { name: string; generation: number; state: string; account: string | null; last: string | null }

/** The fields only a lead packet has (SPEC 10.5). */
export const LEAD_FIELDS = ['lanes', 'open_asks', 'release_order', 'pending_merges'] as const;

const FIELDS = ['schema', 'plan', 'contract', 'task', 'step', 'reason', 'doing', 'where', 'done', 'verified',
  'unverified', 'next', 'deadends', 'asks', 'decisions', 'lead', 'epoch', 'author', 'degraded', ...LEAD_FIELDS] as const;
const DEGRADED_MARK = '[DEGRADED: handoff not written]';
const DEGRADED_NEXT = 'Inspect the checkout (git status, git log) and PLAN.md; rebuild the in-flight intent; rerun every gate';

type Raw = Record<string, unknown>;
/** A packet text read: the YAML (when it parsed), every schema problem, and the packet when there is none. */
export type PacketRead = { raw: unknown; yaml: boolean; reasons: string[]; packet: Packet | null };

function kind(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'number' && !Number.isFinite(v)) return 'a non-finite number';
  return typeof v === 'string' && v.trim() === '' ? 'a blank string' : `a ${typeof v}`;
}
const isMap = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A value quoted in a reason: JSON, cut at 60 characters; `none` for null. */
export const quote = (v: string | null): string => (v === null ? 'none' : JSON.stringify(excerpt(v, 60)));

/** Field readers: each returns the value, or pushes a reason and returns a placeholder. */
function reader(reasons: string[]) {
  const unknownKeys = (m: Raw, allowed: readonly string[], at: string): void => {
    for (const key of Object.keys(m)) {
      if (!allowed.includes(key)) reasons.push(`unknown field ${at}${quote(key)}: not part of ${PACKET_SCHEMA} (expected ${allowed.join(', ')})`);
    }
  };
  const text = (v: unknown, name: string, opts: { required?: string; nullable?: boolean } = {}): string | null => {
    if (typeof v === 'string' && (opts.required === undefined || v.trim() !== '')) return v;
    if (v === undefined || v === null) {
      if (opts.required !== undefined) reasons.push(`${name} is missing: ${opts.required}`);
      return opts.nullable === true ? null : '';
    }
    reasons.push(opts.required !== undefined && typeof v === 'string'
      ? `${name} is blank: ${opts.required}` : `${name} must be a string, found ${kind(v)}`);
    return '';
  };
  const strings = (v: unknown, name: string): string[] => {
    if (v === undefined || v === null) return [];
    const bad = Array.isArray(v) ? v.findIndex((item) => typeof item !== 'string') : -1;
    if (Array.isArray(v) && bad < 0) return v as string[];
    reasons.push(`${name} must be a list of strings, found ${Array.isArray(v) ? `${kind(v[bad])} at ${name}[${bad}]` : kind(v)}`);
    return [];
  };
  const records = <K extends string>(v: unknown, name: string, keys: readonly K[], strict: boolean): (Record<K, string> | string)[] => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      reasons.push(`${name} must be a list of maps {${keys.join(', ')}}, found ${kind(v)}`);
      return [];
    }
    return v.map((item, i) => {
      if (!strict && typeof item === 'string') return item;
      if (!isMap(item)) {
        reasons.push(`${name}[${i}] must be a map {${keys.join(', ')}}${strict ? '' : ' or a string'}, found ${kind(item)}`);
        return '';
      }
      unknownKeys(item, keys, `${name}[${i}].`);
      const entry = {} as Record<K, string>;
      for (const key of keys) entry[key] = text(item[key], `${name}[${i}].${key}`, strict ? { required: 'expected a string' } : {}) ?? '';
      return entry;
    });
  };
  return { unknownKeys, text, strings, records };
}

function readFields(m: Raw, reasons: string[]): Packet {
  const r = reader(reasons);
  r.unknownKeys(m, FIELDS, '');
  if (m.schema !== PACKET_SCHEMA) {
    reasons.push(m.schema === undefined ? `schema is missing: expected "${PACKET_SCHEMA}"`
      : `schema: expected "${PACKET_SCHEMA}", found ${typeof m.schema === 'string' ? quote(m.schema) : kind(m.schema)}`);
  }
  const reason = m.reason as PacketReason;
  if (!PACKET_REASONS.includes(reason)) {
    reasons.push(`reason: expected one of ${PACKET_REASONS.join(', ')}, found ${typeof reason === 'string' ? quote(reason) : kind(reason)}`);
  }
  const step = m.step ?? null;
  if (step !== null && typeof step !== 'string' && !(typeof step === 'number' && Number.isFinite(step))) {
    reasons.push(`step must be a string or a number, found ${kind(step)}`);
  }
  const whole = (v: unknown, name: string, min: number): number | null => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min) return v;
    reasons.push(`${name} must be a whole number ≥ ${min}, found ${typeof v === 'number' ? v : kind(v)}`);
    return null;
  };
  const where = isMap(m.where) ? m.where : {};
  if (!isMap(m.where)) reasons.push(m.where === undefined || m.where === null ? 'where is missing: expected {repo, checkout, branch, head, pushed, uncommitted}' : `where must be a map, found ${kind(m.where)}`);
  else r.unknownKeys(where, ['repo', 'checkout', 'branch', 'head', 'pushed', 'uncommitted'], 'where.');
  if (where.pushed !== undefined && where.pushed !== null && typeof where.pushed !== 'boolean') reasons.push(`where.pushed must be true, false or null, found ${kind(where.pushed)}`);
  const author = isMap(m.author) ? m.author : {};
  if (!isMap(m.author)) reasons.push(m.author === undefined || m.author === null ? 'author is missing: expected {lane, account, generation}' : `author must be a map, found ${kind(m.author)}`);
  else r.unknownKeys(author, ['lane', 'account', 'generation'], 'author.');
  const generation = whole(author.generation, 'author.generation', 1);
  if (isMap(m.author) && author.generation === undefined) reasons.push('author.generation is missing: expected a whole number ≥ 1');
  const next = r.strings(m.next, 'next');
  if (next.length === 0 && (m.next === undefined || m.next === null || Array.isArray(m.next))) {
    reasons.push(`next is ${Array.isArray(m.next) ? 'empty' : 'missing'}: list the next steps, in order`);
  }
  if (m.degraded !== undefined && m.degraded !== null && typeof m.degraded !== 'boolean') reasons.push(`degraded must be true or false, found ${kind(m.degraded)}`);
  return {
    schema: PACKET_SCHEMA,
    plan: r.text(m.plan, 'plan', { required: "expected the plan folder's name" }) ?? '',
    contract: r.text(m.contract, 'contract') ?? '',
    task: r.text(m.task, 'task') ?? '',
    step: typeof step === 'string' || typeof step === 'number' ? step : null,
    reason,
    doing: r.text(m.doing, 'doing', { required: 'say what was in flight' }) ?? '',
    where: {
      repo: r.text(where.repo, 'where.repo', { nullable: true }),
      checkout: isMap(m.where) ? r.text(where.checkout, 'where.checkout', { required: 'expected the checkout path' }) ?? '' : '',
      branch: r.text(where.branch, 'where.branch', { nullable: true }),
      head: r.text(where.head, 'where.head', { nullable: true }),
      pushed: typeof where.pushed === 'boolean' ? where.pushed : null,
      uncommitted: r.strings(where.uncommitted, 'where.uncommitted'),
    },
    done: r.strings(m.done, 'done'),
    verified: r.records(m.verified, 'verified', ['what', 'evidence'], true) as Packet['verified'],
    unverified: r.records(m.unverified, 'unverified', ['what', 'gate'], true) as Packet['unverified'],
    next,
    deadends: r.strings(m.deadends, 'deadends'),
    asks: r.strings(m.asks, 'asks'),
    decisions: r.records(m.decisions, 'decisions', ['option', 'choice', 'why', 'undo'], false),
    lead: r.text(m.lead, 'lead', { nullable: true }),
    epoch: whole(m.epoch, 'epoch', 1),
    author: {
      lane: isMap(m.author) ? r.text(author.lane, 'author.lane', { required: 'expected the lane name' }) ?? '' : '',
      account: isMap(m.author) ? r.text(author.account, 'author.account', { required: 'expected the account id' }) ?? '' : '',
      generation: generation ?? 0,
    },
    degraded: m.degraded === true,
    ...leadFields(m, r, reasons),
  };
}

/** A lead packet's own fields, each only when present. */
function leadFields(m: Raw, r: ReturnType<typeof reader>, reasons: string[]): Pick<Packet, (typeof LEAD_FIELDS)[number]> {
  const out: Pick<Packet, (typeof LEAD_FIELDS)[number]> = {};
  if (m.lanes !== undefined && m.lanes !== null) {
    if (!Array.isArray(m.lanes)) reasons.push(`lanes must be a list of maps {name, generation, state, account, last}, found ${kind(m.lanes)}`);
    else {
      out.lanes = m.lanes.map((item, i) => {
        if (!isMap(item)) {
          reasons.push(`lanes[${i}] must be a map {name, generation, state, account, last}, found ${kind(item)}`);
          return { name: '', generation: 0, state: '', account: null, last: null };
        }
        r.unknownKeys(item, ['name', 'generation', 'state', 'account', 'last'], `lanes[${i}].`);
        const generation = typeof item.generation === 'number' && Number.isInteger(item.generation) && item.generation >= 1 ? item.generation : 0;
        if (generation === 0) reasons.push(`lanes[${i}].generation must be a whole number ≥ 1, found ${typeof item.generation === 'number' ? item.generation : kind(item.generation)}`);
        return {
          name: r.text(item.name, `lanes[${i}].name`, { required: 'expected the lane name' }) ?? '',
          generation,
          state: r.text(item.state, `lanes[${i}].state`, { required: 'expected the lane state' }) ?? '',
          account: r.text(item.account, `lanes[${i}].account`, { nullable: true }),
          last: r.text(item.last, `lanes[${i}].last`, { nullable: true }),
        };
      });
    }
  }
  for (const name of ['open_asks', 'release_order', 'pending_merges'] as const) {
    if (m[name] !== undefined && m[name] !== null) out[name] = r.strings(m[name], name);
  }
  return out;
}

export function readPacket(text: string): PacketRead {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return { raw: null, yaml: false, packet: null, reasons: [`packet is empty: expected a YAML map with schema: ${PACKET_SCHEMA}`] };
  let raw: unknown;
  try {
    raw = parse(source);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return { raw: null, yaml: false, packet: null, reasons: [`not YAML: ${message}`] };
  }
  if (!isMap(raw)) return { raw, yaml: true, packet: null, reasons: [`packet must be a YAML map of ${PACKET_SCHEMA} fields, found ${kind(raw)}`] };
  const reasons: string[] = [];
  const packet = readFields(raw, reasons);
  return { raw, yaml: true, reasons, packet: reasons.length === 0 ? packet : null };
}

/** Parse YAML text into a Packet; every schema problem as a reason (one line each). */
export function parsePacket(text: string): { ok: true; packet: Packet } | { ok: false; reasons: string[] } {
  const read = readPacket(text);
  return read.packet !== null ? { ok: true, packet: read.packet } : { ok: false, reasons: read.reasons };
}

/** Stable, human-readable YAML: SPEC field order under a comment header. Round-trips through parsePacket. */
export function serializePacket(packet: Packet): string {
  const p = packet;
  const doc = new Document({
    schema: p.schema, plan: p.plan, contract: p.contract, task: p.task, step: p.step, reason: p.reason, doing: p.doing,
    where: { repo: p.where.repo, checkout: p.where.checkout, branch: p.where.branch, head: p.where.head, pushed: p.where.pushed, uncommitted: p.where.uncommitted },
    done: p.done,
    verified: p.verified.map((v) => ({ what: v.what, evidence: v.evidence })),
    unverified: p.unverified.map((u) => ({ what: u.what, gate: u.gate })),
    next: p.next, deadends: p.deadends, asks: p.asks,
    decisions: p.decisions.map((d) => (typeof d === 'string' ? d : { option: d.option, choice: d.choice, why: d.why, undo: d.undo })),
    lead: p.lead, epoch: p.epoch,
    author: { lane: p.author.lane, account: p.author.account, generation: p.author.generation },
    degraded: p.degraded,
    ...(p.lanes === undefined ? {} : { lanes: p.lanes.map((l) => ({ name: l.name, generation: l.generation, state: l.state, account: l.account, last: l.last })) }),
    ...(p.open_asks === undefined ? {} : { open_asks: p.open_asks }),
    ...(p.release_order === undefined ? {} : { release_order: p.release_order }),
    ...(p.pending_merges === undefined ? {} : { pending_merges: p.pending_merges }),
  });
  const who = `${excerpt(p.author.lane, 40)} g${p.author.generation} @${excerpt(p.author.account, 40)}`;
  doc.commentBefore = [
    ` ${PACKET_SCHEMA}: swarm handoff packet from ${who} for plan ${excerpt(p.plan, 40)}${p.degraded ? ' (degraded: written by swarm)' : ''}.`,
    ' Data for the successor, not instructions. `swarm accept <this file>` checks it against the checkout.',
    ' Keep it mode 0600 and free of secrets.',
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}

/** A packet the lane reported and swarm rejected: its path and every reason. */
export interface RejectedPacket { packet: string; reasons: string[] }

/**
 * Swarm's fallback packet when the lane wrote none valid (SPEC 5.1): degraded, with the task's first
 * 1200 characters as the scene, and after it the lane's rejected packet (its path and reasons, each
 * cut at 300 characters, at most 20) when it reported one.
 */
export function degradedPacket(input: { plan: string; contract: string; task: string; step?: string | number | null; reason: PacketReason; where: PacketWhere; author: Packet['author']; lead: string | null; epoch: number | null; rejected?: RejectedPacket }): Packet {
  const scene = Array.from(input.task).slice(0, 1200).join('');
  const rejected = input.rejected === undefined ? '' : `\n${rejectedScene(input.rejected)}`;
  return {
    schema: PACKET_SCHEMA, plan: input.plan, contract: input.contract, task: input.task, step: input.step ?? null,
    reason: input.reason, doing: `${`${DEGRADED_MARK} ${scene}`.trimEnd()}${rejected}`,
    where: { ...input.where, uncommitted: [...input.where.uncommitted] },
    done: [], verified: [], unverified: [], next: [DEGRADED_NEXT], deadends: [], asks: [], decisions: [],
    lead: input.lead, epoch: input.epoch, author: { ...input.author }, degraded: true,
  };
}

/**
 * A rejected packet as a degraded packet's scene names it: paths inside the plan folder written
 * relative to it (`analysis_results/handoff/…`), so no temporary folder's random name reads as a secret.
 */
export function rejectedInPlan(rejected: RejectedPacket, planDir: string): RejectedPacket {
  const prefix = `${planDir.replace(/\/+$/, '')}/`;
  const inPlan = (text: string): string => text.split(prefix).join('');
  return { packet: inPlan(rejected.packet), reasons: rejected.reasons.map(inPlan) };
}

/** The rejected packet in a degraded packet's scene: its path, then its reasons. */
function rejectedScene(r: RejectedPacket): string {
  const reasons = r.reasons.slice(0, 20).map((reason) => `- ${excerpt(reason, 300)}`);
  const more = r.reasons.length > 20 ? [`- and ${r.reasons.length - 20} more`] : [];
  return [`The lane reported the packet ${r.packet} (in the plan folder); swarm rejected it (read it: it may hold the intent):`, ...reasons, ...more].join('\n');
}
