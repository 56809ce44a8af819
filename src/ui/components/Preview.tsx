/**
 * The selected lane's pane, read only: its last lines as the engine last read them (when the pane
 * printed), as plain text. Only the lane's current pane is shown: after a handoff, the successor's
 * once it is the lane's.
 */
import { Box } from 'ink';
import { useFrame } from '../context.js';
import { cutCells } from '../cells.js';
import { previewLines } from '../preview.js';
import { cut } from '../format.js';
import { Line } from './Line.js';

export interface PreviewProps {
  width: number;
  color: boolean;
  /** The selected lane's index. */
  selected: number;
  /** How many of its lines fit. */
  count: number;
}

const INDENT = '  ';

export function Preview({ width, color, selected, count }: PreviewProps) {
  const lane = useFrame((f) => f.view.lanes[selected]?.lane ?? null);
  const preview = useFrame((f) => (lane === null ? undefined : f.view.previews[lane.name]));
  if (lane === null) return null;
  const current = preview !== undefined && preview.paneId === lane.paneId;
  // The store's lines are clean already; cleaned again here, so nothing else can reach the frame.
  const lines = current ? previewLines(preview.lines.join('\n'), count) : [];
  const note = lane.paneId === null ? 'no pane yet' : lines.length === 0 ? 'nothing read from its pane yet' : null;
  return (
    <Box flexDirection="column">
      <Line runs={[{ text: cut(`PANE ${lane.name} g${lane.generation} · its last lines, read only`, width), dim: true }]} width={width} color={color} />
      {note !== null ? <Line runs={[{ text: cut(`${INDENT}${note}`, width), dim: true }]} width={width} color={color} /> : null}
      {lines.map((line, i) => (
        <Line key={i} runs={[{ text: cutCells(`${INDENT}${line}`, width) }]} width={width} color={color} />
      ))}
    </Box>
  );
}
