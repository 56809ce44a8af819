import { describe, expect, it } from 'vitest';
import { SPARE_STEPS, STEPS, memoryOf, soakPlan, soakYaml, ticksOf } from '../../scripts/soak.mjs';

// /proc/<pid>/stat: the name in parentheses may hold spaces and ')' ; utime is field 14, starttime 22.
const STAT = '4242 (node (swarm) up) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 567 89 10 20 0 11 0 987654 1000000 20000';

describe('soak', () => {
  it.each([
    ['a plain name', STAT.replace('(node (swarm) up)', '(node)')],
    ['a name with spaces and parentheses', STAT],
    ['a trailing newline', `${STAT}\n`],
  ])('reads the ticks of /proc/<pid>/stat with %s', (_, text) => {
    expect(ticksOf(text)).toEqual({ utime: 1234, stime: 567, cutime: 89, cstime: 10, start: '987654' });
  });

  it.each([
    ['the usual status', 'Name:\tnode\nVmHWM:\t  120400 kB\nVmRSS:\t   98304 kB\n', { rssKb: 98304, hwmKb: 120400 }],
    ['CRLF lines', 'Name:\tnode\r\nVmHWM:\t  2048 kB\r\nVmRSS:\t 1024 kB\r\n', { rssKb: 1024, hwmKb: 2048 }],
    ['no Vm lines (a zombie)', 'Name:\tnode\nState:\tZ (zombie)\n', { rssKb: Number.NaN, hwmKb: Number.NaN }],
  ])('reads the memory of /proc/<pid>/status: %s', (_, text, want) => {
    expect(memoryOf(text)).toEqual(want);
  });

  it.each([1, 3, 10, 60])('paces %i minutes so the steps fill the run, first handoffs staggered', (minutes) => {
    const plan = soakPlan(minutes);
    expect(plan.stepMs * STEPS).toBeLessThanOrEqual(minutes * 60_000);
    expect(plan.stepMs * STEPS).toBeGreaterThan(minutes * 60_000 * 0.4);
    const quotas = Object.values(plan.firstQuota);
    expect(quotas).toHaveLength(8);
    expect(new Set(quotas).size).toBe(8);
    // even, so 2 % a step goes from 26 (ok) straight to 24 (critical): a drained account is never picked again
    expect(quotas.every((q) => q % 2 === 0 && q <= 100)).toBe(true);
    expect(Math.max(...quotas)).toBe(24 + 2 * SPARE_STEPS);
    expect(Math.min(...quotas)).toBeGreaterThan(25);
  });

  it('gives 8 lanes, all at once, and enough accounts for every forced handoff', () => {
    const doc = JSON.parse(soakYaml(soakPlan(60))) as {
      lanes: unknown[];
      max_lanes: number;
      accounts: { env: Record<string, string> }[];
      thresholds: { max_generations: number; capacity_low: number; capacity_critical: number };
    };
    expect(doc.lanes).toHaveLength(8);
    expect(doc.max_lanes).toBe(8);
    const perLane = Math.ceil(STEPS / SPARE_STEPS) + 1;
    expect(doc.thresholds.max_generations).toBeGreaterThanOrEqual(perLane);
    // the lead, 8 first accounts, and spares for every later generation of every lane
    expect(doc.accounts.length).toBeGreaterThanOrEqual(1 + 8 + 8 * (perLane - 1));
    expect([doc.thresholds.capacity_low, doc.thresholds.capacity_critical]).toEqual([25, 24]);
    expect(doc.accounts.slice(1).every((a) => a.env.SIM_COST === '2' && a.env.AGENTKIT_CAPACITY_CRITICAL === '24')).toBe(true);
  });
});
