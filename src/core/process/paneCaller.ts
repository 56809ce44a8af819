/**
 * Is the caller inside a pane of the swarm (SPEC 8: `swarm answer` is refused there)? An agent can
 * unset any variable, but not leave its pane's process tree or its terminal, so the answer comes
 * from facts an environment cannot change. Pure: the facts are gathered by adapters/callerProcess.ts.
 *
 * Inside when an ancestor of the caller is a pane's process, the swarm's tmux server, or the engine
 * holding the plan's lock (pty backend: panes are its children); or when the caller's controlling
 * terminal, or a terminal on its standard input, output or error, is a pane's terminal.
 */
export interface CallerFacts {
  /** The caller's pid, then its parent's, up to pid 1. */
  ancestors: readonly number[];
  /** Device numbers of the caller's controlling terminal and of the terminals on fds 0, 1 and 2. */
  ttys: readonly number[];
}

export interface SwarmProcesses {
  /** The swarm's tmux server(s) that are running. */
  servers: readonly number[];
  /** The engine holding the plan's lock, when alive on this host. */
  engine: number | null;
  /** Every pane of those servers: its first process and its terminal (device number when known). */
  panes: readonly { pid: number; tty: number | null; ttyPath: string }[];
}

export type PaneVerdict = { inside: false } | { inside: true; why: string };

export function paneCaller(caller: CallerFacts, swarm: SwarmProcesses): PaneVerdict {
  for (const pid of caller.ancestors) {
    const pane = swarm.panes.find((p) => p.pid === pid);
    if (pane) return { inside: true, why: `it runs under the process of the swarm pane on ${pane.ttyPath} (pid ${pid})` };
    if (swarm.servers.includes(pid)) return { inside: true, why: `it runs under the swarm's tmux server (pid ${pid})` };
    if (swarm.engine === pid) return { inside: true, why: `it runs under the swarm engine (pid ${pid}), as its panes do` };
  }
  for (const tty of caller.ttys) {
    const pane = swarm.panes.find((p) => p.tty !== null && p.tty === tty);
    if (pane) return { inside: true, why: `its terminal ${pane.ttyPath} is a swarm pane's` };
  }
  return { inside: false };
}
