/**
 * One line of styled runs, as every line of the dashboard is drawn. Ink lays it out as a
 * placeholder as wide as the line and the line itself is swapped in at the output stage, after Ink
 * has measured and placed it.
 *
 * Ink measures every text of every frame, and keeps every text it ever measured (for good: a
 * dashboard that runs all night would keep every line it drew). A placeholder is printable ASCII,
 * which Ink measures at once, and the same string whatever the line says: a line that changes
 * costs Ink no layout and leaves nothing behind. A line wider than `width`, or whose width in cells
 * is not plain to tell (ui/cells.ts `asciiStandIn`), is drawn as ordinary Ink texts, which Ink
 * cuts to fit; the placeholder is never cut, so it is always swapped back. So is every line for a
 * screen reader (INK_SCREEN_READER), which Ink reads out before any transform.
 */
import chalk from 'chalk';
import { Text, Transform, useIsScreenReaderEnabled } from 'ink';
import type { Tone } from '../format.js';
import { asciiStandIn } from '../cells.js';

export interface Run {
  text: string;
  tone?: Tone;
  bold?: boolean;
  dim?: boolean;
}

export interface LineProps {
  runs: readonly Run[];
  width: number;
  /** False under `NO_COLOR`: tones are left out (bold and dim stay). */
  color: boolean;
  /** The whole line bold (the selected lane). */
  bold?: boolean;
}

const PLACEHOLDER = '.';

export function Line({ runs, width, color, bold = false }: LineProps) {
  // A screen reader is given the texts themselves (Ink reads them out before any transform).
  const reader = useIsScreenReaderEnabled();
  const cells = asciiStandIn(runs.map((run) => run.text).join(''))?.length ?? Number.POSITIVE_INFINITY;
  if (!reader && cells <= width) {
    const placeholder = PLACEHOLDER.repeat(cells);
    const text = painted(runs, color, bold);
    return (
      <Transform transform={(line) => (line === placeholder ? text : line)}>
        <Text>{placeholder}</Text>
      </Transform>
    );
  }
  return (
    <Text wrap="truncate" bold={bold}>
      {runs.map((run, i) => (
        <Text key={i} bold={run.bold ?? false} dimColor={run.dim ?? false} {...(color && run.tone ? { color: run.tone } : {})}>{run.text}</Text>
      ))}
    </Text>
  );
}

/** The runs styled as Ink's Text styles them (dim, then the colour, then bold). */
function painted(runs: readonly Run[], color: boolean, bold: boolean): string {
  const text = runs.map((run) => {
    let styled = run.text;
    if (run.dim) styled = chalk.dim(styled);
    if (color && run.tone) styled = chalk[run.tone](styled);
    if (run.bold) styled = chalk.bold(styled);
    return styled;
  }).join('');
  return bold ? chalk.bold(text) : text;
}
