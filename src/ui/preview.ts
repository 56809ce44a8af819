/**
 * The preview's text: the last lines of a pane's screen as plain text. Escape codes (colours, cursor
 * moves, titles, links) are dropped, tabs become spaces, and no other control character is left, so
 * whatever an agent printed, only text reaches the dashboard's frame. Pure.
 */
import { stripAnsi } from '../core/protocol/protocol.js';

/** How many lines of each lane's pane are kept (more than the preview ever shows). */
export const PREVIEW_KEPT = 8;

const TAB = 8;
// eslint-disable-next-line no-control-regex -- control characters are what this drops
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The last `count` lines of `screen` that show anything, cleaned: newest last, trailing spaces dropped. */
export function previewLines(screen: string, count = PREVIEW_KEPT): string[] {
  if (count <= 0) return [];
  return stripAnsi(screen.replace(/\r\n?/g, '\n'))
    .split('\n')
    .map((line) => expandTabs(line.replace(CONTROL, '')).trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(-count);
}

/** Tabs as the spaces up to the next stop (every 8 characters). */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(TAB - (out.length % TAB)) : ch;
  return out;
}
