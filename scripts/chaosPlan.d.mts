/** Types of chaosPlan.mjs for its tests. */
export const REFUSAL_TARGETS: readonly ['journal', 'state', 'swarm-dir'];
export interface ChaosRun {
  seed: number;
  lanes: string[];
  steps: Record<string, number>;
  capped: string[];
  crashAt: Record<string, number>;
  paneKills: { lane: string; atMs: number }[];
  swarmKills: number[];
  tmuxKills: number[];
  refusals: { target: (typeof REFUSAL_TARGETS)[number]; atMs: number; forMs: number }[];
  fullDisk: { atMs: number; forMs: number } | null;
  downReport: { atMs: number } | null;
}
export function rng(seed: number): { next: () => number; int: (lo: number, hi: number) => number; chance: (p: number) => boolean };
export function planRun(seed: number): ChaosRun;
export function swarmYaml(run: ChaosRun): string;
