/** Lane and swarm views for dashboard tests, built from object literals at a fixed time. */
import { createStore } from 'zustand/vanilla';
import { initialLane } from '../../src/machine/laneState.js';
import type { LaneState } from '../../src/machine/types.js';
import type { JournalEntry } from '../../src/core/protocol/journal.js';
import type { Frame, FrameStore } from '../../src/ui/frames.js';
import type { LaneView, SwarmView } from '../../src/ui/store.js';

/** 2026-01-02T12:00:00Z: every test frame is drawn at this time. */
export const NOW = Date.UTC(2026, 0, 2, 12, 0, 0);

export function lane(name: string, patch: Partial<LaneState> = {}, vendor: string | null = 'openai'): LaneView {
  const base = initialLane({ name, role: 'lane', account: 'o1', now: NOW - 60_000 });
  return { lane: { ...base, state: 'working', paneId: '%3', ...patch }, vendor, task: `task of ${name}` };
}

export function entry(event: string, lane: string | null, extra: Record<string, unknown> = {}, ts = '2026-01-02T11:59:58.000Z'): JournalEntry {
  return { ts, type: 'observation', event, lane, generation: lane ? 1 : null, epoch: 1, ...extra };
}

export function view(lanes: LaneView[], patch: Partial<SwarmView> = {}): SwarmView {
  return {
    name: 'demo',
    plan: '/repo/plans/demo',
    session: 'swarm-demo',
    backend: 'tmux',
    startedAt: NOW - 125_000,
    lead: { name: 'lead', epoch: 1, account: 'a1', state: 'working' },
    lanes,
    events: [],
    previews: {},
    outcome: null,
    ...patch,
  };
}

export function frameStore(v: SwarmView, now = NOW): FrameStore {
  return createStore<Frame>(() => ({ view: v, now }));
}
