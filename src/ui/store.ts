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
}

export interface SwarmView {
  name: string;
  plan: string;
  session: string;
  backend: 'tmux' | 'pty';
  startedAt: number;
  lead: { name: string; epoch: number; account: string | null; state: string };
  lanes: LaneView[];
  /** The last journal events, newest last. */
  events: JournalEntry[];
  /** Set once the engine has finished (plan done or stopped short). */
  outcome: { code: 0 | 1 | 5; why: string } | null;
}

export type SwarmStore = StoreApi<SwarmView>;

export const MAX_EVENTS = 50;

export function createSwarmStore(initial: Omit<SwarmView, 'events' | 'outcome'>): SwarmStore {
  return createStore<SwarmView>(() => ({ ...initial, events: [], outcome: null }));
}

export function pushEvent(store: SwarmStore, entry: JournalEntry): void {
  store.setState((s) => ({ events: [...s.events, entry].slice(-MAX_EVENTS) }));
}
