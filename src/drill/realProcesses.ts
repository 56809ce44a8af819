/**
 * The CLIs' processes of a `swarm drill --real` run: those whose environment names the run's folder
 * (every pane's process and its children get the profiles' paths). They outlive the tmux server by
 * a moment (Claude Code writes telemetry, Codex its sqlite logs, as they exit), so the run waits for
 * them before it removes the folder, and ends (SIGTERM, then SIGKILL) any still there at the deadline:
 * they are the run's own. Linux /proc only; elsewhere nothing is found and nothing waited for.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids (not this process) whose environment has a value under `root`. */
export function processesUnder(root: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    if (pid === process.pid) return false;
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').some((kv) => kv.slice(kv.indexOf('=') + 1).startsWith(root));
    } catch {
      return false;
    }
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait up to `ms` for them to exit; then SIGTERM, a second, SIGKILL. Returns the pids that had to be ended. */
export async function endProcessesUnder(root: string, ms = 10_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && processesUnder(root).length > 0) await sleep(200);
  const left = processesUnder(root);
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const pids = processesUnder(root);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
    await sleep(1000);
  }
  return left;
}
