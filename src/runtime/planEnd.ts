/**
 * Carries out the plan-end reducer (core/swarm/planEnd.ts): feeds it the lanes' progress, runs its
 * effects, and holds its one timer, the release deadline, armed from the state (a restart re-arms
 * it). It decides nothing.
 */
import { release } from '../core/epochs.js';
import type { LaneState } from '../machine/types.js';
import { progress, type Progress } from '../core/progress.js';
import { reducePlanEnd, type PlanEnd, type PlanEndEffect, type PlanEndEvent } from '../core/swarm/planEnd.js';
import { updateLeadRecord } from '../adapters/leadStore.js';
import { runNotifyCommand } from './effects.js';
import type { Engine } from './engine.js';
import { isoNow, type ClockTimer } from './clock.js';

export type Finish = (outcome: { code: 0 | 1; why: string }) => void;

export class PlanEnding {
  private timer: ClockTimer | null = null;
  private over = false;

  constructor(private readonly engine: Engine, private readonly untilDone: boolean, private readonly finish: Finish) {}

  /** After each step. The lead record is read only once every lane is done. */
  settled(): void {
    const p = this.progress();
    this.feed({ type: 'settled', progress: p, released: p.kind === 'all_done' && !this.engine.state.allDoneTold && this.released(), untilDone: this.untilDone });
  }

  leadReleased(): void {
    this.feed({ type: 'lead_released', progress: this.progress() });
  }

  laneAdded(): void {
    this.feed({ type: 'lane_added' });
  }

  leadChanged(): void {
    this.feed({ type: 'lead_changed' });
  }

  /** At start: a deadline the saved state says is running is armed again. */
  resume(): void {
    const p = this.progress();
    this.feed({ type: 'resume', progress: p, released: p.kind === 'all_done' && this.released() });
  }

  stop(): void {
    this.over = true;
    this.timer?.cancel();
    this.timer = null;
  }

  private feed(event: PlanEndEvent): void {
    if (this.over) return;
    const s = this.engine.state;
    const current: PlanEnd = { allDoneTold: s.allDoneTold, releaseAt: s.releaseAt ?? null, planDone: s.planDone };
    const { state, effects } = reducePlanEnd(current, event, { now: this.engine.now(), releaseMs: this.engine.config.timeouts.release });
    if (state.allDoneTold !== current.allDoneTold || state.releaseAt !== current.releaseAt || state.planDone !== current.planDone) {
      this.engine.commit(state);
      this.engine.save();
    }
    for (const effect of effects) this.carryOut(effect);
  }

  private carryOut(effect: PlanEndEffect): void {
    const { engine } = this;
    switch (effect.type) {
      case 'tell_lead':
        engine.deliver(engine.leadMailbox(), 'swarm', effect.text);
        return;
      case 'journal':
        engine.journal({ type: effect.kind, event: effect.event, lane: null, ...effect.data });
        return;
      case 'arm_release':
        this.timer?.cancel();
        this.timer = engine.clock.after(effect.at - engine.now(), () => void engine.enqueue(() => this.feed({ type: 'release_due', progress: this.progress() })));
        return;
      case 'disarm_release':
        this.timer?.cancel();
        this.timer = null;
        return;
      case 'release_plan':
        this.releaseRecord(effect.why);
        this.feed({ type: 'record_released' });
        return;
      case 'finish': {
        this.stop();
        const { code, why } = effect;
        if (code === 1) return this.finish({ code, why });
        void engine.enqueue(async () => {
          await runNotifyCommand(engine, { event: 'plan_done', plan: engine.config.plan });
          this.finish({ code, why });
        });
        return;
      }
    }
  }

  /** Release the lead record for its holder if it is still held (idempotent). */
  private releaseRecord(why: string): void {
    const { engine } = this;
    const record = engine.leadRecord();
    if (!record || record.released || !record.lead) return;
    const caller = record.lead;
    updateLeadRecord(engine.config.plan, (current) => release(current, { caller, epoch: record.epoch, now: isoNow(engine.clock) }));
    engine.journal({ type: 'observation', event: 'lead_released', lane: caller, by: 'swarm', why });
  }

  private released(): boolean {
    return this.engine.leadRecord()?.released === true;
  }

  private progress(): Progress {
    const { state } = this.engine;
    const lanes: LaneState[] = state.order.filter((n) => n !== state.leadName).map((n) => state.lanes[n]!);
    return progress(lanes);
  }
}
