/** The keys, and that none of them is needed: the swarm runs on whatever is pressed or not. */
import { Line } from './Line.js';
import { cut } from '../format.js';

export const FOOTER = '↑↓ select · enter go to its pane (back: prefix 0) · q detach — the swarm keeps running; `swarm down` stops it';
/** For terminals narrower than the whole footer (80 columns). */
export const FOOTER_SHORT = '↑↓ select · enter its pane (back: prefix 0) · q detach; the swarm keeps running';

export function Footer({ width, color }: { width: number; color: boolean }) {
  const text = [...FOOTER].length <= width ? FOOTER : FOOTER_SHORT;
  return <Line runs={[{ text: cut(text, width), dim: true }]} width={width} color={color} />;
}
