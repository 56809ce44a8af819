/**
 * The column titles and one line per lane in view. Widths come from every lane, not only those in
 * view, so columns stay put while the list scrolls.
 */
import { memo } from 'react';
import { Box, Text } from 'ink';
import { useFrame } from '../context.js';
import { laneColumns, type Columns } from '../layout.js';
import { laneCells, titleLine, type Cell } from '../laneRow.js';
import type { LaneView } from '../store.js';
import { Tinted } from './Tinted.js';

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
      <Text wrap="truncate" dimColor>{titleLine(cols)}</Text>
      {lanes.slice(top, top + count).map((view, i) => (
        <LaneRow key={view.lane.name} view={view} now={now} cols={cols} selected={top + i === selected} color={color} />
      ))}
    </Box>
  );
}

interface LaneRowProps {
  view: LaneView;
  now: number;
  cols: Columns;
  selected: boolean;
  color: boolean;
}

/**
 * One lane: the cells before the phase, the phase with its age, the rest. The age is its own text
 * so a clock tick changes one short string, not the whole line (Ink keeps every text it measured).
 */
const LaneRow = memo(function LaneRow({ view, now, cols, selected, color }: LaneRowProps) {
  const cells = laneCells(view, now, cols, selected);
  const at = cells.findIndex((c) => c.clock === true);
  const parts = [cells.slice(0, at), cells.slice(at, at + 1), cells.slice(at + 1)];
  if (parts[2]!.length === 0) parts[1]![0] = { ...parts[1]![0]!, text: parts[1]![0]!.text.trimEnd() };
  return (
    <Box>
      {parts.filter((part) => part.length > 0).map((part, p) => (
        <Text key={p} wrap="truncate" bold={selected}>
          {toneRuns(part, color).map((run, i) => (
            <Tinted key={i} tone={run.tone} color={color}>{run.text}</Tinted>
          ))}
        </Text>
      ))}
    </Box>
  );
}, (a, b) => a.view === b.view && a.now === b.now && a.selected === b.selected && a.color === b.color && sameColumns(a.cols, b.cols));

/** Neighbouring cells of one tone as one run (fewer nodes for Ink to lay out). */
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

function sameColumns(a: Columns, b: Columns): boolean {
  return (Object.keys(a) as (keyof Columns)[]).every((k) => a[k] === b[k]);
}
