/**
 * The engine's writes of the plan's files (journal, mailboxes, state) when the file system refuses
 * them (unwritable folder, full disk, immutable file: SPEC 8's exit 5). Nothing is dropped: appends
 * wait in memory, in order, and the state is kept; the fault is told once; writes are tried again on a
 * backoff until they land, then the engine carries on. A step waits here before its effects run, so a
 * saved intent still comes before the work it records. The backoff runs on the swarm's one clock.
 */
import { planFilesFault, type PlanFilesError } from '../errors.js';
import type { Clock, ClockTimer } from './clock.js';

export interface PlanWritesHooks {
  saveState: () => void;
  /** The first refusal of an episode. */
  onFault: (fault: PlanFilesError) => void;
  /** Everything written again after `since` (epoch ms). */
  onRecovered: (fault: PlanFilesError, since: number) => void;
  /** The swarm's clock: the backoff's waits and the fault's times. */
  clock: Clock;
  /** The run's clock, for a soft change's save (a deadline of the run, not a pace of the file system); default `clock`. */
  runClock?: Clock;
}

const FIRST_WAIT_MS = 250;
/**
 * How long a change the agents' files rebuild may wait for its save (the ledger's: SPEC 10.7). A save
 * of the whole state with its fsync is what the ledger cost the engine most (bench/ledger.mjs: every
 * 30 s, 16 streaming lanes' engine spent ~25 % more; every 10 minutes, nothing measurable). Any other
 * step saves it sooner; `swarm up` saves it as it ends; `swarm status` folds what was not saved yet
 * from the agents' files itself (runtime/ledgerNow.ts).
 */
export const SOFT_SAVE_MS = 5 * 60_000;
const LONGEST_WAIT_MS = 5000;

export class PlanWrites {
  private readonly unwritten: (() => void)[] = [];
  private stateDirty = false;
  private wait = FIRST_WAIT_MS;
  private timer: ClockTimer | null = null;
  /** Waits in progress (settled, persistently): ended at once by stop. */
  private readonly pauses = new Set<{ timer: ClockTimer; resolve: () => void }>();
  private stopped = false;
  /** A soft change waits for its save: the next save writes it, or this timer does. */
  private soft: ClockTimer | null = null;
  /** The refusal in progress, and since when; null while writes land. */
  fault: { error: PlanFilesError; since: number } | null = null;

  constructor(private readonly hooks: PlanWritesHooks) {}

  /** An append (journal line, mailbox message): written now, or after those still waiting. */
  append(write: () => void): void {
    this.unwritten.push(write);
    this.flush();
  }

  /** The state changed: save it now, or as soon as the file system lets us. */
  save(): void {
    this.soft?.cancel();
    this.soft = null;
    this.stateDirty = true;
    this.flush();
  }

  /**
   * The state changed in a way the agents' spools rebuild if it is lost (the ledger's figures, and how
   * far spools of nothing but usage records were read: read again, they fold to the same): saved with
   * the next save, or within SOFT_SAVE_MS, so a busy night's usage records cost no save each.
   */
  saveSoon(): void {
    if (this.soft !== null || this.stopped) return;
    this.soft = (this.hooks.runClock ?? this.hooks.clock).after(SOFT_SAVE_MS, () => {
      this.soft = null;
      this.save();
    });
  }

  /** Write whatever waits, in order; true when nothing is left. A refusal is kept, never thrown. */
  flush(): boolean {
    try {
      while (this.unwritten.length > 0) {
        this.unwritten[0]!();
        this.unwritten.shift();
      }
      if (this.stateDirty) {
        this.hooks.saveState();
        this.stateDirty = false;
      }
    } catch (error) {
      this.refused(error);
      return false;
    }
    if (this.fault) this.recovered();
    return true;
  }

  /** Resolves once everything is written; while refused, tries again on the backoff. */
  async settled(): Promise<void> {
    while (!this.flush()) await this.pause();
  }

  /** Run `work` (an effect); while the file system refuses it, wait and run it again (effects are idempotent). */
  async persistently<T>(work: () => Promise<T> | T): Promise<T> {
    for (;;) {
      try {
        const result = await work();
        if (this.fault) this.flush();
        return result;
      } catch (error) {
        this.refused(error);
        await this.pause();
      }
    }
  }

  /** Shutting down: a soft change is saved now; waits end (with the fault), the retry timer goes. */
  stop(): void {
    if (this.soft !== null) this.save();
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
    for (const pause of this.pauses) {
      pause.timer.cancel();
      pause.resolve();
    }
    this.pauses.clear();
  }

  private refused(error: unknown): void {
    const fault = planFilesFault(error);
    if (!fault) throw error;
    if (this.fault === null) {
      this.fault = { error: fault, since: this.hooks.clock.now() };
      this.hooks.onFault(fault);
    }
    // Nothing else may come along to write: try again on the backoff by ourselves.
    if (this.timer === null && !this.stopped) {
      this.timer = this.hooks.clock.after(this.wait, () => {
        this.timer = null;
        this.flush();
      });
    }
  }

  private recovered(): void {
    const fault = this.fault!;
    this.fault = null;
    this.wait = FIRST_WAIT_MS;
    this.timer?.cancel();
    this.timer = null;
    this.hooks.onRecovered(fault.error, fault.since);
  }

  private async pause(): Promise<void> {
    if (this.stopped && this.fault) throw this.fault.error;
    const ms = this.wait;
    this.wait = Math.min(this.wait * 2, LONGEST_WAIT_MS);
    await new Promise<void>((resolve) => {
      const pause = { timer: this.hooks.clock.after(ms, () => { this.pauses.delete(pause); resolve(); }), resolve };
      this.pauses.add(pause);
    });
    if (this.stopped && this.fault) throw this.fault.error;
  }
}
