/** Types of chaosReport.mjs for its tests. */
export interface RunStats {
  swarmKills: number;
  tmuxKills: number;
  refusals: { target: string; from: number; to: number }[];
  faultsTold: number;
  crashes: number;
  paneKills: number;
  /** Reports made while swarm up was down (the D fault). */
  downReports?: { lane: string; kind: string }[];
  handoffs: number;
  violations: string[];
}
export interface KindRow { name: string; runs: number; faults: number; handoffs: number; violations: number }
export interface Totals { kinds: KindRow[]; targets: Record<string, number>; told: number; failing: number[] }
export const KINDS: readonly (readonly [string, (s: RunStats) => number])[];
export function tally(results: { run: { seed: number }; stats: RunStats }[]): Totals;
export function printTotals(totals: Totals, minutes: number, print: (line: string) => void): number;
