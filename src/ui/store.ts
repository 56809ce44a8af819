/**
 * The swarm as the dashboard and the headless log see it: a vanilla zustand store the engine
 * writes and the views read (narrow selectors). No React here.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { JournalEntry } from '../core/protocol/journal.js';
import type { LaneState } from '../machine/types.js';

export interface LaneView {
  lane: LaneState;
  vendor: string | null;
  task: string;
  /** Its account's forecast (SPEC 10.7): "~40m left" until critical; absent or null: none yet. */
  left?: string | null;
  /** What its generations spent (SPEC 10.7): `$1.23`, or tokens where no cost is told; absent or null: nothing told. */
  spend?: string | null;
}

/** The last lines of a lane's agent pane as the engine last read its screen: plain text, newest last. */
export interface PanePreview {
  /** The pane read: the preview is the lane's while this is still its pane. */
  paneId: string;
  lines: string[];
}

export interface SwarmView {
  name: string;
  plan: string;
  session: string;
  backend: 'tmux' | 'pty';
  startedAt: number;
  lead: { name: string; epoch: number; account: string | null; state: string };
  lanes: LaneView[];
  /** The run's spend so far, every agent's (SPEC 10.7); absent or null: nothing told. */
  spent?: string | null;
  /** The last journal events, newest last. */
  events: JournalEntry[];
  /** By lane: its current agent pane's last lines, as last read (ui/preview.ts). */
  previews: Record<string, PanePreview>;
  /** Set once the engine has finished (plan done or stopped short). */
  outcome: { code: 0 | 1 | 5; why: string } | null;
}

export type SwarmStore = StoreApi<SwarmView>;

export const MAX_EVENTS = 50;

export function createSwarmStore(initial: Omit<SwarmView, 'events' | 'outcome' | 'previews'>): SwarmStore {
  return createStore<SwarmView>(() => ({ ...initial, events: [], previews: {}, outcome: null }));
}

/** A lane's pane was read: its last lines replace the lane's preview (no change when they are the same). */
export function setPreview(store: SwarmStore, lane: string, preview: PanePreview): void {
  const was = store.getState().previews[lane];
  if (was && was.paneId === preview.paneId && was.lines.length === preview.lines.length && was.lines.every((line, i) => line === preview.lines[i])) return;
  store.setState((s) => ({ previews: { ...s.previews, [lane]: preview } }));
}

export function pushEvent(store: SwarmStore, entry: JournalEntry): void {
  store.setState((s) => ({ events: [...s.events, entry].slice(-MAX_EVENTS) }));
}
