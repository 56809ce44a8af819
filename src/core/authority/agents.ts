/**
 * Who an agent is (SPEC 10.3): never its environment. swarm records each agent it starts — the pane's
 * first process (pid and start time, so a reused pid is another process), the lane, generation, role,
 * account and run — and a command is that agent's only when that recorded process is among the
 * command's ancestors. Each agent writes its records into its own spool
 * (`.swarm/spool/r<run>/<name>-g<generation>/`), and the engine attributes a record by the spool it
 * lies in, never by what it says. Pure: names and lookups.
 */
import type { ProcessId } from '../process/procStat.js';
import type { InboxRecord } from '../protocol/inbox.js';

/** Who an agent is to swarm: a lane's, the lead's, or a reviewer of a lane (SPEC 10.6). */
export type AgentRole = 'lead' | 'lane' | 'reviewer';

export interface AgentRecord {
  /** The agent's name: a lane's, or the lead's (a lead successor has its own, e.g. `lead-b`). */
  lane: string;
  generation: number;
  /** As swarm started it; the lead record (lead.json) says who leads now. */
  role: AgentRole;
  account: string;
  run: number;
  /** Its spool, relative to `.swarm/spool/` (spoolName). */
  spool: string;
  /** The pane's first process, as swarm started it; null where the host gave none (no command can be known as this agent's by ancestry). */
  pane: ProcessId | null;
  host: string;
  /**
   * The pid namespace swarm recorded the agent from (`pid:[4026531836]`; absent in older records).
   * A command in another one — a sandbox's, which shows it none of its ancestors — is known by its
   * spool instead (`bySpool`).
   */
  pidns?: string;
  /**
   * The epoch it leads at, for a lane's agent swarm promoted to lead in place (SPEC 10.5): its pane was
   * started with an older one in its environment. Absent for every other agent.
   */
  epoch?: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `r<run>/<name>-g<generation>`: one agent's spool, relative to the plan's spool folder. */
export function spoolName(run: number, lane: string, generation: number): string {
  return `r${run}/${lane}-g${generation}`;
}

/** The agent a spool belongs to, or null for a name swarm never gives (the generation is the last `-g<N>`). */
export function parseSpoolName(name: string): { run: number; lane: string; generation: number } | null {
  const match = /^r([1-9]\d*)\/(.+)-g([1-9]\d*)$/.exec(name);
  if (!match || !NAME.test(match[2]!)) return null;
  return { run: Number(match[1]), lane: match[2]!, generation: Number(match[3]) };
}

/** The registry file of an agent's pane process: `<pid>-<start ticks>.json` (beside `spools/<spool>.json`, one for every agent). */
export function agentFileName(pane: ProcessId): string {
  return `${pane.pid}-${pane.startTicks}.json`;
}

/**
 * The agent a process belongs to: the first of its ancestors (itself first) that is a pane process
 * swarm recorded on this host. `lookup` reads the registry; null when none is.
 */
export function findAgent(ancestors: readonly ProcessId[], host: string, lookup: (pane: ProcessId) => AgentRecord | null): AgentRecord | null {
  for (const process of ancestors) {
    const agent = lookup(process);
    if (agent && agent.host === host && agent.pane?.pid === process.pid && agent.pane.startTicks === process.startTicks) return agent;
  }
  return null;
}

/** A registry file's record, or null when it is not one (a hand-edited or torn file counts for nobody). */
export function asAgentRecord(value: unknown): AgentRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const pane = v.pane as Record<string, unknown> | null | undefined;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
  if (typeof v.lane !== 'string' || !NAME.test(v.lane) || !whole(v.generation) || !whole(v.run)) return null;
  if (v.role !== 'lead' && v.role !== 'lane' && v.role !== 'reviewer') return null;
  if (typeof v.account !== 'string' || typeof v.host !== 'string' || typeof v.spool !== 'string') return null;
  if (v.spool !== spoolName(v.run, v.lane, v.generation)) return null;
  if (pane !== null && (!pane || !whole(pane.pid) || typeof pane.startTicks !== 'number' || !Number.isSafeInteger(pane.startTicks))) return null;
  return {
    lane: v.lane, generation: v.generation, role: v.role, account: v.account, run: v.run, spool: v.spool,
    pane: pane === null ? null : { pid: pane.pid as number, startTicks: pane.startTicks as number }, host: v.host,
    ...(typeof v.pidns === 'string' && v.pidns !== '' ? { pidns: v.pidns } : {}),
    ...(whole(v.epoch) ? { epoch: v.epoch } : {}),
  };
}

/**
 * The spool a sandboxed agent's command names (SWARM_SPOOL, the absolute folder swarm gave its pane),
 * relative to the plan's spool folder; null when it names none of the plan's spools. Trailing
 * slashes, CRLF and escape codes are no spool.
 */
export function spoolOfPath(spoolRoot: string, given: string | undefined): string | null {
  if (given === undefined) return null;
  const prefix = `${spoolRoot.replace(/\/+$/, '')}/`;
  if (!given.startsWith(prefix)) return null;
  const name = given.slice(prefix.length);
  return parseSpoolName(name) === null ? null : name;
}

/**
 * A command known by its spool, not its ancestry (SPEC 10.3, sandboxed agents): only when it runs in
 * another pid namespace than the one swarm recorded the agent from — a sandbox, where no ancestor is
 * visible and only its own spool is writable, so what it writes lies where only it could write. A
 * command in swarm's own namespace is known by ancestry alone (outside every pane: fenced).
 */
export function bySpool(agent: AgentRecord | null, own: { pidns: string | null; host: string }): AgentRecord | null {
  if (agent === null || agent.pidns === undefined || own.pidns === null) return null;
  return own.pidns !== agent.pidns && own.host === agent.host ? agent : null;
}

/**
 * A record as its spool says: the sender is the spool's agent (name, generation, run, account, role),
 * whatever the record claims. An agent cannot speak as the developer: an `answer` record in a spool
 * is that agent's message to the lane it names, nothing more.
 */
export function attributed(record: InboxRecord, agent: AgentRecord): InboxRecord {
  const sender = { from: agent.lane, role: agent.role, account: agent.account, generation: agent.generation, run: agent.run };
  if (record.kind === 'answer') return { kind: 'message', ts: record.ts, epoch: record.epoch, to: String(record.to), text: String(record.text), cwd: '', ...sender };
  return { ...record, ...sender };
}
