/**
 * What a drill run left behind, read from the plan's files (and the panes still open): the journal,
 * the lead record, every packet with its acceptance record, the sim's keys logs and every pane's
 * screen; what swarm.yaml says of order, review and vendors comes with the run. The screens are copied next to the evidence, so the evidence stands on its own.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parsePacket } from '../core/packet/packet.js';
import { planPaths } from '../core/plan/paths.js';
import type { LeadRecord } from '../core/lead/epochs.js';
import type { SwarmConfig } from '../core/config/config.js';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';
import { readJournal } from '../adapters/journal.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { simStateDir } from '../sim/files.js';
import type { PaneHost } from '../adapters/host.js';
import { readReportInput } from '../adapters/reportInput.js';
import { spendFacts } from '../core/report/facts.js';
import { EVIDENCE_DIR, type DrillFacts, type KeysLog, type PacketFact, type PaneText } from './checks.js';

const LOG = /^(.+)-g(\d+)\.log$/;

function list(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/**
 * Every pane's screen: those swarm saved when it closed a pane (`.swarm/logs/run-<N>/`), and a capture of
 * each pane still open. Each is copied to `analysis_results/drill/panes/<agent>-g<n>.log`.
 */
export async function keepScreens(plan: string, host: PaneHost): Promise<PaneText[]> {
  const screens: PaneText[] = [];
  // A drill is one run: its logs are in that run's folder (`run-<N>/`).
  const logsDir = planPaths(plan).logsDir;
  for (const logs of list(logsDir).filter((n) => /^run-\d+$/.test(n)).map((n) => join(logsDir, n))) {
    for (const name of list(logs)) {
      const m = LOG.exec(name);
      if (m) screens.push({ name: m[1]!, generation: Number(m[2]), file: '', text: readTextIfExists(join(logs, name)) ?? '' });
    }
  }
  for (const pane of await host.list().catch(() => [])) {
    if (screens.some((s) => s.name === pane.lane && s.generation === pane.generation)) continue;
    const text = await host.capture(pane.paneId, 5000).catch(() => null);
    if (text !== null) screens.push({ name: pane.lane, generation: pane.generation, file: '', text: `${text.trimEnd()}\n` });
  }
  return screens.map((s) => {
    const file = `${EVIDENCE_DIR}/panes/${s.name}-g${s.generation}.log`;
    writeFileAtomic(join(plan, file), s.text);
    return { ...s, file };
  });
}

function packetFacts(plan: string): PacketFact[] {
  const dir = planPaths(plan).handoffDir;
  return list(dir).filter((n) => n.endsWith('.yaml')).map((name) => {
    const path = join(dir, name);
    const parsed = parsePacket(readTextIfExists(path) ?? '');
    const p = parsed.ok ? parsed.packet : null;
    return {
      file: relative(plan, path),
      path,
      mode: lstatSync(path).mode,
      reason: p?.reason ?? null,
      degraded: p?.degraded ?? false,
      author: p?.author ?? null,
      unverified: p?.unverified ?? [],
      accepted: acceptance(`${path}.accepted.json`),
      ...(p?.lanes === undefined ? {} : { lanes: p.lanes }),
    };
  });
}

function acceptance(path: string): PacketFact['accepted'] {
  const text = readTextIfExists(path);
  if (text === null) return null;
  try {
    const r = JSON.parse(text) as { accepted_at?: string; by?: { lane?: string; account?: string; generation?: number } };
    return { lane: r.by?.lane ?? '?', account: r.by?.account ?? '?', generation: r.by?.generation ?? 0, at: r.accepted_at ?? '?' };
  } catch {
    return null;
  }
}

function keysLogs(plan: string): KeysLog[] {
  const dir = simStateDir(plan);
  return list(dir).filter((n) => /^keys-.*\.log$/.test(n)).map((n) => ({
    file: relative(plan, join(dir, n)),
    lines: (readTextIfExists(join(dir, n)) ?? '').split('\n'),
  }));
}

function leadRecord(plan: string): LeadRecord | null {
  try {
    return readLeadRecord(plan);
  } catch {
    return null;
  }
}

export interface RunFacts {
  outcome: DrillFacts['outcome'];
  seconds: number;
  lanes: string[];
  capped: DrillFacts['capped'];
  successorLead: string;
  panes: PaneText[];
  remote: DrillFacts['remote'];
  order: DrillFacts['order'];
  reviewed: DrillFacts['reviewed'];
  vendors: DrillFacts['vendors'];
  leadAccount: DrillFacts['leadAccount'];
}

/** Read the plan's record of the run. */
export function readFacts(plan: string, run: RunFacts): DrillFacts {
  return { ...run, journal: readJournal(plan), leadRecord: leadRecord(plan), packets: packetFacts(plan), keysLogs: keysLogs(plan), spend: spendOf(plan, run.vendors) };
}

/** The run's spend as `swarm report` folds it from the agents' records (SPEC 10.7). */
function spendOf(plan: string, vendors: Record<string, string>): DrillFacts['spend'] {
  return spendFacts(readReportInput(plan, plan, { vendors: new Map(Object.entries(vendors)), thresholds: { low: 25, critical: 10, contextPressure: 60 } }));
}

/** What swarm.yaml says that the order and review items need: lanes after others, reviewed lanes, vendors, the lead's account. */
export function configFacts(config: SwarmConfig): Pick<DrillFacts, 'order' | 'reviewed' | 'vendors' | 'leadAccount'> {
  return {
    order: config.lanes.filter((l) => l.after !== undefined && l.after.length > 0).map((l) => ({ lane: l.name, after: [...l.after!] })),
    reviewed: config.lanes.filter((l) => l.review !== undefined).map((l) => l.name),
    vendors: Object.fromEntries(config.accounts.map((a) => [a.id, a.vendor])),
    leadAccount: config.lead.account,
  };
}
