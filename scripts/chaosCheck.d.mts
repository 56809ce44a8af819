/** Types of chaosCheck.mjs for its tests. */
export interface LivePane { lane: string; generation: number; pid: number }
export interface Refusal { target: string; from: number; to: number }
export interface DownReport { lane: string; generation: number; kind: 'done' | 'handoff' }
export function livePanes(socket: string): LivePane[] | null;
export function checkRun(run: {
  plan: string;
  /** The machine's lease folder the run leased from (SPEC 10.4). */
  machineLeases?: string;
  socket: string;
  exit: { code: number | null; signal?: string | null } | null;
  samples: LivePane[][];
  snapshots: string[];
  lanes: string[];
  live?: LivePane[];
  hostLost?: number;
  refusals?: Refusal[];
  faultsTold?: number;
  fullDisk?: boolean;
  downReports?: DownReport[];
}): { violations: string[]; handoffs: number };
