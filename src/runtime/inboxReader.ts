/**
 * The inbox as the engine reads it (SPEC 10.3): every agent's spool of this run, each from where this
 * run has read it to. A record is its spool's agent's, whatever it says of its sender: the reader
 * stamps who wrote it (name, generation, run, account, role) from the spool's name and the engine's
 * record of that agent; a spool swarm gave no agent counts for nobody (`fenced`). Offsets are saved
 * only once the events the records became were handled (their steps queued before this save), so a
 * kill in between reads them again. A last line without its newline is read again later, and torn
 * once its deadline (state) has passed. `drain(hold)`: records from the first that `hold` names on
 * are held back, the offsets unsaved, until `release()` routes them, in order, before anything read later.
 */
import { attributed, parseSpoolName, type AgentRecord } from '../core/authority/agents.js';
import type { InboxRecord } from '../core/protocol/inbox.js';
import { runOf } from '../core/swarm/runs.js';
import { recordedAgents } from '../adapters/agentRegistry.js';
import { readSpool, runSpools, spoolSize } from '../adapters/spool.js';
import { faultPoint } from './effects.js';
import type { Engine } from './engine.js';
import { route } from './inboxRouter.js';
import { takeAnswers } from './answers.js';
import { recordLeft } from './agentStarts.js';

export interface InboxReader {
  /** Resolves once what was read is routed (its events queued): an exit queued after it comes after them. */
  drain: (hold?: (record: InboxRecord) => boolean) => Promise<void>;
  /** One spool changed (its watch fired): read that one alone (many lanes, one record: not every spool looked at). */
  spoolChanged: (spool: string) => void;
  release: () => void;
}

type Read = { spool: string; offset: number; tail: number | null; torn: { offset: number; bytes: number }[] };
interface Batch { records: InboxRecord[]; reads: Read[] }

export function inboxReader(engine: Engine): InboxReader {
  const readTo = new Map(Object.entries(engine.state.spools ?? {}).map(([spool, read]) => [spool, read.offset]));
  const agents = new Map<string, AgentRecord>();
  const refused = new Set<string>();
  let held: Batch | null = null;

  /** The agent swarm recorded for a spool (the registry is the engine's own writing); read again when one is new. */
  const agentOf = (spool: string): AgentRecord | null => {
    if (!agents.has(spool)) for (const agent of recordedAgents(engine.config.plan)) agents.set(agent.spool, agent);
    return agents.get(spool) ?? null;
  };

  const take = (batch: Batch) => {
    for (const record of batch.records) route(engine, record);
    void engine.enqueue(async () => {
      const changed = engine.apply({ type: 'inbox_read', reads: batch.reads });
      inboxFaults(engine, batch.records);
      if (!changed) return;
      await engine.writes.settled();
      engine.deadlines.arm();
      await engine.drainPending(); // the torn writes' journal lines
    });
  };

  /** Read the spools named (null: every spool of the run). */
  const read = (only: readonly string[] | null = null): Batch => {
    const batch: Batch = { records: [], reads: [] };
    const now = engine.now();
    for (const spool of only ?? runSpools(engine.config.plan, runOf(engine.state))) {
      const seen = engine.state.spools?.[spool]?.tail ?? null;
      // Nothing new and no last line waiting: a look at its size, not a read (many lanes, one record changed).
      if (seen === null && (spoolSize(engine.config.plan, spool) ?? 0) === (readTo.get(spool) ?? 0)) continue;
      const chunk = readSpool(engine.config.plan, spool, readTo.get(spool) ?? 0, { seen, now });
      if (chunk.consumed === 0 && chunk.tail === (seen?.offset ?? null)) continue;
      readTo.set(spool, chunk.offset);
      batch.reads.push({ spool, offset: chunk.offset, tail: chunk.tail, torn: chunk.torn });
      const agent = agentOf(spool);
      if (agent === null) {
        if (chunk.records.length > 0 && !refused.has(spool)) {
          refused.add(spool);
          engine.journal({ type: 'intervention', event: 'fenced', lane: parseSpoolName(spool)?.lane ?? null, command: 'spool', spool, reason: `records in spool ${spool}, which swarm gave no agent: they count for nobody` });
        }
        continue;
      }
      batch.records.push(...chunk.records.map((record) => attributed(record, agent)));
    }
    // In the order they were written, as far as their writers' clocks tell (a spool's own order kept).
    batch.records.sort((a, b) => (Date.parse(a.ts) || 0) - (Date.parse(b.ts) || 0));
    return batch;
  };

  // The developer's answers: checked (their writer still waits) and routed as soon as seen, one look at a time.
  let looking = false;
  const answers = () => {
    if (looking) return;
    looking = true;
    void engine.enqueue(async () => {
      try {
        await takeAnswers(engine, (answer) => route(engine, { kind: 'answer', ts: answer.ts, from: 'developer', role: 'developer', account: null, generation: null, epoch: null, run: answer.run, to: answer.to, text: answer.text }));
      } finally {
        looking = false;
      }
    });
  };

  const drain = (hold?: (record: InboxRecord) => boolean): Promise<void> => {
    recordLeft(engine);
    answers();
    return spools(hold);
  };
  // A read queued and not yet begun sees whatever a later call would: calls meanwhile share it (many watch
  // events, one read). It reads every spool once any call asked for all, else only those that changed.
  let queued: Promise<void> | null = null;
  let all = false;
  const changed = new Set<string>();
  const spools = (hold?: (record: InboxRecord) => boolean, spool?: string): Promise<void> => {
    if (spool === undefined) all = true;
    else changed.add(spool);
    if (hold === undefined && queued !== null) return queued;
    const job = read1(hold);
    if (hold === undefined) queued = job;
    return job;
  };
  const read1 = (hold?: (record: InboxRecord) => boolean): Promise<void> =>
    engine.enqueue(() => {
      if (hold === undefined) queued = null;
      if (held) return; // read again once the held records are released
      const only = all || hold !== undefined ? null : [...changed];
      all = false;
      changed.clear();
      const batch = read(only);
      if (batch.reads.length === 0) return;
      const first = hold ? batch.records.findIndex(hold) : -1;
      if (first === -1) return take(batch);
      for (const record of batch.records.slice(0, first)) route(engine, record);
      held = { ...batch, records: batch.records.slice(first) };
    });
  const release = () =>
    void engine.enqueue(() => {
      if (held) take(held);
      held = null;
    });
  const spoolChanged = (spool: string): void => {
    recordLeft(engine);
    void spools(undefined, spool);
  };
  return { drain, spoolChanged, release };
}

/** Crash tests: `SWARM_FAULT=after:inbox_offset:<first word of a message>` kills swarm once the read offset past it is saved. */
function inboxFaults(engine: Engine, records: InboxRecord[]): void {
  for (const record of records) if (record.kind === 'message') faultPoint(engine, `after:inbox_offset:${record.text.trim().split(/\s/)[0] ?? ''}`);
}
