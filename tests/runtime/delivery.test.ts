/**
 * Pointer lines (runtime/delivery.ts) in-process, with a fake host: what a line covers is what was
 * waiting when it was typed; a message that lands while the line is being typed stays waiting.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKinds } from '../../src/kinds/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { freshCount } from '../../src/core/protocol/pointed.js';
import { readPointed } from '../../src/adapters/pointed.js';
import { initialLane } from '../../src/machine/laneState.js';
import { Deliveries, type DeliveriesEngine } from '../../src/runtime/delivery.js';
import { ROOT } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const KINDS = await loadKinds([]);
const IDLE = readFileSync(join(ROOT, 'tests', 'fixtures', 'screens', 'claude', 'idle.txt'), 'utf8');

function setup() {
  dir = mkdtempSync(join(tmpdir(), 'swarm-delivery-'));
  const plan = join(dir, 'plan');
  const lane = { ...initialLane({ name: 'lane-a', role: 'lane', account: 'c1', now: 0 }), state: 'working' as const, paneId: '%1' };
  const typed: string[] = [];
  let release: (landed: boolean) => void = () => undefined;
  const engine: DeliveriesEngine = {
    config: { plan, dir, accounts: [{ id: 'c1', kind: 'claude', vendor: 'anthropic', env: {} }] as unknown as DeliveriesEngine['config']['accounts'] },
    state: { sessions: {} },
    env: {},
    kinds: KINDS,
    host: {
      capture: () => Promise.resolve(IDLE),
      typeLine: (_pane: string, line: string) => {
        typed.push(line);
        return new Promise<boolean>((resolve) => { release = resolve; });
      },
    },
    laneOfAgent: (agent) => (agent === 'lane-a' ? 'lane-a' : null),
    lane: (name) => (name === 'lane-a' ? lane : undefined),
    agentName: (l) => l.name,
  };
  return { plan, typed, deliveries: new Deliveries(engine), land: () => release(true) };
}

describe('Deliveries', () => {
  it('a message that lands while the pointer line is being typed is still waiting after it', async () => {
    const t = setup();
    t.deliveries.queue('lane-a');
    await waitFor(() => t.typed.length === 1, { what: 'the first pointer line typed' });
    t.deliveries.queue('lane-a'); // arrives mid-typing
    t.land();
    await waitFor(() => readPointed(t.plan, 'lane-a').typed === 1, { what: 'the first line recorded' });
    const counts = readPointed(t.plan, 'lane-a');
    expect(counts.delivered).toBe(2);
    expect(freshCount(counts)).toBe(1);
  });
});

describe('Deliveries: a reviewer (SPEC 10.6)', () => {
  it("points lane-a's reviewer in flight at its mailbox, in the reviewer's pane; none once it is gone", async () => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-delivery-'));
    const plan = join(dir, 'plan');
    const review = { round: 1, seq: 2, reviewer: { seq: 2, account: 'c2', paneId: '%9', since: 0 }, tried: [], picks: 1, deadline: 1 };
    let lane = { ...initialLane({ name: 'lane-a', role: 'lane', account: 'c1', now: 0 }), state: 'working' as const, paneId: '%1', review };
    const typed: [string, string][] = [];
    const engine: DeliveriesEngine = {
      config: { plan, dir, accounts: [{ id: 'c1', kind: 'claude', vendor: 'anthropic', env: {} }, { id: 'c2', kind: 'claude', vendor: 'x', env: {} }] as unknown as DeliveriesEngine['config']['accounts'] },
      state: { sessions: {} },
      env: {},
      kinds: KINDS,
      host: { capture: () => Promise.resolve(IDLE), typeLine: (pane: string, line: string) => { typed.push([pane, line]); return Promise.resolve(true); } },
      laneOfAgent: (agent) => (agent === 'lane-a' ? 'lane-a' : null),
      lane: (name) => (name === 'lane-a' ? lane : undefined),
      agentName: (l) => l.name,
    };
    const deliveries = new Deliveries(engine);
    deliveries.queue('lane-a.review');
    await waitFor(() => typed.length === 1, { what: "the reviewer's pointer line" });
    expect(typed[0]![0]).toBe('%9');
    expect(typed[0]![1]).toContain(join(plan, '.swarm', 'mailbox', 'lane-a.review.md'));
    // Its review over: nothing to point.
    lane = { ...lane, review: null as unknown as typeof review };
    deliveries.queue('lane-a.review');
    await new Promise((resolve) => setImmediate(resolve));
    expect(typed).toHaveLength(1);
  });
});
