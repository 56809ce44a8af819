/**
 * What `swarm report` reads (SPEC 7), with no engine running: the journal, the inbox (capacity checks
 * and reports), lead.json and the packets the journal names. Reads only; a file that is missing or
 * unreadable as data is left out (the report shows what the record holds), never repaired.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseInboxChunk } from '../core/protocol/inbox.js';
import { packetField } from '../core/packet/field.js';
import { MAX_PACKET_BYTES } from '../core/packet/packet.js';
import { planPaths } from '../core/plan/paths.js';
import type { ReportInput } from '../core/report/facts.js';
import { readJournal } from './journal.js';
import { readTextIfExists } from './files.js';

export function readReportInput(plan: string, shown: string, pool: Pick<ReportInput, 'vendors' | 'thresholds'>): ReportInput {
  const paths = planPaths(plan);
  const journal = readJournal(plan);
  const inboxText = readTextIfExists(paths.inbox) ?? '';
  const inbox = parseInboxChunk(new TextEncoder().encode(inboxText.endsWith('\n') ? inboxText : `${inboxText}\n`)).records;
  const packets = new Map<string, { doing: string | null }>();
  for (const e of journal) {
    if (typeof e.packet !== 'string' || packets.has(e.packet)) continue;
    // By name in this plan's handoff folder: a plan folder that was moved still finds its packets,
    // and nothing outside that folder is read.
    const text = readSmallFile(join(paths.handoffDir, basename(e.packet)));
    packets.set(e.packet, { doing: text ? packetField(text, 'doing') : null });
  }
  return { plan: shown, journal, inbox, lead: leadRecord(readTextIfExists(paths.leadRecord)), packets, ...pool };
}

function leadRecord(text: string | null): ReportInput['lead'] {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as ReportInput['lead']) : null;
  } catch {
    return null;
  }
}

/** A plain file (no symlink, no folder) of at most a packet's size, else null. */
function readSmallFile(path: string): string | null {
  try {
    const stat = lstatSync(path);
    return stat.isFile() && stat.size <= MAX_PACKET_BYTES ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}
