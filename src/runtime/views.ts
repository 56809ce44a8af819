/** The store's lane rows, derived from the engine state (lead excluded; it has its own header). */
import type { LaneView } from '../ui/store.js';
import type { EngineState } from './engineState.js';

/** What the views read of the engine (not the engine itself: no import cycle). */
export interface ViewSource {
  readonly state: EngineState;
  readonly config: { accounts: readonly { id: string; vendor: string }[] };
  taskOf(name: string): string;
}

export function laneViews(engine: ViewSource): LaneView[] {
  return engine.state.order
    .filter((name) => name !== engine.state.leadName)
    .map((name) => engine.state.lanes[name])
    .filter((lane) => lane !== undefined)
    .map((lane) => ({
      lane,
      vendor: engine.config.accounts.find((a) => a.id === lane.account)?.vendor ?? null,
      task: engine.taskOf(lane.name),
    }));
}
