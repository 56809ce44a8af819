import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProbeResult, ProbeTarget } from '../../src/core/capacity/probe.js';
import type { CapacityThresholds } from '../../src/core/capacity/thresholds.js';
import { loadKinds } from '../../src/kinds/index.js';
import { simAccountFile } from '../../src/sim/files.js';

const KINDS = await loadKinds([]);
/** A kind's probe, through its Kind (null: a plain kind with no name). */
const probeReading = (kind: string | null, target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null => KINDS(kind ?? '').signals.probe(target, thresholds);

let plan: string;
beforeEach(() => {
  plan = mkdtempSync(join(tmpdir(), 'swarm-probe-'));
});
afterEach(() => rmSync(plan, { recursive: true, force: true }));

const T = { low: 25, critical: 10 };
const target = { plan: '', account: 'sim-a1', lane: 'lane-a', generation: 2 };
const save = (text: string) => {
  const path = simAccountFile(plan, 'sim-a1');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

describe('probeReading', () => {
  it('has no probe for kinds without one', () => {
    save('{"remaining_pct": 50}');
    expect(probeReading('claude', { ...target, plan }, T)).toBeNull();
    expect(probeReading(null, { ...target, plan }, T)).toBeNull();
  });

  it('sim: nothing to say before the account has a state', () => {
    expect(probeReading('sim', { ...target, plan }, T)).toBeNull();
  });

  it.each([
    ['not JSON', 'nope'],
    ['empty', ''],
    ['out of range', '{"remaining_pct": 120}'],
  ])('sim: an unreadable state (%s) is no reading', (_name, text) => {
    save(text);
    expect(probeReading('sim', { ...target, plan }, T)).toBeNull();
  });

  it.each([
    [64, 'ok'],
    [20, 'low'],
    [8, 'critical'],
  ])('sim: %s%% left reads %s, with this agent’s context, not cached', (pct, state) => {
    save(JSON.stringify({ remaining_pct: pct, contexts: { 'lane-a-g2': 41, 'lane-a-g1': 90 } }));
    expect(probeReading('sim', { ...target, plan }, T)).toEqual({
      reading: { state, remainingPct: pct, contextPct: 41, resetsAt: null },
      cacheable: false,
    });
  });

  it('keeps account names to safe file names', () => {
    expect(simAccountFile('/p', '../x y')).toBe('/p/.swarm/sim/.._x_y.json');
  });

  it('sim: an account\'s quota belongs to a run; another run\'s state is not this run\'s reading', () => {
    expect(simAccountFile('/p', '../x y', 3)).toBe('/p/.swarm/sim/run-3/.._x_y.json');
    const path = simAccountFile(plan, 'sim-a1', 2);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ remaining_pct: 8, contexts: {} }));
    expect(probeReading('sim', { ...target, plan, run: 2 }, T)?.reading.state).toBe('critical');
    expect(probeReading('sim', { ...target, plan, run: 3 }, T)).toBeNull();
  });
});
