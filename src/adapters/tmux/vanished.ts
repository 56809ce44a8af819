/**
 * Panes that vanish: closed from tmux (`kill-pane`, a user's prefix+x, `kill-window`) rather than
 * dying. Such a pane makes no death: no `pane-died` hook, no `#{pane_dead}` value, it is just gone.
 * What tmux 3.3a tells a control client then names no pane: `%layout-change @w …` when the window
 * keeps other panes, `%unlinked-window-close @w` (even for a window of the attached session; other
 * versions say `%window-close @w`) when it was the window's last. So on each of those the host lists
 * the session's panes again, and a swarm pane it knew that is missing from the list is gone.
 */

/** Control-mode notices after which some pane may have vanished. */
export const PANES_CHANGED: ReadonlySet<string> = new Set(['layout-change', 'window-close', 'unlinked-window-close']);

export interface VanishedPanesDeps {
  /** The session's swarm panes now, by tmux id (`%3`); rejects when tmux cannot be asked. */
  list(): Promise<string[]>;
  /** A pane known to the host is gone without a death. */
  gone(paneId: string): void;
}

/** The swarm panes a host knows are there, and a look (one at a time, coalesced) for those gone. */
export class VanishedPanes {
  private readonly known = new Set<string>();
  private looking: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: VanishedPanesDeps) {}

  /** Panes seen (a spawn, a listing): from now on their vanishing is told. */
  seen(paneIds: Iterable<string>): void {
    for (const paneId of paneIds) this.known.add(paneId);
  }

  /** The pane's end is told otherwise (its death, or the host closed it): never as vanished. */
  forget(paneId: string): void {
    this.known.delete(paneId);
  }

  /** Look now (a look under way is followed by one more, not by one per notice). */
  look(): Promise<void> {
    if (this.looking !== null) {
      this.again = true;
      return this.looking;
    }
    this.looking = this.lookNow().finally(() => {
      this.looking = null;
      if (this.again) {
        this.again = false;
        void this.look();
      }
    });
    return this.looking;
  }

  private async lookNow(): Promise<void> {
    // Only panes known before the listing: one spawned meanwhile may be missing from it.
    const before = [...this.known];
    if (before.length === 0) return;
    let present: Set<string>;
    try {
      present = new Set(await this.deps.list());
    } catch {
      return; // no answer (the server is going): its loss is told apart
    }
    for (const paneId of before) {
      if (present.has(paneId) || !this.known.has(paneId)) continue;
      this.known.delete(paneId);
      this.deps.gone(paneId);
    }
  }
}
