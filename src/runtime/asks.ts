/**
 * Asks to the lead (SPEC 6): an ask not answered within `timeouts.ask` counts as one timeout; two
 * in a row mean the lead is unreachable, and it is taken over as if its pane had died. Any message
 * from the lead answers for its liveness and starts the count again.
 */
import type { Engine } from './engine.js';
import { safeTimeout } from './timers.js';

export const ASKS_BEFORE_TAKEOVER = 2;

export class LeadAsks {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly engine: Engine) {}

  /** A lane asked the lead something. */
  asked(from: string, at: number): void {
    this.engine.state.asks.push({ from, at });
    this.arm();
  }

  /** The lead said something: it is alive; its answers clear the asker's open asks. */
  leadSpoke(to: string | null): void {
    const state = this.engine.state;
    state.askTimeouts = 0;
    if (to) state.asks = state.asks.filter((a) => a.from !== to);
    this.arm();
  }

  arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { asks } = this.engine.state;
    if (this.stopped || asks.length === 0) return;
    const due = Math.min(...asks.map((a) => a.at)) + this.engine.config.timeouts.ask;
    this.timer = safeTimeout(() => void this.engine.enqueue(() => this.expire()), Math.max(0, due - this.engine.now()));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private expire(): void {
    const { engine } = this;
    const { state } = engine;
    const limit = engine.now() - engine.config.timeouts.ask;
    const expired = state.asks.filter((a) => a.at <= limit);
    state.asks = state.asks.filter((a) => a.at > limit);
    for (const ask of expired) {
      state.askTimeouts += 1;
      engine.journal({ type: 'observation', event: 'ask_timeout', lane: ask.from, to: state.leadAgent, count: state.askTimeouts });
    }
    const lead = engine.lane(state.leadName);
    if (state.askTimeouts >= ASKS_BEFORE_TAKEOVER && lead?.paneId) {
      state.askTimeouts = 0;
      const paneId = lead.paneId;
      engine.journal({ type: 'intervention', event: 'lead_unreachable', lane: state.leadName, generation: lead.generation, why: `${ASKS_BEFORE_TAKEOVER} asks to ${state.leadAgent} timed out` });
      engine.dispatch(state.leadName, { type: 'exited', paneId, status: null, tail: 'unreachable: asks to the lead timed out' });
      void engine.host.kill(paneId).catch(() => undefined);
    }
    engine.save();
    this.arm();
  }
}
