import { describe, expect, it } from 'vitest';
import { REFUSAL_TARGETS, planRun, swarmYaml } from '../../scripts/chaosPlan.mjs';
import { printTotals, tally, type RunStats } from '../../scripts/chaosReport.mjs';

const seeds = Array.from({ length: 200 }, (_, i) => 1000 + i);

describe('chaos runs from their seeds', () => {
  it('replays a seed exactly', () => {
    for (const seed of [0, 102, 1003, 4_294_967_295]) expect(planRun(seed)).toEqual(planRun(seed));
  });

  it('chooses every fault kind across 50 seeds, each within its bounds', () => {
    const runs = seeds.slice(0, 50).map(planRun);
    expect(runs.filter((r) => r.swarmKills.length > 0).length).toBeGreaterThan(10);
    expect(runs.filter((r) => r.tmuxKills.length > 0).length).toBeGreaterThan(10);
    expect(runs.filter((r) => r.refusals.length > 0).length).toBeGreaterThan(10);
    expect(runs.filter((r) => Object.keys(r.crashAt).length > 0).length).toBeGreaterThan(5);
    for (const r of runs) {
      expect(r.tmuxKills.length).toBeLessThanOrEqual(2);
      expect([...r.tmuxKills].sort((a, b) => a - b)).toEqual(r.tmuxKills);
      for (const w of r.refusals) {
        expect(REFUSAL_TARGETS).toContain(w.target);
        expect(w.forMs).toBeGreaterThanOrEqual(800);
        expect(w.forMs).toBeLessThanOrEqual(4000);
      }
    }
    const targets = new Set(seeds.flatMap((s) => planRun(s).refusals.map((w) => w.target)));
    expect([...targets].sort()).toEqual([...REFUSAL_TARGETS].sort());
  });

  it('gives each lane enough generations for a cap, a crash, two tmux kills and a swarm kill', () => {
    const doc = JSON.parse(swarmYaml(planRun(1003))) as { thresholds: { max_generations: number } };
    expect(doc.thresholds.max_generations).toBeGreaterThanOrEqual(5);
  });
});

describe('chaos counts per fault kind', () => {
  const stats = (over: Partial<RunStats>): RunStats => ({ swarmKills: 0, tmuxKills: 0, refusals: [], faultsTold: 0, crashes: 0, paneKills: 0, handoffs: 0, violations: [], ...over });
  const results = [
    { run: { seed: 1 }, stats: stats({ swarmKills: 2, tmuxKills: 1, handoffs: 3 }) },
    { run: { seed: 2 }, stats: stats({ refusals: [{ target: 'journal', from: 0, to: 1 }], faultsTold: 1, handoffs: 1, violations: ['x', 'y'] }) },
    { run: { seed: 3 }, stats: stats({ handoffs: 0 }) },
    { run: { seed: 4 }, stats: stats({ tmuxKills: 2, refusals: [{ target: 'swarm-dir', from: 0, to: 1 }], crashes: 1, paneKills: 1, handoffs: 4 }) },
  ];

  it('counts a full disk among the refusals and on its own row, and reports made while swarm up was down', () => {
    const more = [...results, { run: { seed: 5 }, stats: stats({ swarmKills: 1, refusals: [{ target: 'full-disk', from: 0, to: 1 }], downReports: [{ lane: 'lane-a', kind: 'done' }], handoffs: 2 }) }];
    const row = (name: RegExp) => tally(more).kinds.find((k) => name.test(k.name));
    expect(row(/^writes refused/)).toMatchObject({ runs: 3, faults: 3 });
    expect(row(/of which a full disk/)).toMatchObject({ runs: 1, faults: 1, handoffs: 2 });
    expect(row(/^a report while swarm up was down/)).toMatchObject({ runs: 1, faults: 1, handoffs: 2 });
  });

  it('counts runs, faults, handoffs and violations per kind, and the failing seeds', () => {
    const totals = tally(results);
    const row = (name: RegExp) => totals.kinds.find((k) => name.test(k.name));
    expect(row(/^swarm up killed/)).toMatchObject({ runs: 1, faults: 2, handoffs: 3, violations: 0 });
    expect(row(/^tmux server killed/)).toMatchObject({ runs: 2, faults: 3, handoffs: 7, violations: 0 });
    expect(row(/^writes refused/)).toMatchObject({ runs: 2, faults: 2, handoffs: 5, violations: 2 });
    expect(row(/^lane agent crashed/)).toMatchObject({ runs: 1, faults: 1 });
    expect(row(/^none of these/)).toMatchObject({ runs: 1, faults: 0 });
    expect(row(/^all runs/)).toMatchObject({ runs: 4, faults: 9, handoffs: 8, violations: 2 });
    expect(totals.targets).toEqual({ journal: 1, state: 0, 'swarm-dir': 1 });
    expect(totals.failing).toEqual([2]);
  });

  it('prints the table, the totals and the failing seed to replay', () => {
    const lines: string[] = [];
    expect(printTotals(tally(results), 1.25, (l) => lines.push(l))).toBe(1);
    expect(lines.find((l) => l.startsWith('tmux server killed'))).toMatch(/tmux server killed, up again\s+2\s+3\s+7\s+0$/);
    expect(lines.at(-2)).toBe('chaos: 4 runs in 1.3 min, 2 swarm kills (SIGKILL), 3 tmux kills, 2 write refusals (journal 1, state.json 0, .swarm/ 1, full disk 0; 1 told), 0 reports while swarm up was down, 1 lane crashes (SIM_CRASH_AT) + 1 lane pane kills (SIGKILL), 8 handoffs, 2 violations');
    expect(lines.at(-1)).toBe('failing seeds: 2 (replay one: npm run chaos -- --seed S --keep)');
  });
});
