/**
 * How a frame fits the terminal: column widths for a width, lines for each section for a height,
 * and which lanes are in view. Pure. A frame is never taller than `rows - 1` (Ink clears the whole
 * screen, scrollback included, once a frame reaches the terminal's height) nor wider than `columns`.
 */
import { accountText, capacityText, charCount, lastText, phaseText, stateText } from './format.js';
import type { LaneView } from './store.js';

export interface Columns {
  name: number; gen: number; account: number; state: number;
  capacity: number; context: number; phase: number; last: number;
}

type Key = keyof Columns;

/** Cursor and state mark: `› ● `. */
export const PREFIX_WIDTH = 4;
/** The column titles; a column is never narrower than its title's natural width unless the terminal forces it. */
export const TITLES: Record<Key, string> = {
  name: 'LANE', gen: 'GEN', account: 'ACCOUNT', state: 'STATE', capacity: 'CAPACITY', context: 'CONTEXT', phase: 'HANDOFF', last: 'LAST',
};
const MAX: Record<Exclude<Key, 'last'>, number> = { name: 20, gen: 4, account: 20, state: 18, capacity: 44, context: 11, phase: 16 };
/**
 * How the columns give way on a narrow terminal, step by step: each step narrows one column (or the
 * room wanted for the last report) down to a floor, and only as far as still needed.
 */
const SHRINK: readonly (readonly [Key, number])[] = [
  ['context', 8], ['account', 7], ['state', 10], ['capacity', 16], ['last', 6], ['name', 8], ['phase', 10],
  ['capacity', 12], ['state', 7], ['account', 4], ['phase', 8], ['name', 6], ['context', 5], ['last', 0],
];
const FIXED: readonly Exclude<Key, 'last'>[] = ['name', 'gen', 'account', 'state', 'capacity', 'context', 'phase'];
/** Room wanted for the last report before other columns give way (less when every report is shorter). */
const WANT_LAST = 12;
const MIN_LAST = 4;
/** Header (2 lines), the column titles, the footer. */
export const FIXED_LINES = 4;
export const MAX_EVENTS_SHOWN = 10;

const len = charCount;

/** Widths that fit `width`: each column as wide as its longest cell (capped), narrowed step by step. */
export function laneColumns(lanes: readonly LaneView[], now: number, width: number): Columns {
  const natural = (key: Exclude<Key, 'last'>, cells: string[]): number =>
    Math.min(MAX[key], Math.max(len(TITLES[key]), ...cells.map(len)));
  const cols: Columns = {
    name: natural('name', lanes.map((v) => v.lane.name)),
    gen: natural('gen', lanes.map((v) => `g${v.lane.generation}`)),
    account: natural('account', lanes.map(accountText)),
    state: natural('state', lanes.map((v) => stateText(v.lane))),
    capacity: natural('capacity', lanes.map((v) => capacityText(v.lane.capacity))),
    context: MAX.context,
    phase: natural('phase', lanes.map((v) => phaseText(v.lane, now))),
    last: Math.min(WANT_LAST, Math.max(0, ...lanes.map((v) => len(lastText(v.lane))))),
  };
  const used = (): number => PREFIX_WIDTH + FIXED.reduce((sum, key) => sum + cols[key] + 1, 0);
  for (const [key, floor] of SHRINK) {
    const deficit = used() + cols.last - width;
    if (deficit <= 0) break;
    cols[key] = Math.max(Math.min(cols[key], floor), cols[key] - deficit);
  }
  const rest = width - used();
  cols.last = rest >= MIN_LAST ? rest : 0;
  return cols;
}

export interface Budget { lanes: number; events: number }

/**
 * Lines for lanes and events within `rows - 1`: lanes first (keeping room for up to 3 events when
 * there are any, unless that leaves fewer than 3 lanes), then events up to 10 under their title.
 */
export function budget(rows: number, laneCount: number, eventCount: number): Budget {
  const avail = Math.max(0, rows - 1 - FIXED_LINES);
  const wanted = Math.min(MAX_EVENTS_SHOWN, eventCount);
  const reserve = wanted === 0 ? 0 : Math.min(3, wanted) + 1;
  const lanes = Math.min(laneCount, Math.max(Math.min(3, avail), avail - reserve));
  const left = avail - lanes;
  const events = left >= 2 ? Math.min(wanted, left - 1) : 0;
  return { lanes: Math.min(lanes, avail), events };
}

/** The first lane in view: the selected lane kept near the middle, the window never past the end. */
export function scrollTop(selected: number, count: number, visible: number): number {
  if (visible <= 0 || count <= visible) return 0;
  return Math.max(0, Math.min(count - visible, selected - Math.floor(visible / 2)));
}
