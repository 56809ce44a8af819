/**
 * What `swarm report` reads (SPEC 7), with no engine running: the journal, the agents' spools (capacity
 * checks and reports, each as its spool attributes it), lead.json and the packets the journal names. Reads only; a file that is missing or
 * unreadable as data is left out (the report shows what the record holds), never repaired.
 */
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { attributed } from '../core/authority/agents.js';
import { readAllSpools } from './spool.js';
import { packetField } from '../core/packet/field.js';
import { MAX_PACKET_BYTES } from '../core/packet/packet.js';
import { planPaths, runFolder } from '../core/plan/paths.js';
import { workSince } from './git.js';
import type { ReportInput } from '../core/report/facts.js';
import { readJournal } from './journal.js';
import { readTextIfExists } from './files.js';

export function readReportInput(plan: string, shown: string, pool: Pick<ReportInput, 'vendors' | 'thresholds'>): ReportInput {
  const paths = planPaths(plan);
  const journal = readJournal(plan);
  const inbox = readAllSpools(plan, attributed);
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

/**
 * What the report shows of a run beyond the journal: each lane's checkout since the run began (the
 * heads `run_started` recorded) and the pane logs saved for the run (`.swarm/logs/run-<n>/`).
 */
export function runExtras(plan: string, run: number | null, heads: Readonly<Record<string, unknown>>, checkouts: ReadonlyMap<string, string>): Pick<ReportInput, 'checkouts' | 'logs'> {
  const work = new Map<string, { branch: string | null; commits: number | null; files: string[] | null }>();
  for (const [lane, checkout] of checkouts) {
    const head = heads[lane];
    work.set(lane, workSince(checkout, typeof head === 'string' ? head : null));
  }
  const logs = new Map<string, Array<{ generation: number; path: string }>>();
  if (run !== null) {
    const folder = runFolder(planPaths(plan).logsDir, run);
    let names: string[] = [];
    try {
      names = readdirSync(folder).sort();
    } catch {
      // no log saved for this run
    }
    for (const name of names) {
      const m = /^(.+)-g(\d+)\.log$/.exec(name);
      if (!m) continue;
      const list = logs.get(m[1]!) ?? [];
      list.push({ generation: Number(m[2]), path: relative(plan, join(folder, name)) });
      logs.set(m[1]!, list.sort((a, b) => a.generation - b.generation));
    }
  }
  return { checkouts: work, logs };
}
