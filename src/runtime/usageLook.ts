/**
 * The agents' usage records (SPEC 10.7's ledger), read by a look every USAGE_LOOK_MS, not by a watch:
 * a status line writes one after every reply of every lane, and each would otherwise cost the engine a
 * read and a step. A look reads each usage file of the run from where the last one stopped (a size
 * compared, nothing read, when it has not grown), stamps each record with its spool's agent (as the
 * inbox does), and folds them all in one step whose save may wait (engine.ts `soft`): read again after
 * a crash, they fold to the same ledger. Generations that ended since the last look are journaled then
 * (`generation_spent`, with their agents' last figures). `look()` also runs at the run's end, so the
 * last figures are kept and every end journaled.
 */
import { attributed, type AgentRecord } from '../core/authority/agents.js';
import type { UsageSeen } from '../core/swarm/events.js';
import { runOf } from '../core/swarm/runs.js';
import { unjournaled } from '../core/ledger/ledger.js';
import { recordedAgents } from '../adapters/agentRegistry.js';
import { readUsage, runSpools, usageFile, usageSize } from '../adapters/spool.js';
import type { ClockTimer } from './clock.js';
import type { Engine } from './engine.js';
import { usageSeen } from './spend.js';

/**
 * How often: the figures trail by at most this much on the dashboard and in `swarm status` (the report
 * reads the files themselves). Every 5 s cost 16 streaming lanes' engine about 15 % more CPU; every
 * 15 s keeps that within the 5 % `npm run bench` holds it to (bench/ledger.mjs).
 */
export const USAGE_LOOK_MS = 15_000;

export interface UsageLook {
  /** Look now (queued on the engine); resolves once what it read is folded. */
  look: () => Promise<void>;
  stop: () => void;
}

export function usageLook(engine: Engine): UsageLook {
  const readTo = new Map(Object.entries(engine.state.usageRead ?? {}));
  const agents = new Map<string, AgentRecord>();
  const files = new Map<string, string>();
  const fileOf = (spool: string): string => {
    let file = files.get(spool);
    if (file === undefined) files.set(spool, (file = usageFile(engine.config.plan, spool)));
    return file;
  };
  const agentOf = (spool: string): AgentRecord | null => {
    if (!agents.has(spool)) for (const agent of recordedAgents(engine.config.plan)) agents.set(agent.spool, agent);
    return agents.get(spool) ?? null;
  };
  let timer: ClockTimer | null = null;
  let stopped = false;

  const look = (): Promise<void> =>
    engine.enqueue(async () => {
      const plan = engine.config.plan;
      const seen: UsageSeen[] = [];
      const reads: { spool: string; offset: number }[] = [];
      for (const spool of runSpools(plan, runOf(engine.state))) {
        const from = readTo.get(spool) ?? 0;
        const file = fileOf(spool);
        if ((usageSize(file) ?? 0) <= from) continue;
        // An agent not recorded yet (its start is being recorded): its records wait for a later look, unread.
        const agent = agentOf(spool);
        if (agent === null) continue;
        const chunk = readUsage(file, from);
        if (chunk.offset === from) continue;
        readTo.set(spool, chunk.offset);
        reads.push({ spool, offset: chunk.offset });
        for (const record of chunk.records) {
          const r = attributed(record, agent);
          const one = r.kind === 'usage' ? usageSeen(engine, r) : null;
          if (one !== null) seen.push(one);
        }
      }
      // Nothing read and no ended generation waiting for its line: no step.
      if (reads.length === 0 && unjournaled(engine.state.ledger).length === 0) return;
      if (!engine.apply({ type: 'usage', seen, reads })) return;
      await engine.writes.settled();
      engine.deadlines.arm();
      await engine.drainPending(); // an ended generation whose figures moved is journaled again
      engine.publish();
    });

  const next = (): void => {
    if (stopped) return;
    timer = engine.clock.after(USAGE_LOOK_MS, () => {
      void look().finally(next);
    });
  };
  next();
  return {
    look,
    stop: () => {
      stopped = true;
      timer?.cancel();
    },
  };
}
