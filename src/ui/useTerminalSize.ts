/**
 * The terminal's size, kept current on resize (Ink's stdout); a fixed size given wins (tests).
 *
 * A terminal that narrows rewraps the frame already on screen (tmux does), so the lines Ink erases
 * by count are no longer the frame's: parts of earlier frames would stay stacked above the live one.
 * Once the width has stopped changing (and Ink has drawn a frame at it), the screen is cleared and
 * the frame drawn whole, through Ink's own write (which erases and redraws its frame around it).
 */
import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

export interface TerminalSize {
  columns: number;
  rows: number;
}

const FALLBACK: TerminalSize = { columns: 80, rows: 24 };
/** Home, then erase the screen: no earlier frame left on it. */
export const CLEAR_SCREEN = '\u001b[H\u001b[2J';
/** After the last width change: longer than Ink's frame interval (10 frames a second), so its frame at the new width is drawn. */
export const SETTLE_MS = 250;

export function useTerminalSize(fixed?: TerminalSize): TerminalSize {
  const { stdout, write } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || FALLBACK.columns, rows: stdout.rows || FALLBACK.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return undefined;
    let width = read().columns;
    let settle: NodeJS.Timeout | null = null;
    const onResize = (): void => {
      const now = read();
      setSize(now);
      if (now.columns === width) return;
      width = now.columns;
      if (settle) clearTimeout(settle);
      settle = setTimeout(() => {
        settle = null;
        write(CLEAR_SCREEN);
      }, SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
      if (settle) clearTimeout(settle);
    };
  }, [stdout, fixed]);
  return fixed ?? size;
}
