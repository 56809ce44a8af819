/**
 * Where agents run: a tmux server on a private socket, or embedded pseudo-terminals. The engine
 * sees only this interface; both hosts pass the same scenario tests.
 */

import type { SessionFound } from '../core/plan/sessionOwner.js';
import type { ProcessId } from '../core/process/procStat.js';
import type { GateThere } from './gate.js';
import type { GitState } from './git.js';

/** What the engine asks a host to start: one agent, launched directly as the pane's command. */
export interface PaneSpec {
  lane: string;
  generation: number;
  account: string;
  role: 'lead' | 'lane' | 'reviewer';
  cwd: string;
  /** argv of the agent; never typed into a shell. */
  argv: string[];
  /**
   * The pane's whole environment (core/launch/paneEnv.ts): the host starts the agent with exactly this,
   * plus only what its terminal sets itself (TERM; under tmux TMUX, TMUX_PANE, TERM_PROGRAM*).
   */
  env: Record<string, string>;
  /** `<lane> g<generation> @<account>`: border and title. */
  title: string;
}

export interface PaneInfo {
  paneId: string;
  lane: string;
  generation: number;
  account: string;
  dead: boolean;
  /** Exit status once dead (null while alive, or when unknown). */
  deadStatus: number | null;
  /** The signal that ended it, once dead, where the host can tell. */
  deadSignal?: number;
  pid: number | null;
  /**
   * For a pane of another host (SPEC 10.9): its process as that host's /proc knows it, and that host's
   * name and pid namespace, for the agent's record there. Absent for this machine's panes (read here).
   */
  process?: ProcessId | null;
  where?: { host: string; pidns: string | null };
}

export type HostEvent =
  /** The pane printed something: treat as "this pane changed", read the screen on demand. */
  | { type: 'output'; paneId: string }
  /**
   * The pane printed and is printing (core/screens/outputEdges.ts): a host that tells this tells `quiet`
   * when the pane stops, and `printing` again at least every second meanwhile, instead of an
   * `output` per redraw.
   */
  | { type: 'printing'; paneId: string }
  /** A printing pane has printed nothing for `quietMs`. */
  | { type: 'quiet'; paneId: string; quietMs: number }
  /** The agent's process ended; the pane stays (remain-on-exit) until closed. */
  /** `signal`: the signal that ended the agent, where the host can tell (a kill from outside is not the agent's own exit). */
  | { type: 'exited'; paneId: string; status: number | null; signal?: number | null }
  /** The pane is gone with no death told (closed from outside: `tmux kill-pane`); its agent went with it. */
  | { type: 'gone'; paneId: string }
  /** The host connection was lost (tmux server gone). */
  | { type: 'lost'; reason: string }
  /**
   * The connection to another host (SPEC 10.9) changed: `lost` (tried again, RECONNECT_AT_MS),
   * `back`, or `gone` (not back after three tries: its panes are told gone, that host's lanes only).
   */
  | { type: 'connection'; host: string; state: 'lost' | 'back' | 'gone'; reason: string };

/**
 * The session a host works in, where other swarms can reach it (a tmux server): whose it is
 * (core/plan/sessionOwner.ts) and the stamp that makes it this plan's.
 */
export interface SessionOwnership {
  readonly session: string;
  readonly socket: string;
  found(): Promise<SessionFound>;
  stamp(): Promise<void>;
}

export interface PaneHost {
  readonly kind: 'tmux' | 'pty';
  /** Set where the session could be another plan's (tmux); a plan acts only on its own. */
  readonly ownership?: SessionOwnership;
  /** Create or join the session; idempotent. */
  start(): Promise<void>;
  /**
   * How `start` made the tmux server's session, when it made it (SPEC 10.8): in a systemd user scope or
   * plainly, and a note to tell once (systemd-run failed, so a logout may end the server); absent or null: nothing to tell.
   */
  readonly serverStart?: { scoped: boolean; note: string | null } | null;
  /**
   * Why the host can no longer be reached (its server died, or was replaced, after `start` reached
   * it), else null. Asked when a command fails before any event could tell (a start cut short).
   */
  unreachable?(): Promise<string | null>;
  spawn(spec: PaneSpec): Promise<PaneInfo>;
  /** Every pane carrying swarm identity, live or dead (for re-adoption after a restart). */
  list(): Promise<PaneInfo[]>;
  /** The pane's visible screen plus up to `history` lines of scrollback, as plain text (no escapes). */
  capture(paneId: string, history?: number): Promise<string>;
  /**
   * Type one line and press Enter as a separate step, confirming the Enter landed (retrying once or
   * twice). Resolves false when the pane is gone or the line never landed.
   */
  typeLine(paneId: string, line: string): Promise<boolean>;
  /** End the pane's process and remove the pane. */
  kill(paneId: string): Promise<void>;
  /**
   * Give a live pane another agent's identity (a lane's agent promoted to lead in place: SPEC 10.5), so
   * a restart finds it as the lead's. Idempotent.
   */
  relabel(paneId: string, as: { lane: string; generation: number; account: string; role: 'lead' | 'lane' }): Promise<void>;
  /**
   * Where agents run on several hosts (SPEC 10.9): the environment agent `agent` starts from, its
   * host's own (null, or absent: swarm's), and `publish`, which makes the plan's files its agent
   * reads current on its host (its record, written once its pane started).
   */
  agentEnv?(agent: string): NodeJS.ProcessEnv | null;
  publish?(agent: string): Promise<void>;
  /** Why agent `agent`'s host cannot be reached now (another host, SPEC 10.9), else null. */
  hostDown?(agent: string): string | null;
  /** How a lane's `done_when` runs in its checkout on its host (adapters/gate.ts); null for this machine's (run here). */
  gateThere?(agent: string, checkout: string, command: string, run: string): GateThere | null;
  /** A checkout's git state read on agent `agent`'s host; null for this machine's (read here). */
  gitState?(agent: string, checkout: string): Promise<GitState | null>;
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Stop listening; panes keep running where the host allows it (tmux). */
  detach(): Promise<void>;
  /** End every pane and the session (swarm down). */
  destroy(): Promise<void>;
}
