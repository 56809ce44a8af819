/**
 * What a host tells of a pane's output while agents never stop drawing: not every
 * redraw, only its edges. A pane starts printing (`printing`), goes on printing (`printing` again
 * every `heartbeatMs`, so whoever listens still learns it is at work), and stops (`quiet`, with how
 * long it has been quiet already). The tmux host reads its control connection in rests of 10–100 ms
 * while panes print (adapters/tmux/control.ts, core/screens/pipeRest.ts); each read names the panes that printed in it, and
 * a pane missing from a read `quietMs` or more after it was last seen has stopped. So sixteen
 * agents redrawing twelve times a second cost the engine 32 events a second, not 190.
 */

export interface OutputEdgeTiming {
  /**
   * Not seen for this long at a read: quiet. A little under the reader's light rest (100 ms), so one
   * look that finds nothing is enough; over a redraw's gap (12 a second: 83 ms), so a read between
   * looks (a command's reply, a flood's short rests) does not find a printing pane quiet.
   */
  readonly quietMs: number;
  /** A pane printing all along is told again this often. */
  readonly heartbeatMs: number;
}

export const OUTPUT_EDGES: OutputEdgeTiming = { quietMs: 90, heartbeatMs: 500 };

export type OutputEdge =
  | { readonly type: 'printing'; readonly paneId: string }
  | { readonly type: 'quiet'; readonly paneId: string; readonly quietMs: number };

const NONE: readonly OutputEdge[] = Object.freeze([]);

/** The panes printing now, from the reads of a host's output (times on a monotonic clock, in ms). */
export class OutputEdges {
  /** Printing panes: when each was last seen, and last told. */
  private readonly panes = new Map<string, { seen: number; told: number }>();

  constructor(private readonly timing: OutputEdgeTiming = OUTPUT_EDGES) {}

  /** Some pane is printing: its reader must look again within `quietMs` or so, even if nothing comes. */
  get printing(): boolean {
    return this.panes.size > 0;
  }

  /** One read at `now` and the panes that printed in it (none: a look that found nothing). */
  read(printed: Iterable<string>, now: number): readonly OutputEdge[] {
    let edges: OutputEdge[] | null = null;
    for (const paneId of printed) {
      const pane = this.panes.get(paneId);
      if (pane === undefined) this.panes.set(paneId, { seen: now, told: now });
      else {
        pane.seen = now;
        if (now - pane.told < this.timing.heartbeatMs) continue;
        pane.told = now;
      }
      (edges ??= []).push({ type: 'printing', paneId });
    }
    for (const [paneId, pane] of this.panes) {
      if (now - pane.seen < this.timing.quietMs) continue;
      this.panes.delete(paneId);
      (edges ??= []).push({ type: 'quiet', paneId, quietMs: now - pane.seen });
    }
    return edges ?? NONE;
  }

  /** The pane is gone (its death is told instead). */
  forget(paneId: string): void {
    this.panes.delete(paneId);
  }

  /** The reads end (the connection closed): every printing pane is quiet as of now, so none waits for an edge that cannot come. */
  end(now: number): readonly OutputEdge[] {
    const edges = [...this.panes].map(([paneId, pane]): OutputEdge => ({ type: 'quiet', paneId, quietMs: Math.max(0, now - pane.seen) }));
    this.panes.clear();
    return edges;
  }
}
