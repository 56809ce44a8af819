/**
 * The one small interface through which the engine and the commands reach an agent kind. Everything
 * true of one kind alone lives in its folder, src/kinds/<kind>/, behind this; kinds/index.ts is the
 * only place that maps a kind's name to its folder. The screens, idle rule and launch argv of a kind
 * are data, in panes/<kind>.yaml; this is the code a kind needs beyond them (docs/kinds.md).
 */
import type { AgentRecord } from '../core/authority/agents.js';
import type { ProbeResult, ProbeTarget } from '../core/capacity/probe.js';
import type { CapacityThresholds } from '../core/capacity/thresholds.js';
import type { Account } from '../core/config/types.js';
import type { Readiness } from '../core/accounts/readiness.js';
import type { ApprovalFlags, Approvals } from '../core/plan/approvals.js';
import type { ProfileKind } from '../adapters/profiles.js';

export interface KindLaunch {
  /** The kind's environment besides the profile and SWARM_*: never anything that answers a screen. */
  env(compact: 'off' | 'auto'): Record<string, string>;
  /**
   * The plan's approvals as this kind's flags (`{approvals}` in panes/<kind>.yaml). `writable`: the
   * folders the agent must be able to write beside its checkout (its spool, the checkout's git
   * folders), for a kind whose sandbox would refuse them.
   */
  approvals(approvals: Approvals, writable: readonly string[]): ApprovalFlags;
  /**
   * A reviewer's flags in place of the plan's approvals (SPEC 10.6): read-only on `checkout`, able to
   * write only its spool (its reports) and run `swarm notify`; `cwd`: where its pane starts (a
   * sandboxed kind starts in its spool and reads the checkout by path). Absent: the kind has no
   * read-only mode swarm knows, and its reviewers run with no approvals added, in the checkout.
   */
  review?(checkout: string, spool: string): ApprovalFlags & { cwd: string };
  /** Refuse a start the CLI would end at once, saying what to do (throws UsageError). */
  check?(account: Pick<Account, 'id' | 'env'>, profileEnv: string | null): void;
  /** `{settings}`: inline settings that wire the kind's signals to swarm, the user's own kept. */
  settings?(swarmBin: string, checkout: string, profile: string | null): string;
  /** `{notify}`: the kind's turn-end callback to swarm, the user's own run after it. */
  notify?(swarmBin: string, profile: string | null): string;
}

/** What an agent's signal handler may touch besides the plan's files: its environment, and the agent (a hook's answer). */
export interface SignalIO {
  readonly env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  /** Who the caller is, injected in-process (tests); the CLI never sets it (commands/io.ts). */
  readonly agent?: AgentRecord;
}

/** `swarm hook <event>`: the hooks or callbacks the kind's CLI calls, wired by its launch. */
export interface KindHooks {
  /** The events it calls (matched without regard to case). */
  readonly events: readonly string[];
  /** Where the CLI passes its JSON: on stdin, or as the last argument (then `--then` may follow the user's own). */
  readonly input: 'stdin' | 'argument';
  /** One call. Throws on input it cannot read: the command journals why and still exits 0. */
  run(event: string, input: string, io: SignalIO): Promise<void>;
}

export interface KindSignals {
  /** What the agent's own files say about its capacity; null when they say nothing (or the kind has none). */
  probe(target: ProbeTarget, thresholds: CapacityThresholds): ProbeResult | null;
  /** Where `swarm doctor` says a reading comes from when `ak` is not asked. */
  readonly source: string;
  /** Whether `ak` is asked first: it knows real CLI profiles, never a simulated account. */
  readonly ak: boolean;
  readonly hooks?: KindHooks;
  /** `swarm statusline`: the CLI's status line JSON recorded; swarm's own line returned. */
  statusLine?(input: string, io: SignalIO): Promise<string>;
}

export interface KindScreens {
  /**
   * Whether the agent waits for input by its own session file (a screen cannot always tell a
   * permission wait from an idle prompt); null when the file says nothing.
   */
  sessionIdle?(profile: string | undefined, sessionId: string): boolean | null;
}

export interface KindReadiness {
  /** Ready to be leased on `checkout`, or why not and what to do. Reads files only, never runs the CLI. */
  check(account: Pick<Account, 'env'>, checkout: string, home: string | undefined): Readiness;
}

export interface Kind {
  readonly name: string;
  /** The published CLI a real account runs (`swarm doctor` looks for it on PATH), or null (sim, command). */
  readonly cli: string | null;
  /** The account folder its CLI keeps sign-in, settings and sessions in (the variable, the default under HOME); null for kinds that sign in nowhere. */
  readonly profile: ProfileKind | null;
  readonly launch: KindLaunch;
  readonly signals: KindSignals;
  readonly screens: KindScreens;
  /** Null: always ready (nothing to sign in to or trust). */
  readonly readiness: KindReadiness | null;
}

/**
 * A kind that needs no code beyond its panes/<kind>.yaml: no profile, no probe, no approvals, always
 * ready. A kind's folder starts from it and fills in what its CLI has.
 */
export function plainKind(name: string): Kind {
  return {
    name,
    cli: null,
    profile: null,
    launch: { env: () => ({}), approvals: () => ({ argv: [], promptAfterDashDash: false }) },
    signals: { probe: () => null, source: 'none', ak: true },
    screens: {},
    readiness: null,
  };
}
