/**
 * Agents' spools (SPEC 10.3): each agent appends its records to `.swarm/spool/<spool>/records.jsonl`
 * (its own folder alone); the engine reads every spool of the run from a saved offset, and whatever a
 * record says of its sender, the spool it lies in says who wrote it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { inboxLine, parseInboxChunk, type InboxChunk, type InboxRecord, type InboxTail } from '../core/protocol/inbox.js';
import type { AgentRecord } from '../core/authority/agents.js';
import type { RunMessage } from '../core/swarm/askLimits.js';
import { appendLine, readFrom } from './files.js';
import { recordedAgents } from './agentRegistry.js';

export function spoolFile(plan: string, spool: string): string {
  return join(planPaths(plan).spoolDir, spool, 'records.jsonl');
}

export function appendSpool(plan: string, spool: string, record: InboxRecord): void {
  appendLine(spoolFile(plan, spool), inboxLine(record));
}

/**
 * An agent's usage records (SPEC 10.7's ledger): `usage/usage.jsonl` in its own folder (a sandboxed
 * agent writes nowhere else), a folder down, so its writes wake no watch of the spool folder. They
 * come after every reply: the engine looks every few seconds (runtime/usageLook.ts), and the report
 * reads them with the records.
 */
export function usageFile(plan: string, spool: string): string {
  return join(planPaths(plan).spoolDir, spool, USAGE_DIR, 'usage.jsonl');
}

/** The folder of an agent's usage file, in its spool folder. */
export const USAGE_DIR = 'usage';

export function appendUsage(plan: string, spool: string, record: Extract<InboxRecord, { kind: 'usage' }>): void {
  appendLine(usageFile(plan, spool), inboxLine(record));
}

/** An agent's usage records in `file` (its usageFile) from `offset`: whole lines only (a last line without its newline waits for the next look). */
export function readUsage(file: string, offset: number): InboxChunk & { offset: number } {
  const chunk = parseInboxChunk(readFrom(file, offset), { from: offset });
  return { ...chunk, offset: offset + chunk.consumed };
}

/** The size of an agent's usage file (its usageFile) now; null when it has none. */
export function usageSize(file: string): number | null {
  return sizeOf(file);
}

/** The spools of a run that have records (`r<run>/<name>-g<N>`), in name order. */
export function runSpools(plan: string, run: number): string[] {
  const dir = join(planPaths(plan).spoolDir, `r${run}`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().map((name) => `r${run}/${name}`);
}

/** Records of one spool from `offset` (adapters/inbox.ts's rules for a last line without its newline). */
export function readSpool(plan: string, spool: string, offset: number, torn: { seen?: InboxTail | null; now?: number } = {}): InboxChunk & { offset: number } {
  const chunk = parseInboxChunk(readFrom(spoolFile(plan, spool), offset), { ...torn, from: offset });
  return { ...chunk, offset: offset + chunk.consumed };
}

/** A spool's size now; null when it has no records file yet. */
export function spoolSize(plan: string, spool: string): number | null {
  return sizeOf(spoolFile(plan, spool));
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** Every spool's size now: where a reader starts to see only what comes next. */
export function spoolSizes(plan: string, run: number): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const spool of runSpools(plan, run)) {
    const size = spoolSize(plan, spool);
    if (size !== null) sizes[spool] = size; // else a spool folder with no records yet
  }
  return sizes;
}

/**
 * Every record of every run's spools that swarm gave an agent (its usage records included), each as its
 * spool says (`attribute`: the sender stamped from the agent record), for readers with no engine (the report).
 */
export function readAllSpools(plan: string, attribute: (record: InboxRecord, agent: AgentRecord) => InboxRecord): InboxRecord[] {
  const agents = new Map(recordedAgents(plan).map((agent) => [agent.spool, agent]));
  let runs: string[];
  try {
    runs = readdirSync(planPaths(plan).spoolDir).filter((name) => /^r[1-9]\d*$/.test(name));
  } catch {
    return [];
  }
  const records: InboxRecord[] = [];
  for (const run of runs) {
    for (const spool of runSpools(plan, Number(run.slice(1)))) {
      const agent = agents.get(spool);
      if (!agent) continue;
      records.push(...wholeSpool(plan, spool).map((record) => attribute(record, agent)));
      // Its usage records (SPEC 10.7), and nothing else from that file.
      records.push(...wholeFile(usageFile(plan, spool)).filter((r) => r.kind === 'usage').map((record) => attribute(record, agent)));
    }
  }
  return records.sort((a, b) => (Date.parse(a.ts) || 0) - (Date.parse(b.ts) || 0));
}

/**
 * The messages of one run, each attributed to the agent whose spool it lies in (a record's own
 * `from` and `role` are the writer's word only): what `swarm notify` counts asks from.
 */
export function runMessages(plan: string, run: number): RunMessage[] {
  const agents = new Map(recordedAgents(plan).map((agent) => [agent.spool, agent]));
  const messages: RunMessage[] = [];
  for (const spool of runSpools(plan, run)) {
    const agent = agents.get(spool);
    if (!agent) continue;
    for (const record of wholeSpool(plan, spool)) {
      const at = Date.parse(record.ts);
      if (record.kind !== 'message' || !Number.isFinite(at)) continue;
      const role = agent.role === 'lead' || agent.epoch !== undefined ? 'lead' : 'lane';
      messages.push({ from: agent.lane, role, to: record.to, text: record.text, at });
    }
  }
  return messages;
}

/** Every record of one spool, its last line taken even without its newline (the writer is done or gone). */
function wholeSpool(plan: string, spool: string): InboxRecord[] {
  return wholeFile(spoolFile(plan, spool));
}

function wholeFile(path: string): InboxRecord[] {
  const text = readFrom(path, 0);
  const whole = text.length > 0 && text[text.length - 1] !== 0x0a ? Buffer.concat([text, Buffer.from('\n')]) : text;
  return parseInboxChunk(whole).records;
}
