/** The keys, and that none of them is needed: the swarm runs on whatever is pressed or not. */
import { Text } from 'ink';
import { cut } from '../format.js';

export const FOOTER = '↑↓ select · enter go to its pane (back: prefix 0) · q detach — the swarm keeps running; `swarm down` stops it';
/** For terminals narrower than the whole footer (80 columns). */
export const FOOTER_SHORT = '↑↓ select · enter its pane (back: prefix 0) · q detach; the swarm keeps running';

export function Footer({ width }: { width: number }) {
  const text = [...FOOTER].length <= width ? FOOTER : FOOTER_SHORT;
  return <Text wrap="truncate" dimColor>{cut(text, width)}</Text>;
}
