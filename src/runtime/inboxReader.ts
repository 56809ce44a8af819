/**
 * The inbox as the engine reads it: from where this run has read to. The offset is saved only once
 * the events the records became were handled (their steps queued before this save), so a kill in
 * between reads them again. A last line without its newline is read again later, and torn once its
 * deadline (state) has passed. `drain(hold)`: records from the first that `hold` names on are held
 * back, the offset unsaved, until `release()` routes them, in order, before anything read later.
 */
import type { InboxRecord } from '../core/protocol/inbox.js';
import { readInbox } from '../adapters/inbox.js';
import { faultPoint } from './effects.js';
import type { Engine } from './engine.js';
import { route } from './inboxRouter.js';

export interface InboxReader {
  drain: (hold?: (record: InboxRecord) => boolean) => void;
  release: () => void;
}

type Chunk = ReturnType<typeof readInbox>;

export function inboxReader(engine: Engine): InboxReader {
  let readTo = engine.state.inboxOffset;
  let held: Chunk | null = null;
  const take = (chunk: Chunk) => {
    for (const record of chunk.records) route(engine, record);
    void engine.enqueue(async () => {
      const changed = engine.apply({ type: 'inbox_read', offset: chunk.offset, tail: chunk.tail, torn: chunk.torn });
      inboxFaults(engine, chunk.records);
      if (!changed) return;
      await engine.writes.settled();
      engine.deadlines.arm();
      await engine.drainPending(); // the torn writes' journal lines
    });
  };
  const drain = (hold?: (record: InboxRecord) => boolean) =>
    void engine.enqueue(() => {
      if (held) return; // read again once the held records are released
      const seen = engine.state.inboxTail ?? null;
      const chunk = readInbox(engine.config.plan, readTo, { seen, now: engine.now() });
      if (chunk.consumed === 0 && chunk.tail === (seen?.offset ?? null)) return;
      readTo = chunk.offset;
      const first = hold ? chunk.records.findIndex(hold) : -1;
      if (first === -1) return take(chunk);
      for (const record of chunk.records.slice(0, first)) route(engine, record);
      held = { ...chunk, records: chunk.records.slice(first) };
    });
  const release = () =>
    void engine.enqueue(() => {
      if (held) take(held);
      held = null;
    });
  return { drain, release };
}

/** Crash tests: `SWARM_FAULT=after:inbox_offset:<first word of a message>` kills swarm once the read offset past it is saved. */
function inboxFaults(engine: Engine, records: InboxRecord[]): void {
  for (const record of records) if (record.kind === 'message') faultPoint(engine, `after:inbox_offset:${record.text.trim().split(/\s/)[0] ?? ''}`);
}
