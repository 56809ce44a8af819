/**
 * Pointer lines (SPEC 4.2): after a message lands in an agent's mailbox, the agent is typed one fixed
 * line — never the text — once its turn has ended (the kind's idle signal), never while a permission,
 * login, consent or payment screen shows, one delivery at a time per pane.
 */
import { mailboxPath } from '../core/paths.js';
import { isIdle, matchScreen } from '../core/screens.js';
import { stripAnsi } from '../core/protocol.js';
import { pointerLine } from '../adapters/mailbox.js';
import { loadKind } from '../adapters/kinds.js';
import type { Engine } from './engine.js';

const BLOCKING = new Set(['permission', 'bypass', 'login', 'consent', 'payment']);

export class Deliveries {
  private readonly busy = new Set<string>();

  constructor(private readonly engine: Engine) {}

  /** A message was appended for `agent`: count it and try to point the agent at it. */
  queue(agent: string): void {
    const unread = this.engine.state.unread;
    unread[agent] = (unread[agent] ?? 0) + 1;
    void this.attempt(agent);
  }

  /** The agent's pane changed (its turn may have ended): try again if anything waits. */
  poke(agent: string): void {
    if ((this.engine.state.unread[agent] ?? 0) > 0) void this.attempt(agent);
  }

  private async attempt(agent: string): Promise<void> {
    if (this.busy.has(agent)) return;
    const engine = this.engine;
    const laneName = engine.laneOfAgent(agent);
    const lane = laneName ? engine.lane(laneName) : undefined;
    if (!lane || !lane.paneId || !lane.account || lane.state === 'done') return;
    if (engine.agentName(lane) !== agent) return; // a successor lead not yet in office reads its mailbox when it starts
    const account = engine.config.accounts.find((a) => a.id === lane.account);
    if (!account) return;
    const kind = loadKind(account.kind, engine.config.dir);
    if (!kind.idle) return; // no idle signal: agents of this kind read their mailbox themselves
    this.busy.add(agent);
    try {
      const screen = stripAnsi(await engine.host.capture(lane.paneId, 0));
      const shown = matchScreen(kind, screen);
      if (shown && BLOCKING.has(shown.screen)) return;
      if (!isIdle(kind, screen)) return;
      const count = engine.state.unread[agent] ?? 0;
      if (count === 0) return;
      const landed = await engine.host.typeLine(lane.paneId, pointerLine(count, mailboxPath(engine.config.plan, agent)));
      if (landed) engine.state.unread[agent] = 0;
    } catch {
      // the pane went away; the next pane of this agent is pointed instead
    } finally {
      this.busy.delete(agent);
    }
  }
}
