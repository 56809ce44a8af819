/**
 * Asks to the lead (SPEC 6), decided for the whole swarm: an ask not answered within `timeouts.ask`
 * counts as one timeout; two in a row mean the lead is unreachable, and it is taken over as if its
 * pane had died. Any message from the lead answers for its liveness and starts the count again. The
 * deadline is derived from the state (the oldest open ask), so a restart re-arms it. Pure.
 */

export const ASKS_BEFORE_TAKEOVER = 2;

export interface Asks {
  /** Asks to the lead not yet answered. */
  asks: { from: string; at: number }[];
  /** How many timed out in a row. */
  askTimeouts: number;
}

export type AskEvent =
  | { type: 'asked'; from: string; at: number }
  /** The lead said something (to `to`, or to all when null). */
  | { type: 'lead_spoke'; to: string | null }
  | { type: 'ask_due' };

export type AskEffect =
  | { type: 'journal'; kind: 'observation' | 'intervention'; event: 'ask_timeout' | 'lead_unreachable'; lane: string; data: Record<string, unknown> }
  /** Take the lead over as if its pane had died: the lead lane hears `exited`, and the pane is killed. */
  | { type: 'take_over'; paneId: string };

export interface AskContext {
  now: number;
  /** timeouts.ask (ms). */
  askMs: number;
  /** The name the lead goes by, and its lane. */
  leadAgent: string;
  leadName: string;
  /** The lead's current pane and generation; null when it has none. */
  lead: { paneId: string | null; generation: number } | null;
}

export interface AskStep {
  state: Asks;
  effects: AskEffect[];
}

/** When the oldest open ask times out; null when none is open. */
export function askDeadline(state: Asks, askMs: number): number | null {
  return state.asks.length === 0 ? null : Math.min(...state.asks.map((a) => a.at)) + askMs;
}

export function reduceAsks(state: Asks, event: AskEvent, ctx: AskContext): AskStep {
  switch (event.type) {
    case 'asked':
      return { state: { ...state, asks: [...state.asks, { from: event.from, at: event.at }] }, effects: [] };
    case 'lead_spoke': {
      const asks = !event.to ? state.asks : state.asks.filter((a) => a.from !== event.to);
      return { state: { asks, askTimeouts: 0 }, effects: [] };
    }
    case 'ask_due':
      return expire(state, ctx);
  }
}

function expire(state: Asks, ctx: AskContext): AskStep {
  const limit = ctx.now - ctx.askMs;
  const effects: AskEffect[] = [];
  let askTimeouts = state.askTimeouts;
  for (const ask of state.asks.filter((a) => a.at <= limit)) {
    askTimeouts += 1;
    effects.push({ type: 'journal', kind: 'observation', event: 'ask_timeout', lane: ask.from, data: { to: ctx.leadAgent, count: askTimeouts } });
  }
  const asks = state.asks.filter((a) => a.at > limit);
  const paneId = ctx.lead?.paneId ?? null;
  if (askTimeouts < ASKS_BEFORE_TAKEOVER || paneId === null) return { state: { asks, askTimeouts }, effects };
  effects.push(
    {
      type: 'journal', kind: 'intervention', event: 'lead_unreachable', lane: ctx.leadName,
      data: { generation: ctx.lead!.generation, why: `${ASKS_BEFORE_TAKEOVER} asks to ${ctx.leadAgent} timed out` },
    },
    { type: 'take_over', paneId },
  );
  return { state: { asks, askTimeouts: 0 }, effects };
}
