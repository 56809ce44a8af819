/** The store's lane rows, derived from the engine state (lead excluded; it has its own header). */
import type { LaneView } from '../ui/store.js';
import type { Engine } from './engine.js';

export function laneViews(engine: Engine): LaneView[] {
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
