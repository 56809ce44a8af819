/**
 * Pane events → lane events. `%output` means "this pane changed": the screen is read when the output
 * settles (and at most every few seconds while it floods; core/screenCadence.ts decides when) and
 * matched against the kind's screens; activity reaches the machine only when it is news for the stall
 * clock (core/screenCadence.ts `activityDue`). Deaths become `exited`.
 */
import { lastWords, matchScreen, screenLines, type ScreenMatch } from '../core/screens.js';
import { stripAnsi } from '../core/protocol.js';
import { START_SCREENS, type ScreenClass, type StartScreen } from '../machine/types.js';
import type { KindSpec } from '../core/kind.js';
import type { HostEvent } from '../adapters/host.js';
import { loadKind } from '../adapters/kinds.js';
import { activityDue, nextScreenRead, SCREEN_CADENCE, type PaneOutput } from '../core/screenCadence.js';
import type { Engine } from './engine.js';

export class PaneWatch {
  private readonly screens = new Map<string, ScreenClass | null>();
  private readonly pending = new Map<string, { settle: NodeJS.Timeout; maxWait: NodeJS.Timeout }>();
  private readonly outputs = new Map<string, PaneOutput>();
  private readonly lastActivity = new Map<string, number>();
  /** Deaths of panes no lane had yet (pane id → exit status). */
  private readonly exitedUnowned = new Map<string, number | null>();

  constructor(private readonly engine: Engine) {}

  handle(event: HostEvent): void {
    if (event.type === 'lost') return; // the run's to handle (runEnd.ts)
    const owner = this.owner(event.paneId);
    if (!owner) {
      // An agent can die before its pane is recorded as the lane's: kept, and told once it is (poke).
      if (event.type === 'exited') this.exitedUnowned.set(event.paneId, event.status);
      return;
    }
    if (event.type === 'exited') {
      this.disarm(event.paneId);
      this.outputs.delete(event.paneId);
      void this.exited(owner.lane, event.paneId, event.status);
      return;
    }
    const now = this.engine.now();
    const lane = this.engine.state.lanes[owner.lane];
    if (owner.current && lane) {
      const view = { state: lane.state, stallNudged: lane.stallNudged, blockedClass: lane.blocked?.class ?? null, stallMs: this.engine.config.timeouts.stall };
      if (activityDue(view, this.lastActivity.get(owner.lane) ?? null, now)) {
        this.lastActivity.set(owner.lane, now);
        this.engine.dispatch(owner.lane, { type: 'output' });
      }
    }
    const seen = this.outputs.get(event.paneId);
    this.outputs.set(event.paneId, { lastOutput: now, firstUnread: seen?.firstUnread ?? now, lastRead: seen?.lastRead ?? null });
    this.arm(event.paneId, owner.lane, owner.current);
  }

  /**
   * Wake when the cadence may say "read": a settle timer pushed back by every output (refresh(): no
   * new timer and no wake-up while a pane floods), and one max-wait timer per unread stretch.
   */
  private arm(paneId: string, lane: string, current: boolean): void {
    const timers = this.pending.get(paneId);
    if (timers) {
      timers.settle.refresh();
      return;
    }
    const fire = () => this.due(paneId, lane, current);
    this.pending.set(paneId, { settle: setTimeout(fire, SCREEN_CADENCE.settleMs), maxWait: setTimeout(fire, SCREEN_CADENCE.maxWaitMs) });
  }

  private due(paneId: string, lane: string, current: boolean): void {
    this.disarm(paneId);
    const pane = this.outputs.get(paneId);
    const at = pane ? nextScreenRead(pane) : null;
    if (!pane || at === null) return;
    const now = this.engine.now();
    if (now < at) {
      // Too soon after the last read: wake again when it is not.
      const fire = () => this.due(paneId, lane, current);
      const wait = Math.max(1, at - now);
      this.pending.set(paneId, { settle: setTimeout(fire, wait), maxWait: setTimeout(fire, Math.max(wait, SCREEN_CADENCE.maxWaitMs)) });
      return;
    }
    this.outputs.set(paneId, { ...pane, firstUnread: null, lastRead: now });
    void this.readScreen(lane, paneId, current);
  }

  private disarm(paneId: string): void {
    const timers = this.pending.get(paneId);
    if (!timers) return;
    clearTimeout(timers.settle);
    clearTimeout(timers.maxWait);
    this.pending.delete(paneId);
  }

  /** Read a pane's screen soon, as if it had printed something (a pane just assigned to a lane). */
  poke(paneId: string): void {
    const status = this.exitedUnowned.get(paneId);
    if (status !== undefined) {
      this.exitedUnowned.delete(paneId);
      this.handle({ type: 'exited', paneId, status });
      return;
    }
    this.handle({ type: 'output', paneId });
  }

  stop(): void {
    for (const paneId of [...this.pending.keys()]) this.disarm(paneId);
    this.outputs.clear();
    this.exitedUnowned.clear();
  }

  /** Which lane a pane serves: its current agent, or a successor in flight. */
  private owner(paneId: string): { lane: string; current: boolean } | null {
    for (const [name, lane] of Object.entries(this.engine.state.lanes)) {
      if (lane.paneId === paneId) return { lane: name, current: true };
      if (lane.handoff?.successor?.paneId === paneId) return { lane: name, current: false };
    }
    return null;
  }

  private async readScreen(laneName: string, paneId: string, current: boolean): Promise<void> {
    const lane = this.engine.lane(laneName);
    const account = lane && this.engine.config.accounts.find((a) => a.id === (current ? lane.account : lane.handoff?.successor?.account));
    if (!lane || !account) return;
    let text: string;
    try {
      text = stripAnsi(await this.engine.host.capture(paneId, 0));
    } catch {
      return;
    }
    const kind = loadKind(account.kind, this.engine.config.dir);
    const found = matchScreen(kind, text);
    const screen = found?.screen ?? null;
    if (!current) {
      // A successor is only watched for the screens that stop it at its start: its account is not ready.
      const start = startScreen(kind, text, found);
      const s = lane.handoff?.successor;
      if (start && s) {
        const lines = screenLines(text, 10).join('\n');
        this.engine.dispatch(laneName, { type: 'successor_screen', generation: s.generation, account: s.account, paneId, ...start, lines });
      }
      return;
    }
    if ((this.screens.get(paneId) ?? null) !== screen) {
      this.screens.set(paneId, screen);
      this.engine.dispatch(laneName, found ? { type: 'screen', screen, text: found.text } : { type: 'screen', screen: null });
    }
    this.engine.deliveries.poke(this.engine.agentName(lane));
  }

  private async exited(laneName: string, paneId: string, status: number | null): Promise<void> {
    let tail = '';
    try {
      tail = lastWords(await this.engine.host.capture(paneId, 20));
    } catch {
      // gone already
    }
    this.engine.dispatch(laneName, { type: 'exited', paneId, status, tail });
  }
}

/** A screen that stops a successor at its start (issue 9 §5), or null: a blocking screen, or the kind's offline text. */
function startScreen(kind: KindSpec, text: string, found: ScreenMatch | null): { screen: StartScreen; text: string } | null {
  if (found && (START_SCREENS as readonly string[]).includes(found.screen)) return { screen: found.screen as StartScreen, text: found.text };
  const lines = screenLines(text);
  const offline = lines.filter((line) => kind.screens.offline.some((re) => re.test(line)));
  return offline.length > 0 ? { screen: 'offline', text: offline.slice(-3).join('\n') } : null;
}
