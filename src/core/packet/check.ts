/**
 * Is this packet the one to accept (SPEC 5.1)? Every reason it is refused: the file's facts, its
 * schema, plan and lane, the checkout it describes, secrets; and who alone may accept it. Pure:
 * facts gathered by the caller in, reasons out.
 *
 * Decisions where SPEC 5.1 is silent:
 * - Heads compare exactly; uncommitted paths compare as sets after dropping a leading `./`. The
 *   caller leaves out the plan's own `.swarm/` and `analysis_results/` (SPEC 5.1).
 * - A missing file is the only reason given for it. Secrets are looked for in whatever YAML parsed,
 *   even when the schema is wrong (in the raw text when it is not YAML).
 */
import { MAX_PACKET_BYTES, type Packet, quote, readPacket } from './packet.js';
import { findSecrets } from './secrets.js';

/** Facts about the packet file, gathered by the caller (lstat etc.). */
export interface PacketFile { path: string; insideHandoffDir: boolean; isSymlink: boolean; mode: number; size: number; exists: boolean }
/** What the checkout and plan look like now. */
export interface PacketExpectations { plan: string; lane: string; contract: string; branch: string | null; head: string | null; uncommitted: string[] }

const normalPath = (path: string): string => path.replace(/^(?:\.\/)+/, '');
function listPaths(paths: string[]): string {
  return paths.length <= 10 ? paths.join(', ') : `${paths.slice(0, 10).join(', ')} and ${paths.length - 10} more`;
}

function planMismatch(packet: Packet, plan: string): string[] {
  return packet.plan === plan ? [] : [`plan: expected ${quote(plan)}, found ${quote(packet.plan)} (a packet for another plan)`];
}

function contractAndWhereMismatches(packet: Packet, expect: Omit<PacketExpectations, 'lane' | 'plan'>): string[] {
  const reasons: string[] = [];
  if (packet.contract !== expect.contract) reasons.push(`contract: expected ${quote(expect.contract)} (PLAN.md's current contract), found ${quote(packet.contract)}`);
  if (packet.where.branch !== expect.branch) reasons.push(`where.branch: expected ${quote(expect.branch)} (the checkout), found ${quote(packet.where.branch)}`);
  if (packet.where.head !== expect.head) reasons.push(`where.head: expected ${quote(expect.head)} (the checkout), found ${quote(packet.where.head)}`);
  const inPacket = new Set(packet.where.uncommitted.map(normalPath));
  const inCheckout = new Set(expect.uncommitted.map(normalPath));
  const missing = [...inCheckout].filter((path) => !inPacket.has(path)).sort();
  const extra = [...inPacket].filter((path) => !inCheckout.has(path)).sort();
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      ...(missing.length > 0 ? [`missing ${listPaths(missing)} (uncommitted in the checkout, not in the packet)`] : []),
      ...(extra.length > 0 ? [`extra ${listPaths(extra)} (in the packet, not uncommitted in the checkout)`] : []),
    ];
    reasons.push(`where.uncommitted differs from the checkout: ${parts.join('; ')}`);
  }
  return reasons;
}

/** Every reason the packet is refused (SPEC 5.1), [] when it is good: file facts, schema, plan and lane, checkout, secrets. */
export function validatePacket(text: string, file: PacketFile, expect: PacketExpectations, env: Readonly<Record<string, string | undefined>>): string[] {
  if (!file.exists) return [`packet not found: ${file.path}`];
  const reasons: string[] = [];
  if (!file.insideHandoffDir) reasons.push(`packet is outside the plan's analysis_results/handoff/: ${file.path}`);
  if (file.isSymlink) reasons.push(`packet is a symlink, expected a regular file: ${file.path}`);
  const mode = file.mode & 0o777;
  if (mode !== 0o600) reasons.push(`packet mode is 0${mode.toString(8).padStart(3, '0')}, expected 0600: run chmod 600 ${file.path}`);
  const size = Math.max(file.size, new TextEncoder().encode(text).length);
  if (size > MAX_PACKET_BYTES) reasons.push(`packet is ${size} bytes, expected at most ${MAX_PACKET_BYTES} (64 KiB)`);
  // A file too big to read was left unread: its size is the reason, not the empty text.
  if (size > MAX_PACKET_BYTES && text === '') return reasons;
  const read = readPacket(text);
  reasons.push(...read.reasons);
  if (read.packet !== null) {
    const { packet } = read;
    reasons.push(...planMismatch(packet, expect.plan));
    if (packet.author.lane !== expect.lane) reasons.push(`lane: expected ${quote(expect.lane)}, found ${quote(packet.author.lane)} in author.lane (a packet from another lane)`);
    reasons.push(...contractAndWhereMismatches(packet, expect));
  }
  reasons.push(...findSecrets(read.yaml ? read.raw : text, env));
  return reasons;
}

/** Who runs `swarm accept`: its SWARM_LANE, SWARM_ROLE and SWARM_GENERATION. */
export interface PacketCaller { lane: string; role: 'lead' | 'lane'; generation: number }

/**
 * Only the packet's successor may accept it: the author's lane at the author's generation + 1. A
 * lead packet (written by the lead: `lead` names its author) goes to the successor lead, which goes
 * by another name: the one the lead record names now (the handover or takeover moved it there).
 * `recordLead` is lead.json's `lead` (null when there is no record).
 */
export function successorMismatches(packet: Packet, caller: PacketCaller, recordLead: string | null): string[] {
  const { author } = packet;
  const from = `${author.lane} g${author.generation}`;
  const you = `you are ${caller.lane} g${caller.generation}`;
  if (packet.lead !== null && packet.lead === author.lane) {
    const heir = `the successor lead lead.json names (${recordLead ?? 'none'}) at g${author.generation + 1}`;
    if (caller.role !== 'lead' || caller.lane !== recordLead || caller.generation !== author.generation + 1) {
      return [`author: the packet is a lead packet from ${from}; only ${heir} may accept it; ${you}${caller.role === 'lead' ? '' : ' (a lane)'}`];
    }
    return [];
  }
  if (caller.role !== 'lane' || caller.lane !== author.lane || caller.generation !== author.generation + 1) {
    return [`author: the packet is from ${from}; only ${author.lane} g${author.generation + 1} (its successor) may accept it; ${you}${caller.role === 'lead' ? ' (the lead)' : ''}`];
  }
  return [];
}
