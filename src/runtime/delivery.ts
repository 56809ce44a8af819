/**
 * Pointer lines (SPEC 4.2): after a message lands in an agent's mailbox, the agent is pointed at it
 * with one fixed line — never the text — once its turn has ended, never while a permission, login,
 * consent or payment screen shows, one delivery at a time per pane.
 *
 * How many messages wait unpointed is durable (adapters/pointed.ts), shared with Claude Code's Stop
 * hook, which carries the line as its block reason with no key typed. So a Claude Code lane is typed
 * only when its session state file says `idle` (an idle session fires no Stop), and, before its
 * session is known, when its screen looks idle. A Codex lane is typed only on a positive idle signal:
 * a turn end from its notify hook since the last line, and its composer showing with no menu.
 */
import { reviewedLane } from '../machine/review.js';
import { mailboxPath } from '../core/plan/paths.js';
import { isIdle, matchScreen } from '../core/screens/screens.js';
import { stripAnsi } from '../core/protocol/protocol.js';
import { freshCount, turnEndedSinceTyped, type PointedCounts } from '../core/protocol/pointed.js';
import type { KindSpec } from '../core/config/kindFile.js';
import type { LaneState } from '../machine/types.js';
import { pointerLine } from '../adapters/mailbox.js';
import { loadKind } from '../adapters/kinds.js';
import { readEngineCounts, readStopPointed, writeEngineCounts, type EngineCounts } from '../adapters/pointed.js';
import type { Kinds } from '../kinds/index.js';
import type { SwarmConfig } from '../core/config/config.js';
import type { PaneHost } from '../adapters/host.js';
import type { EngineState } from './engineState.js';

/** What pointing an agent needs of the engine (not the engine: no import cycle). */
export interface DeliveriesEngine {
  readonly config: Pick<SwarmConfig, 'plan' | 'accounts' | 'dir'>;
  readonly state: Pick<EngineState, 'sessions'>;
  readonly env: NodeJS.ProcessEnv;
  readonly kinds: Kinds;
  readonly host: Pick<PaneHost, 'capture' | 'typeLine'>;
  laneOfAgent(agent: string): string | null;
  lane(name: string): LaneState | undefined;
  agentName(lane: LaneState): string;
}

const BLOCKING = new Set(['permission', 'bypass', 'login', 'consent', 'payment']);

export class Deliveries {
  private readonly busy = new Set<string>();
  /**
   * The engine's own counts by agent: read from their file once, then kept as written (the engine is
   * their one writer), so a poke at each screen read costs no file read unless a message waits.
   */
  private readonly own = new Map<string, EngineCounts>();

  constructor(private readonly engine: DeliveriesEngine) {}

  private engineCounts(agent: string): EngineCounts {
    let counts = this.own.get(agent);
    if (counts === undefined) {
      counts = readEngineCounts(this.engine.config.plan, agent);
      this.own.set(agent, counts);
    }
    return counts;
  }

  /** The engine's counts and the Stop hook's, read now (the hook writes from the agent's own process). */
  private pointed(agent: string): PointedCounts {
    return { ...this.engineCounts(agent), stopped: readStopPointed(this.engine.config.plan, agent) };
  }

  /** Keep the engine's counts, and write them; not written, they stay in memory and the next change writes them again. */
  private saveCounts(agent: string, counts: EngineCounts): void {
    this.own.set(agent, counts);
    try {
      writeEngineCounts(this.engine.config.plan, agent, counts);
    } catch {
      // kept in memory: the next delivery or turn end writes them
    }
  }

  /** A message was appended for `agent`: count it and try to point the agent at it. */
  queue(agent: string): void {
    const { stopped, ...counts } = this.pointed(agent);
    this.saveCounts(agent, { ...counts, delivered: Math.max(counts.delivered, counts.typed, stopped) + 1 });
    void this.attempt(agent);
  }

  /** The agent's pane changed (its turn may have ended): try again if anything waits. */
  poke(agent: string): void {
    // Nothing the engine has not typed a line for: nothing waits, whatever the Stop hook counted.
    const own = this.engineCounts(agent);
    if (own.delivered > own.typed && freshCount(this.pointed(agent)) > 0) void this.attempt(agent);
  }

  /** The agent's own turn-end signal (Codex notify): a positive idle signal for the next attempt. */
  turnEnd(agent: string): void {
    const counts = this.engineCounts(agent);
    this.saveCounts(agent, { ...counts, turns: counts.turns + 1 });
    this.poke(agent);
  }

  private async attempt(agent: string): Promise<void> {
    if (this.busy.has(agent)) return;
    const engine = this.engine;
    // A lane's reviewer in flight (SPEC 10.6) goes by `<lane>.review`: its pane is the lane's review's.
    const laneName = engine.laneOfAgent(agent) ?? reviewedLane(agent);
    const lane = laneName ? engine.lane(laneName) : undefined;
    if (!lane || lane.state === 'done') return;
    const reviewer = reviewedLane(agent) === lane.name ? lane.review?.reviewer ?? null : null;
    // The lane's agent, or the lead that was, its pane kept open for a while (machine/retire.ts); a
    // successor lead not yet in office reads its mailbox when it starts.
    const current = reviewer === null && engine.agentName(lane) === agent;
    const retiring = !current && reviewer === null && lane.retiring?.agent === agent ? lane.retiring : null;
    const paneId = reviewer !== null ? reviewer.paneId : current ? lane.paneId : retiring?.paneId ?? null;
    const accountId = reviewer !== null ? reviewer.account : current ? lane.account : retiring?.account ?? null;
    if (!paneId || !accountId) return;
    const account = engine.config.accounts.find((a) => a.id === accountId);
    if (!account) return;
    const kind = loadKind(account.kind, engine.config.dir);
    if (!kind.idle) return; // no idle signal: agents of this kind read their mailbox themselves
    this.busy.add(agent);
    try {
      const screen = stripAnsi(await engine.host.capture(paneId, 0));
      const shown = matchScreen(kind, screen);
      if (shown && BLOCKING.has(shown.screen)) return;
      if (!this.idle(kind, account.env, lane, agent, screen, shown !== null, current)) return;
      const plan = engine.config.plan;
      const counts = this.pointed(agent);
      const count = freshCount(counts);
      if (count === 0) return;
      const landed = await engine.host.typeLine(paneId, pointerLine(count, mailboxPath(plan, agent)));
      if (!landed) return;
      // The line covers what was waiting when it was typed; what came meanwhile (a message, a turn end)
      // is read again, not overwritten with the counts from before the line.
      this.saveCounts(agent, { ...this.engineCounts(agent), typed: counts.delivered, typedTurns: counts.turns });
    } catch {
      // the pane went away; the next pane of this agent is pointed instead
    } finally {
      this.busy.delete(agent);
    }
  }

  /** Whether the agent waits for its next turn, by the kind's structured signals first, the screen last. */
  private idle(kind: KindSpec, env: Record<string, string>, lane: LaneState, agent: string, screen: string, screenShown: boolean, current: boolean): boolean {
    const sessionIdle = this.engine.kinds(kind.kind).screens.sessionIdle;
    // The session record is the lane's current agent's; a retiring pane is judged by its screen.
    if (current && typeof kind.signals.session_state === 'string' && sessionIdle !== undefined) {
      const session = this.engine.state.sessions?.[lane.name];
      if (session && session.generation === lane.generation) {
        const idle = sessionIdle(env[kind.accountEnv ?? ''] ?? this.engine.env[kind.accountEnv ?? ''], session.sessionId);
        if (idle !== null) return idle && !screenShown; // a usage-limit menu is never typed into
      }
    }
    if (kind.signals.notify === true && !turnEndedSinceTyped(this.engineCounts(agent))) return false;
    return isIdle(kind, screen);
  }
}
