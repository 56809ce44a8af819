/**
 * Carries out the asks reducer (core/swarm/asks.ts): feeds it asks, the lead's words and the ask
 * deadline, runs its effects, and holds one timer for the deadline the state implies (the oldest
 * open ask), so a restart re-arms it from the state file. It decides nothing.
 */
import { askDeadline, reduceAsks, type AskEffect, type AskEvent } from '../core/swarm/asks.js';
import type { JournalInput } from '../adapters/journal.js';
import type { LaneEvent, LaneState } from '../machine/types.js';
import type { EngineState } from './engineState.js';
import type { Clock, ClockTimer } from './clock.js';

/** What the asks need of the engine (not the engine itself: no import cycle). */
export interface AsksEngine {
  readonly state: EngineState;
  readonly config: { timeouts: { ask: number } };
  readonly host: { kill(paneId: string): Promise<void> };
  readonly clock: Clock;
  now(): number;
  enqueue(job: () => void): unknown;
  lane(name: string): LaneState | undefined;
  journal(input: JournalInput): unknown;
  dispatch(lane: string, event: LaneEvent): void;
  commit(patch: Pick<EngineState, 'asks' | 'askTimeouts'>): void;
  save(): void;
}

export class LeadAsks {
  private timer: ClockTimer | null = null;
  private stopped = false;

  constructor(private readonly engine: AsksEngine) {}

  /** A lane asked the lead something. */
  asked(from: string, at: number): void {
    this.feed({ type: 'asked', from, at });
  }

  /** The lead said something: it is alive; its answers clear the asker's open asks. */
  leadSpoke(to: string | null): void {
    this.feed({ type: 'lead_spoke', to });
  }

  /** Arm the timer for the deadline the state implies (after a restart too). */
  arm(): void {
    this.timer?.cancel();
    this.timer = null;
    const due = askDeadline(this.engine.state, this.engine.config.timeouts.ask);
    if (this.stopped || due === null) return;
    this.timer = this.engine.clock.after(Math.max(0, due - this.engine.now()), () => void this.engine.enqueue(() => this.feed({ type: 'ask_due' })));
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private feed(event: AskEvent): void {
    const { engine } = this;
    const { state } = engine;
    const lead = event.type === 'ask_due' ? engine.lane(state.leadName) : undefined; // only a deadline takes the lead over
    const { state: next, effects } = reduceAsks({ asks: state.asks, askTimeouts: state.askTimeouts }, event, {
      now: engine.now(), askMs: engine.config.timeouts.ask, leadAgent: state.leadAgent, leadName: state.leadName,
      lead: lead ? { paneId: lead.paneId, generation: lead.generation } : null,
    });
    engine.commit({ asks: next.asks, askTimeouts: next.askTimeouts });
    for (const effect of effects) this.carryOut(effect);
    if (event.type === 'ask_due') engine.save();
    this.arm();
  }

  private carryOut(effect: AskEffect): void {
    const { engine } = this;
    switch (effect.type) {
      case 'journal':
        engine.journal({ type: effect.kind, event: effect.event, lane: effect.lane, ...effect.data });
        return;
      case 'take_over':
        engine.dispatch(engine.state.leadName, { type: 'exited', paneId: effect.paneId, status: null, tail: 'unreachable: asks to the lead timed out' });
        void engine.host.kill(effect.paneId).catch(() => undefined);
        return;
    }
  }
}
