/**
 * Deaths tmux has not finished telling. tmux marks a pane dead when its terminal closes and learns
 * the exit status when it reaps the process. tmux 3.3a sometimes misses that SIGCHLD (the agent
 * stays a zombie until some other child of the server ends), so a dead pane without a status makes
 * tmux run a trivial job, whose exit makes it reap every zombie; a deadline then reads the pane once.
 */

/** tmux checks subscriptions once a second: a status not known after this will not come. */
const UNSETTLED_MS = 2500;

export interface UnsettledIO {
  /** Make tmux run a job that ends at once (its SIGCHLD reaps every zombie). */
  nudge(): Promise<unknown>;
  /** The pane's exit status as tmux lists it now (null: unknown, or the pane is gone). */
  statusOf(paneId: string): Promise<number | null>;
  /** The death, with whatever status was found. */
  died(paneId: string, status: number | null): void;
}

export class UnsettledDeaths {
  private readonly waiting = new Map<string, NodeJS.Timeout>();

  constructor(private readonly io: UnsettledIO) {}

  has(paneId: string): boolean {
    return this.waiting.has(paneId);
  }

  /** A dead pane with no status yet: nudge tmux, and read the pane once the deadline passes. */
  wait(paneId: string): void {
    this.io.nudge().catch(() => undefined);
    this.waiting.set(paneId, setTimeout(() => {
      this.waiting.delete(paneId);
      void this.io.statusOf(paneId).then((status) => this.io.died(paneId, status), () => this.io.died(paneId, null));
    }, UNSETTLED_MS));
  }

  /** Its death was told: no read is due. */
  settled(paneId: string): void {
    clearTimeout(this.waiting.get(paneId));
    this.waiting.delete(paneId);
  }

  stop(): void {
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }
}
