/**
 * `swarm status`'s ledger (runtime/ledgerNow.ts): the saved ledger and the usage records past the
 * offsets the state saved, folded as the engine's look folds them — as current as the dashboard,
 * while the engine's save of its look may wait minutes. Nothing read twice, nothing of an unrecorded agent.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordAgent } from '../../src/adapters/agentRegistry.js';
import { usageFile } from '../../src/adapters/spool.js';
import { generationFigures, type Ledger } from '../../src/core/ledger/ledger.js';
import { reduceUsage } from '../../src/core/ledger/reduce.js';
import { figuresOf } from '../../src/core/ledger/ledger.js';
import type { EngineState } from '../../src/runtime/engineState.js';
import { ledgerNow } from '../../src/runtime/ledgerNow.js';
import { tempDir } from '../helpers/swarm.js';

let tmp: { dir: string; cleanup: () => void } | null = null;
afterEach(() => {
  tmp?.cleanup();
  tmp = null;
});

const record = (from: string, role: string, generation: number, cost: number, session = 'S1') => `${JSON.stringify({
  kind: 'usage', ts: new Date().toISOString(), from, role, account: 'a1', generation, epoch: 1, run: 1,
  session_id: session, cost_usd: cost, tokens: { input: 1000, output: 10, cache_read: null, cache_write: null },
})}\n`;

function plan(): { plan: string; append: (spool: string, text: string) => number } {
  tmp = tempDir('swarm-ledgernow-');
  const p = tmp.dir;
  const append = (spool: string, text: string): number => {
    const file = usageFile(p, spool);
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, text);
    return Buffer.byteLength(text);
  };
  return { plan: p, append };
}

const cost = (ledger: Ledger | undefined, agent: string, generation: number) => {
  const g = ledger?.[agent]?.find((x) => x.generation === generation);
  return g === undefined ? null : generationFigures(g).cost_usd;
};

describe('ledgerNow', () => {
  it('adds the records past the saved offsets (the saved fold not counted again); a lead agent counts for the lead lane', () => {
    const { plan: p, append } = plan();
    recordAgent(p, { lane: 'lane-a', generation: 1, role: 'lane', account: 'a1', run: 1, pane: null });
    recordAgent(p, { lane: 'lead-b', generation: 2, role: 'lead', account: 'a2', run: 1, pane: null });
    const read = append('r1/lane-a-g1', record('lane-a', 'lane', 1, 0.1));
    append('r1/lane-a-g1', record('lane-a', 'lane', 1, 0.4));
    append('r1/lead-b-g2', record('lead-b', 'lead', 2, 0.2, 'L2'));
    // The engine's look folded the first record and saved its offset.
    const saved = reduceUsage(undefined, [{ agent: 'lane-a', generation: 1, account: 'a1', session: 'S1', figures: figuresOf(0.1, null), turns: null }], () => null).ledger;
    const state = { run: 1, leadName: 'lead', lanes: { 'lane-a': {}, lead: {} }, ledger: saved, usageRead: { 'r1/lane-a-g1': read } } as unknown as EngineState;
    const now = ledgerNow(p, state);
    expect(cost(now, 'lane-a', 1)).toBe(0.4);
    expect(cost(now, 'lead', 2)).toBe(0.2);
    // Read again: the same figures (per process the last counts).
    expect(cost(ledgerNow(p, { ...state, ledger: now } as EngineState), 'lane-a', 1)).toBe(0.4);
  });

  it('what the saved offset covers is never folded twice (a process that restarted: its earlier run kept, not doubled)', () => {
    const { plan: p, append } = plan();
    recordAgent(p, { lane: 'lane-a', generation: 1, role: 'lane', account: 'a1', run: 1, pane: null });
    const read = append('r1/lane-a-g1', record('lane-a', 'lane', 1, 0.4) + record('lane-a', 'lane', 1, 0.1));
    append('r1/lane-a-g1', record('lane-a', 'lane', 1, 0.2));
    const fig = (c: number) => ({ agent: 'lane-a', generation: 1, account: 'a1', session: 'S1', figures: figuresOf(c, null), turns: null });
    const saved = reduceUsage(undefined, [fig(0.4), fig(0.1)], () => null).ledger;
    expect(cost(saved, 'lane-a', 1)).toBe(0.5);
    const state = { run: 1, leadName: 'lead', lanes: { 'lane-a': {} }, ledger: saved, usageRead: { 'r1/lane-a-g1': read } } as unknown as EngineState;
    expect(cost(ledgerNow(p, state), 'lane-a', 1)).toBe(0.6);
  });

  it('nothing new: the saved ledger itself; a spool swarm gave no agent: nothing of it', () => {
    const { plan: p, append } = plan();
    append('r1/stranger-g1', record('stranger', 'lane', 1, 9));
    const state = { run: 1, leadName: 'lead', lanes: {}, usageRead: {} } as unknown as EngineState;
    expect(ledgerNow(p, state)).toBeUndefined();
  });
});
