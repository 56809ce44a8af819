/**
 * The column titles and one line per lane in view. Widths come from every lane, not only those in
 * view, so columns stay put while the list scrolls.
 */
import { memo } from 'react';
import { Box } from 'ink';
import { useFrame } from '../context.js';
import { phaseText } from '../format.js';
import { laneColumns, type Columns } from '../layout.js';
import { laneCells, titleLine, trimmedCells, type Cell } from '../laneRow.js';
import type { LaneView } from '../store.js';
import { Line } from './Line.js';

export interface LaneTableProps {
  width: number;
  color: boolean;
  /** The first lane in view and how many are. */
  top: number;
  count: number;
  selected: number;
}

export function LaneTable({ width, color, top, count, selected }: LaneTableProps) {
  const lanes = useFrame((f) => f.view.lanes);
  const now = useFrame((f) => f.now);
  const cols = laneColumns(lanes, now, width);
  return (
    <Box flexDirection="column">
      <Line runs={[{ text: titleLine(cols), dim: true }]} width={width} color={color} />
      {lanes.slice(top, top + count).map((view, i) => (
        <LaneRow key={view.lane.name} view={view} now={now} cols={cols} width={width} selected={top + i === selected} color={color} />
      ))}
    </Box>
  );
}

interface LaneRowProps {
  view: LaneView;
  now: number;
  cols: Columns;
  width: number;
  selected: boolean;
  color: boolean;
}

/** One lane on one line (components/Line.tsx: laid out by Ink as a placeholder, drawn as itself). */
const LaneRow = memo(function LaneRow({ view, now, cols, width, selected, color }: LaneRowProps) {
  return <Line runs={toneRuns(trimmedCells(laneCells(view, now, cols, selected)), color)} width={width} color={color} bold={selected} />;
}, (a, b) => a.view === b.view && a.width === b.width && a.selected === b.selected && a.color === b.color && sameColumns(a.cols, b.cols) &&
  // The clock moves every row's `now`; only a row whose age reads differently draws again.
  (a.now === b.now || phaseText(a.view.lane, a.now) === phaseText(b.view.lane, b.now)));

function sameColumns(a: Columns, b: Columns): boolean {
  return (Object.keys(a) as (keyof Columns)[]).every((k) => a[k] === b[k]);
}

/** Neighbouring cells of one tone as one run (fewer nodes for Ink to lay out, fewer codes to write). */
function toneRuns(cells: readonly Cell[], color: boolean): Cell[] {
  const runs: Cell[] = [];
  for (const cell of cells) {
    const tone = color ? cell.tone : null;
    const last = runs.at(-1);
    if (last && last.tone === tone) last.text += cell.text;
    else runs.push({ text: cell.text, tone });
  }
  return runs;
}
