/**
 * The preview's text: the last lines of a pane's screen as plain text. Escape codes (colours, cursor
 * moves, titles, links) are dropped, tabs become spaces, and no other control character is left, so
 * whatever an agent printed, only text reaches the dashboard's frame. Pure.
 */
import { stripAnsi } from '../core/protocol/protocol.js';

/** How many lines of each lane's pane are kept (more than the preview ever shows). */
export const PREVIEW_KEPT = 8;

const TAB = 8;

/**
 * The last `count` lines of `screen` that show anything, cleaned: newest last, trailing spaces
 * dropped. `stripAnsi` takes every escape code and every control character but the line break and
 * the tab, which is then spaced out.
 */
export function previewLines(screen: string, count = PREVIEW_KEPT): string[] {
  if (count <= 0) return [];
  return stripAnsi(screen.replace(/\r\n?/g, '\n'))
    .split('\n')
    .map((line) => expandTabs(line).trimEnd())
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
