/**
 * Processes as their environment shows them (/proc/<pid>/environ): what a lease asks when it names
 * no agent yet (adapters/leaseFiles.ts). Read only; another user's processes cannot be read and count
 * as not found.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Whether a process of this user runs with every one of `vars` in its environment (an agent whose
 * pane swarm started with that identity, SPEC 4.1), read from /proc; false without /proc.
 */
export function identityRuns(vars: Record<string, string>): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
  const wanted = Object.entries(vars).map(([name, value]) => `${name}=${value}`);
  for (const pid of pids) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone, or another user's
    }
    const entries = new Set(environ.split('\0'));
    if (wanted.every((entry) => entries.has(entry))) return true;
  }
  return false;
}
