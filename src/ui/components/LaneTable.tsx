/**
 * The column titles and one line per lane in view. Widths come from every lane, not only those in
 * view, so columns stay put while the list scrolls.
 */
import { memo } from 'react';
import { Box, Text } from 'ink';
import { useFrame } from '../context.js';
import { phaseText } from '../format.js';
import { laneColumns, type Columns } from '../layout.js';
import { laneCells, rowTexts, titleLine } from '../laneRow.js';
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
 * One lane: its cells as a few texts side by side. A text is all printable ASCII or has none of
 * it, because Ink measures every text of the frame on every frame and an ASCII text ~50 times
 * faster; the phase's age is a text of its own, so a clock tick changes one short string (Ink keeps
 * every text it measured).
 */
const LaneRow = memo(function LaneRow({ view, now, cols, selected, color }: LaneRowProps) {
  return (
    <Box>
      {rowTexts(laneCells(view, now, cols, selected), color).map((runs, p) => (
        <Text key={p} wrap="truncate" bold={selected}>
          {runs.map((run, i) => (run.tone === null ? run.text : <Tinted key={i} tone={run.tone} color={color}>{run.text}</Tinted>))}
        </Text>
      ))}
    </Box>
  );
}, (a, b) => a.view === b.view && a.selected === b.selected && a.color === b.color && sameColumns(a.cols, b.cols) &&
  // The clock moves every row's `now`; only a row whose age reads differently draws again.
  (a.now === b.now || phaseText(a.view.lane, a.now) === phaseText(b.view.lane, b.now)));

function sameColumns(a: Columns, b: Columns): boolean {
  return (Object.keys(a) as (keyof Columns)[]).every((k) => a[k] === b[k]);
}
