/**
 * The agents swarm started, on disk (core/authority/agents.ts): `.swarm/agents/<pid>-<start>.json`,
 * written by the engine when it starts (or adopts) a pane, read by an agent's commands to learn whose
 * they are from their own process ancestry (/proc). Light: no config, no React.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { agentFileName, asAgentRecord, bySpool, findAgent, spoolName, spoolOfPath, type AgentRecord } from '../core/authority/agents.js';
import type { ProcessId } from '../core/process/procStat.js';
import { planPaths } from '../core/plan/paths.js';
import { writeFileAtomic } from './files.js';
import { readStat } from './procStatFile.js';

/**
 * Record an agent (the engine, once its pane is there): by its spool (`spools/<spool>.json`: who
 * writes there, for the engine and the report), and by its pane process when the host gave one
 * (`<pid>-<start>.json`: how its commands find it by ancestry). `where`: the machine its pane runs
 * on (another host's, SPEC 10.9, whose copy of the plan's files its commands read); default this one.
 */
export function recordAgent(plan: string, agent: Omit<AgentRecord, 'spool' | 'host' | 'pidns'>, where: { host: string; pidns: string | null } = { host: hostname(), pidns: pidNamespace() }): AgentRecord {
  const { host, pidns } = where;
  const record: AgentRecord = { ...agent, spool: spoolName(agent.run, agent.lane, agent.generation), host, ...(pidns === null ? {} : { pidns }) };
  const dir = planPaths(plan).agentsDir;
  const text = `${JSON.stringify(record)}\n`;
  writeFileAtomic(join(dir, 'spools', `${record.spool}.json`), text, 0o644, { durable: false });
  if (agent.pane !== null) writeFileAtomic(join(dir, agentFileName(agent.pane)), text, 0o644, { durable: false });
  return record;
}

/** The process `pid` as /proc knows it now (null when gone or without /proc). */
export function processNow(pid: number): ProcessId | null {
  const stat = readStat(pid);
  return stat === null ? null : { pid: stat.pid, startTicks: stat.startTicks };
}

/** A process and its ancestors up to pid 1 (at most 200, against a loop), each with its start time. */
export function ancestry(pid: number = process.pid): ProcessId[] {
  const out: ProcessId[] = [];
  for (let at = pid; at > 1 && out.length < 200; ) {
    const stat = readStat(at);
    if (stat === null) break;
    out.push({ pid: at, startTicks: stat.startTicks });
    at = stat.ppid;
  }
  return out;
}

function lookup(plan: string, pane: ProcessId): AgentRecord | null {
  try {
    return asAgentRecord(JSON.parse(readFileSync(join(planPaths(plan).agentsDir, agentFileName(pane)), 'utf8')));
  } catch {
    return null;
  }
}

/** This process's pid namespace (`pid:[4026531836]`), or null without /proc. */
export function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

/**
 * The agent a sandboxed command belongs to (core/authority/agents.ts `bySpool`): the one recorded for
 * the spool SWARM_SPOOL names, when this process runs in another pid namespace than that record's.
 */
export function agentOfSpool(plan: string, given: string | undefined): AgentRecord | null {
  const name = spoolOfPath(planPaths(plan).spoolDir, given);
  if (name === null) return null;
  let record: AgentRecord | null;
  try {
    record = asAgentRecord(JSON.parse(readFileSync(join(planPaths(plan).agentsDir, 'spools', `${name}.json`), 'utf8')));
  } catch {
    return null;
  }
  return record?.spool === name ? bySpool(record, { pidns: pidNamespace(), host: hostname() }) : null;
}

/** The agent the process `pid` (default: this one) belongs to in `plan`, by ancestry; null outside every pane. */
export function agentOf(plan: string, pid: number = process.pid): AgentRecord | null {
  return findAgent(ancestry(pid), hostname(), (pane) => lookup(plan, pane));
}

/**
 * `agentOf`, tried again for a moment: an agent's first command can run before the engine has written
 * its record (the pane starts, then swarm learns its pid). Real time: a wait on a file, not a deadline
 * of the engine's.
 */
export async function agentOfSoon(plan: string, waitMs: number, spool?: string): Promise<AgentRecord | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    // A sandboxed command by its spool (in another pid namespace only), every other by ancestry.
    const found = agentOfSpool(plan, spool) ?? agentOf(plan);
    if (found || Date.now() >= until) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every agent recorded for the plan, by spool (the engine's view: spools → agents; the pane processes of the swarm). */
export function recordedAgents(plan: string): AgentRecord[] {
  const root = join(planPaths(plan).agentsDir, 'spools');
  let runs: string[];
  try {
    runs = readdirSync(root);
  } catch {
    return [];
  }
  return runs.flatMap((run) => {
    let names: string[];
    try {
      names = readdirSync(join(root, run));
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      try {
        const record = asAgentRecord(JSON.parse(readFileSync(join(root, run, name), 'utf8')));
        return record && `${record.spool}.json` === `${run}/${name}` ? [record] : [];
      } catch {
        return [];
      }
    });
  });
}
