/**
 * The column titles and one line per lane in view. Widths come from every lane, not only those in
 * view, so columns stay put while the list scrolls.
 */
import { memo } from 'react';
import chalk from 'chalk';
import { Box, Text } from 'ink';
import { useFrame } from '../context.js';
import { phaseText } from '../format.js';
import { laneColumns, type Columns } from '../layout.js';
import { laneCells, rowParts, titleLine, type Cell } from '../laneRow.js';
import { asciiStandIn } from '../inkOutput.js';
import type { LaneView } from '../store.js';
import { Swapped } from './Swapped.js';
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

/**
 * One lane: its three parts side by side (ui/laneRow.ts `rowParts`). Each is measured by Ink as
 * its ASCII stand-in and drawn as itself (Swapped) when the row fits the width whole, as nearly
 * every row does; else as plain Ink texts, which Ink cuts to fit.
 */
const LaneRow = memo(function LaneRow({ view, now, cols, width, selected, color }: LaneRowProps) {
  const parts = rowParts(laneCells(view, now, cols, selected));
  const standIns = parts.map((part) => asciiStandIn(part.map((c) => c.text).join('')));
  const fits = standIns.reduce((used, s) => (s === null ? Number.POSITIVE_INFINITY : used + s.length), 0) <= width;
  return (
    <Box>
      {parts.map((part, p) => (fits
        ? <Swapped key={p} standIn={standIns[p]!} text={painted(part, color, selected)} />
        : (
          <Text key={p} wrap="truncate" bold={selected}>
            {toneRuns(part, color).map((run, i) => <Tinted key={i} tone={run.tone} color={color}>{run.text}</Tinted>)}
          </Text>
        )))}
    </Box>
  );
}, (a, b) => a.view === b.view && a.width === b.width && a.selected === b.selected && a.color === b.color && sameColumns(a.cols, b.cols) &&
  // The clock moves every row's `now`; only a row whose age reads differently draws again.
  (a.now === b.now || phaseText(a.view.lane, a.now) === phaseText(b.view.lane, b.now)));

function sameColumns(a: Columns, b: Columns): boolean {
  return (Object.keys(a) as (keyof Columns)[]).every((k) => a[k] === b[k]);
}

/** The part as drawn: its runs in their tones, bold when selected (as Ink's Text would style them). */
function painted(part: readonly Cell[], color: boolean, bold: boolean): string {
  const text = toneRuns(part, color).map((run) => (run.tone ? chalk[run.tone](run.text) : run.text)).join('');
  return bold ? chalk.bold(text) : text;
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
