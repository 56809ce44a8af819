/** The shape of a loaded swarm.yaml (SPEC 3), and what parsing it needs and returns. Types only. */
import type { Thresholds } from '../capacity/thresholds.js';

export type Backend = 'auto' | 'tmux' | 'pty';

export interface Account {
  id: string;
  kind: string;
  vendor: string;
  /** Profile location only (never a secret); `~` already expanded. */
  env: Record<string, string>;
  akProfile: string | null;
}

/** A command override: a string runs through `sh -c`, a list is argv. */
export type CommandSpec = string | string[] | null;

export interface LeadSpec {
  name: string;
  account: string;
  /** Absolute. */
  checkout: string;
  command: CommandSpec;
  succession: string[];
  /** True when swarm.yaml gave no `succession:` and `succession` is the default (SPEC 10.5). */
  successionDefault?: boolean;
}

export interface LaneSpec {
  name: string;
  /** Absolute. */
  checkout: string;
  task: string;
  account: string | null;
  command: CommandSpec;
  doneWhen: string | null;
  /** `after:` (SPEC 10.6): the lanes that must be done before this one starts; absent for none. */
  after?: string[];
  /** `review:` (SPEC 10.6): reviewed by another vendor before it is done; absent for none. */
  review?: ReviewSpec;
  /**
   * `host:` (SPEC 10.9): the declared host the lane runs on; absent: this machine. With a host,
   * `checkout` is an absolute path on that host, as written (never resolved or looked at here).
   */
  host?: string;
}

/** One entry of `hosts:` (SPEC 10.9): how `ssh` reaches it. */
export interface HostSpec {
  name: string;
  /** The destination: `user@host`, or a Host of the user's ssh config. */
  ssh: string;
  port: number | null;
  /** Absolute, or `~`-relative as written: expanded against HOME only when ssh runs. */
  identity: string | null;
  /** `KEY=VALUE`, each given to ssh as `-o KEY=VALUE`. */
  options: string[];
}

/** `review: true` or `review: {kind: K, command: C}`: the reviewer's kind (null: any of another vendor) and command (null: its kind's launch). */
export interface ReviewSpec {
  kind: string | null;
  command: CommandSpec;
}

/** Durations in milliseconds. */
export interface Timeouts {
  accept: number;
  packet: number;
  stall: number;
  ask: number;
  release: number;
}

export interface SwarmConfig {
  version: 1;
  name: string;
  /** Absolute path of swarm.yaml. */
  file: string;
  /** Absolute folder of swarm.yaml; relative paths resolve against it. */
  dir: string;
  /** Absolute plan directory. */
  plan: string;
  backend: Backend;
  accounts: Account[];
  lead: LeadSpec;
  lanes: LaneSpec[];
  maxLanes: number;
  /** `max_asks` (SPEC 10.6): how many of a lane's asks may be open at once. */
  maxAsks: number;
  /** `max_reviews` (SPEC 10.6): review rounds of changes before one escalation. */
  maxReviews: number;
  thresholds: Thresholds;
  timeouts: Timeouts;
  notifyCommand: string | null;
  /** `pass_env`: variables of swarm's environment panes may see although they look like credentials. */
  passEnv: string[];
  /** `base:` (SPEC 10.5): the plan's base branch; null: the lead checkout's branch when the run begins. */
  base: string | null;
  /** `hosts:` (SPEC 10.9), in file order; absent when the file declares none. */
  hosts?: HostSpec[];
}

/** What the rules need to know about the disk and the environment, passed in. */
export interface ConfigFacts {
  /** True when the absolute path is an existing directory. */
  isDirectory(path: string): boolean;
  /** True when `panes/<kind>.yaml` exists beside the file or among the shipped kinds. */
  kindExists(kind: string): boolean;
  /** False when the kind has no launch of its own (`launch: null`: lanes on it need a `command:`); undefined when unknown. */
  kindLaunches?(kind: string): boolean | undefined;
  /** The absolute path with every symlink followed (itself when it cannot be resolved); absent: paths as written. */
  realPath?(path: string): string;
  /** For `~` expansion. */
  home: string;
  /** For AGENTKIT_CAPACITY_LOW / AGENTKIT_CAPACITY_CRITICAL. */
  env: Readonly<Record<string, string | undefined>>;
}

export interface ConfigProblem {
  line: number;
  col: number;
  message: string;
}

export type ConfigResult =
  | { ok: true; config: SwarmConfig }
  | { ok: false; problems: ConfigProblem[] };
