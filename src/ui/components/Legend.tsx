/** One line under the events: what `near`, `attention` and `blocked` mean. */
import { legendText } from '../format.js';
import { Line } from './Line.js';

export function Legend({ width, color }: { width: number; color: boolean }) {
  return <Line runs={[{ text: legendText(width), dim: true }]} width={width} color={color} />;
}
