/**
 * How a frame fits the terminal: column widths for a width, lines for each section for a height,
 * and which lanes are in view. Pure. A frame is never taller than `rows - 1` (Ink clears the whole
 * screen, scrollback included, once a frame reaches the terminal's height) nor wider than `columns`.
 */
import { accountText, capacityText, charCount, lastText, phaseText, stateText } from './format.js';
import type { LaneView } from './store.js';

export interface Columns {
  name: number; gen: number; account: number; state: number;
  capacity: number; context: number;
  /** What the lane's generations spent (SPEC 10.7); 0: no column (no lane has a figure, or no room). */
  spend: number;
  phase: number; last: number;
}

type Key = keyof Columns;

/** Cursor and state mark: `› ● `. */
export const PREFIX_WIDTH = 4;
/** The column titles; a column is never narrower than its title's natural width unless the terminal forces it. */
export const TITLES: Record<Key, string> = {
  name: 'LANE', gen: 'GEN', account: 'ACCOUNT', state: 'STATE', capacity: 'CAPACITY', context: 'CONTEXT', spend: 'SPEND', phase: 'HANDOFF', last: 'LAST',
};
const MAX: Record<Exclude<Key, 'last'>, number> = { name: 20, gen: 4, account: 20, state: 18, capacity: 44, context: 11, spend: 10, phase: 16 };
/**
 * How the columns give way on a narrow terminal, step by step: each step narrows one column (or the
 * room wanted for the last report) down to a floor, and only as far as still needed.
 */
const SHRINK: readonly (readonly [Key, number])[] = [
  ['context', 8], ['account', 7], ['state', 10], ['capacity', 16], ['last', 6], ['spend', 0], ['name', 8], ['phase', 10],
  ['capacity', 12], ['state', 7], ['account', 4], ['phase', 8], ['name', 6], ['context', 5], ['last', 0],
];
const FIXED: readonly Exclude<Key, 'last'>[] = ['name', 'gen', 'account', 'state', 'capacity', 'context', 'spend', 'phase'];
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
    // Only once some lane has a figure: a plan of command lanes shows no empty column.
    spend: lanes.some((v) => (v.spend ?? null) !== null) ? natural('spend', lanes.map((v) => v.spend ?? '-')) : 0,
    phase: natural('phase', lanes.map((v) => phaseText(v.lane, now))),
    last: Math.min(WANT_LAST, Math.max(0, ...lanes.map((v) => len(lastText(v.lane))))),
  };
  // A column of width 0 (SPEND, when none or given way) takes no room, its gap included.
  const used = (): number => PREFIX_WIDTH + FIXED.reduce((sum, key) => sum + (cols[key] === 0 ? 0 : cols[key] + 1), 0);
  for (const [key, floor] of SHRINK) {
    const deficit = used() + cols.last - width;
    if (deficit <= 0) break;
    // SPEND gives way whole: a cut dollar figure would mislead.
    cols[key] = key === 'spend' ? 0 : Math.max(Math.min(cols[key], floor), cols[key] - deficit);
  }
  const rest = width - used();
  cols.last = rest >= MIN_LAST ? rest : 0;
  return cols;
}

export interface Budget {
  lanes: number;
  /** Events shown under their title (0: no events section). */
  events: number;
  /** The legend's one line, or none. */
  legend: 0 | 1;
  /** Lines of the selected lane's pane shown under their title (0: no preview). */
  preview: number;
}

/** The fewest lanes the table keeps whatever else wants room. */
const MIN_LANES = 3;
/** Most lines of a pane the preview shows; fewer on a shorter terminal. */
export const MAX_PREVIEW_LINES = 6;

/** How many of the selected pane's lines the preview shows on a terminal `rows` tall: a line per 8 rows, none under 2. */
export function previewSize(rows: number): number {
  const lines = Math.min(MAX_PREVIEW_LINES, Math.floor(rows / 8));
  return lines >= 2 ? lines : 0;
}

/**
 * Lines for each section within `rows - 1`, given in this order while they fit: up to 3 lanes; the
 * events' title and up to 3 events (when there are any); the legend; then the other lanes and the
 * preview (its title and up to `previewSize(rows)` lines, at least 2 or none); more events, up to 10.
 * The preview never hides a lane that would be in view without it: it takes what the lanes leave,
 * unless they scroll anyway, when it takes its lines first. So on a short terminal the preview goes
 * first, then the legend, then the events; the table keeps its lanes.
 */
export function budget(rows: number, laneCount: number, eventCount: number): Budget {
  const avail = Math.max(0, rows - 1 - FIXED_LINES);
  const wanted = Math.min(MAX_EVENTS_SHOWN, eventCount);
  const first = Math.min(laneCount, MIN_LANES, avail);
  let room = avail - first;
  const someEvents = wanted === 0 ? 0 : Math.min(room, Math.min(3, wanted) + 1);
  const eventLines = someEvents >= 2 ? someEvents : 0;
  room -= eventLines;
  const legend = room >= 1 ? 1 : 0;
  room -= legend;
  const rest = laneCount - first;
  const size = laneCount === 0 ? 0 : previewSize(rows);
  const scrolls = rest > room;
  const preview = size === 0 ? 0 : scrolls ? (room >= size + 1 ? size : 0) : Math.min(size, room - rest - 1);
  const shown = preview >= 2 ? preview : 0;
  if (shown > 0) room -= shown + 1;
  const lanes = first + Math.min(rest, room);
  room -= lanes - first;
  const events = eventLines > 0 ? Math.min(wanted, eventLines - 1 + room) : room >= 2 ? Math.min(wanted, room - 1) : 0;
  return { lanes, events, legend, preview: shown };
}

/** The first lane in view: the selected lane kept near the middle, the window never past the end. */
export function scrollTop(selected: number, count: number, visible: number): number {
  if (visible <= 0 || count <= visible) return 0;
  return Math.max(0, Math.min(count - visible, selected - Math.floor(visible / 2)));
}
